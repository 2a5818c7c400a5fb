// Rankings and verdicts end to end: an Arbiter file with a pair, two items of three or more responses and
// single-response items (one with steps of its own), imported through the UI. The header's Rank tab (n)
// opens the first item to rank (the pair and the single responses are walked past); four responses are
// ranked from the keyboard with a tie (the last one places itself), Enter saves, and the revision is
// checked through the API in source order. A three-response item is ranked by dragging. The Verdict tab
// (u) gives two verdicts (1 good, 2 bad) that save and move on, Ctrl+Z puts back a replaced verdict, and
// `s` opens a response's own steps. Text typed in the rationale box is never a shortcut.
// With ARBITER_SHOTS=1 it also writes docs/screenshots/ranking-light.png, ranking-dark.png and verdict-light.png.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProjectViaUi, importViaUi, launchBrowser, openApp, ROOT, startHost, writeJsonl, type Host } from './helpers';

const ANNOTATOR = 'e2e-ranker';
const PROJECT = 'e2e rankings';
const SHOTS = process.env.ARBITER_SHOTS === '1';

const SKY = [
  'Sunlight is made of every colour. Air molecules scatter **short, blue waves** far more than long red ones, so blue light reaches your eyes from every part of the sky.',
  'The sky is blue because it reflects the ocean.',
  'Light from the Sun bumps into tiny bits of air. Blue light bounces around the most — a bit like a pinball — so when you look up, blue is coming at you from everywhere.\n\nAt sunset the light travels through more air, the blue gets scattered away, and you see reds and oranges.',
  'Because of *Rayleigh scattering*: the scattered intensity goes as $1/\\lambda^4$, so shorter wavelengths (blue) scatter about 5.5× more than red.',
];
const ITEMS = [
  { id: 'pair', prompt: 'Is 7 prime?', responses: [{ text: 'Yes.' }, { text: 'No.' }] },
  {
    id: 'solo-good',
    prompt: 'What does a hash map do? One short paragraph and a tiny example.',
    responses: [
      {
        text: 'A hash map stores **key → value** pairs. It runs each key through a hash function to pick a bucket, so looking a key up, adding it or removing it takes about the same time however many entries there are — $O(1)$ on average.\n\n```python\nages = {"ada": 36, "alan": 41}\nages["grace"] = 85   # insert\nprint(ages["ada"])   # 36\n```\n\nTwo keys can land in the same bucket (a *collision*); the map keeps both and tells them apart by comparing the keys themselves.',
        model: 'explainer-1',
      },
    ],
  },
  { id: 'four', prompt: 'Why is the sky blue? Answer for a curious ten-year-old, in two or three sentences.', responses: SKY.map((text, i) => ({ text, model: `m${i}` })) },
  { id: 'solo-bad', prompt: 'What is 17 × 24?', responses: [{ text: '17 × 24 = **418**.', model: 'calc-1' }] },
  {
    id: 'three',
    prompt: 'Name a good first programming language and say why in one sentence.',
    responses: [{ text: 'Python: its syntax reads like English, so you learn ideas, not punctuation.' }, { text: 'Assembly, to learn how computers really work.' }, { text: 'JavaScript, because it runs in every browser you already have.' }],
  },
  {
    id: 'solo-steps',
    prompt: 'Double 6, then subtract 5.',
    responses: [{ text: 'Step 1: 6 × 2 = 12.\nStep 2: 12 − 5 = 7.\nStep 3: The answer is 7.', steps: ['6 × 2 = 12.', '12 − 5 = 7.', 'The answer is 7.'] }],
  },
];

interface Revision {
  id: string;
  task: string;
  annotator: string;
  choice: string | null;
  ranking: number[][] | null;
  shownOrder: number[] | null;
  body: Record<string, unknown>;
}

let host: Host;
let browser: Browser;
let page: Page;
let problems: string[];
const ids = new Map<string, number>();

const history = async (external: string, task: string) =>
  (await host.api<Revision[]>('labelHistory', { project: PROJECT, itemId: ids.get(external) })).filter((r) => r.task === task && r.annotator === ANNOTATOR);
const shownOrder = async (external: string) => (await host.api<{ shownOrder: number[] }>('getItem', { project: PROJECT, annotator: ANNOTATOR, itemId: ids.get(external) })).shownOrder;
/** The key (screen position, 1-based) that picks a source-order response. */
const keyOf = (order: number[], response: number) => String(order.indexOf(response) + 1);

async function onItem(screen: 'ranking-screen' | 'verdict-screen', external: string) {
  await expect.poll(() => page.getByTestId(screen).getAttribute('data-item-id'), { timeout: 10_000 }).toBe(String(ids.get(external)));
}

/** Waits until every save is confirmed: the last one says saved, and the outbox is empty. */
async function allSaved() {
  await expect.poll(() => page.getByTestId('status-text').getAttribute('data-state'), { timeout: 10_000 }).toBe('saved');
  await expect.poll(() => page.evaluate(() => localStorage.getItem('arbiter.pendingJudgements')), { timeout: 10_000 }).toBeNull();
}

/** Exports through the host API and reads the file it wrote back, one record a line. */
async function exported<T>(args: Record<string, unknown>): Promise<{ written: number; records: T[] }> {
  const summary = await host.api<{ out: string; written: number }>('exportProject', { project: PROJECT, ...args });
  const records = readFileSync(join(host.home, 'exports', summary.out), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
  return { written: summary.written, records };
}

const strip = () => page.getByTestId('rank-strip').innerText();
const places = () => page.getByTestId('rank-card').evaluateAll((cards) => cards.map((c) => c.getAttribute('data-place')));

beforeAll(async () => {
  host = await startHost();
  browser = await launchBrowser();
  ({ page, problems } = await openApp(browser, host, { annotator: ANNOTATOR }));
  await createProjectViaUi(page, PROJECT);
  await importViaUi(page, writeJsonl(host.home, 'ranked.jsonl', ITEMS));
  expect(await page.getByTestId('import-result').innerText()).toMatch(/Imported 6 new items[\s\S]*arbiter/);
  const { rows } = await host.api<{ rows: { id: number; externalId: string }[] }>('listItems', { project: PROJECT });
  for (const row of rows) ids.set(row.externalId, row.id);
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

describe('the ranking screen', () => {
  it('opens from the header with n on the first item of three or more responses, named by screen position', async () => {
    await page.keyboard.press('n');
    await page.getByTestId('ranking-screen').waitFor();
    await onItem('ranking-screen', 'four');
    expect(await page.evaluate(() => location.hash)).toBe(`#/p/${encodeURIComponent(PROJECT)}/rank/item/${ids.get('four')}`);
    const order = await shownOrder('four');
    // Shown in this annotator's shuffled order, each card named 1, 2, 3, 4 by its place on screen.
    expect(await page.getByTestId('rank-card').evaluateAll((cards) => cards.map((c) => [c.getAttribute('data-position'), c.getAttribute('data-response')]))).toEqual(
      order.map((r, i) => [String(i + 1), String(r)]),
    );
    const cards = page.getByTestId('rank-card');
    for (let i = 0; i < 4; i++) expect(await cards.nth(i).innerText()).toContain(SKY[order[i]!]!.replace(/\*\*|\*|\$[^$]*\$/g, '').slice(0, 20));
    // No letter names a screen place: A / B … are the file's order.
    expect(await page.getByTestId('rank-cards').locator('header').allInnerTexts()).not.toContainEqual(expect.stringMatching(/\b[A-D]\b/));
    expect(await page.getByTestId('card-length').first().innerText()).toMatch(/\d+ chars · ~\d+ tok/);
    expect(await page.getByTestId('rank-cards').getAttribute('data-columns')).toBe('4');
    // Narrower windows: two rows of two, then one column.
    await page.setViewportSize({ width: 900, height: 900 });
    await expect.poll(() => page.getByTestId('rank-cards').getAttribute('data-columns')).toBe('2');
    await page.setViewportSize({ width: 560, height: 900 });
    await expect.poll(() => page.getByTestId('rank-cards').getAttribute('data-columns')).toBe('1');
    await page.setViewportSize({ width: 1400, height: 900 });
    await expect.poll(() => page.getByTestId('rank-cards').getAttribute('data-columns')).toBe('4');
  });

  it('ranks four responses with a tie from the keyboard, takes a pick back, places the last one itself, and saves on Enter', async () => {
    const order = await shownOrder('four');
    // Best: source 2; then source 0 tied with source 3; source 1 last.
    await page.keyboard.press(keyOf(order, 1)); // a slip: taken back at once
    expect(await strip()).toMatch(/1st/);
    await page.keyboard.press('Backspace');
    await page.getByTestId('strip-empty').waitFor();

    await page.keyboard.press(keyOf(order, 2));
    await page.keyboard.press(keyOf(order, 0));
    await page.keyboard.press('=');
    await page.getByTestId('tie-armed').waitFor();
    if (SHOTS) await shoot('ranking-light');
    await page.keyboard.press(keyOf(order, 3));
    // Three picks of four: the last one is placed by itself, and the order reads as it was built.
    await expect.poll(strip).toMatch(new RegExp(`1st\\s*${keyOf(order, 2)}\\s*·?\\s*2nd\\s*${keyOf(order, 0)}\\s*=\\s*${keyOf(order, 3)}\\s*·?\\s*3rd\\s*${keyOf(order, 1)}`));
    expect(await page.getByTestId('strip-chip').and(page.locator('[data-implied="true"]')).getAttribute('data-position')).toBe(keyOf(order, 1));
    const placeOf: Record<number, string> = { 0: '2', 1: '3', 2: '1', 3: '2' };
    expect(await places()).toEqual(order.map((r) => placeOf[r]));
    expect(await page.getByTestId('rank-strip').getAttribute('data-complete')).toBe('true');
    await page.keyboard.press(keyOf(order, 2)); // already placed: said, not applied
    expect(await page.getByTestId('status-text').innerText()).toMatch(/already 1st/);
    await page.keyboard.press('9'); // no such response
    expect(await page.getByTestId('status-text').innerText()).toMatch(/no response 9/);

    await page.keyboard.press('Enter');
    // The next item to rank follows at once; the save lands in the background.
    await onItem('ranking-screen', 'three');
    await allSaved();
    const revisions = await history('four', 'ranking');
    expect(revisions).toHaveLength(1);
    const saved = revisions[0]!;
    expect(saved.ranking).toEqual([[2], [0, 3], [1]]);
    expect(saved.shownOrder).toEqual(order);
    expect(saved.choice).toBeNull();
    expect(saved.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(saved.body).toMatchObject({ prelabel_visible: false });
    expect(typeof saved.body.time_ms).toBe('number');
    // Pairwise labels are another task: the item is still unlabeled there.
    expect((await host.api<{ labeledByMe: number }>('progress', { project: PROJECT, annotator: ANNOTATOR })).labeledByMe).toBe(0);
    expect((await host.api<{ labeledByMe: number }>('progress', { project: PROJECT, annotator: ANNOTATOR, task: 'ranking' })).labeledByMe).toBe(1);
    // The header counts the rank screen's own items: the two of three or more responses, not all six.
    await expect.poll(() => page.getByTestId('progress').innerText()).toMatch(/^1\s*\/\s*2 labeled/);

    // ← goes back to it, with the saved ranking shown and nothing to save again.
    await page.keyboard.press('ArrowLeft');
    await onItem('ranking-screen', 'four');
    expect(await page.getByTestId('current-ranking').innerText()).toContain(`1st ${keyOf(order, 2)} · 2nd ${keyOf(order, 0)} = ${keyOf(order, 3)} · 3rd ${keyOf(order, 1)}`);
    expect(await page.getByTestId('save-ranking').innerText()).toMatch(/Saved · next/);
  });

  it('exports the ranking with a tie as trl pairs: every pair the places imply, never the tied two', async () => {
    const { written, records } = await exported<{ prompt: string; chosen: string; rejected: string }>({ format: 'trl', rankingPairs: 'all' });
    const which = (text: string) => SKY.findIndex((s) => text.trim() === s.trim() || text.includes(s.slice(0, 40)));
    const sky = records.filter((r) => r.prompt.includes('Why is the sky blue?'));
    // 1st: 2; 2nd: 0 = 3; 3rd: 1 → 2>0, 2>3, 2>1, 0>1, 3>1: five pairs, and 0 and 3 never together.
    const pairs = sky.map((r) => [which(r.chosen), which(r.rejected)]);
    expect(pairs.flat()).not.toContain(-1);
    expect(pairs.map(([w, l]) => `${w}>${l}`).sort()).toEqual(['0>1', '2>0', '2>1', '2>3', '3>1']);
    expect(pairs.some(([w, l]) => (w === 0 && l === 3) || (w === 3 && l === 0))).toBe(false);
    expect(sky).toHaveLength(5);
    expect(written).toBe(records.length);
  });

  it('ranks by drag and drop: a chip onto a place ties it, onto a gap gives it a place of its own', async () => {
    await page.keyboard.press('ArrowRight');
    await onItem('ranking-screen', 'three');
    const order = await shownOrder('three');
    await page.keyboard.press(keyOf(order, 0));
    const drag = async (position: string, target: ReturnType<Page['getByTestId']>) => {
      const from = (await page.locator(`[data-testid="strip-chip"][data-position="${position}"]`).boundingBox())!;
      await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
      await page.mouse.down();
      await page.mouse.move(from.x + from.width / 2 + 8, from.y + from.height / 2, { steps: 4 });
      // The drop targets open up once the drag has started.
      await page.getByTestId('strip-unplaced').or(page.locator('[data-testid="strip-gap"].w-6')).first().waitFor();
      await page.waitForTimeout(100);
      const to = (await target.boundingBox())!;
      await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 8 });
      // Hover a moment, as a hand does: the target under the pointer is worked out as it moves.
      await page.waitForTimeout(150);
      await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2 + 1);
      await page.waitForTimeout(100);
      await page.mouse.up();
      // dnd-kit swallows clicks for 50 ms after a drop (so that the drop is not also a click).
      await page.waitForTimeout(100);
    };
    // Response 2 (source) dropped onto the 1st place: tied with it. The last one places itself.
    await drag(keyOf(order, 2), page.locator('[data-testid="strip-group"][data-group="0"]'));
    await expect.poll(strip).toMatch(new RegExp(`1st\\s*${keyOf(order, 0)}\\s*=\\s*${keyOf(order, 2)}\\s*·?\\s*2nd\\s*${keyOf(order, 1)}`));
    // The last one dragged in front of everything: a place of its own, first.
    await drag(keyOf(order, 1), page.locator('[data-testid="strip-gap"][data-gap="0"]'));
    await expect.poll(strip).toMatch(new RegExp(`1st\\s*${keyOf(order, 1)}\\s*·?\\s*2nd\\s*${keyOf(order, 0)}\\s*=\\s*${keyOf(order, 2)}`));
    // Clicking = unties, clicking · between two places ties them again.
    await page.getByTestId('strip-tie').click();
    await expect.poll(strip).toMatch(new RegExp(`2nd\\s*${keyOf(order, 0)}\\s*·\\s*3rd\\s*${keyOf(order, 2)}`));
    await page.locator('[data-testid="strip-gap"][data-gap="2"] button').click();
    await expect.poll(strip).toMatch(new RegExp(`2nd\\s*${keyOf(order, 0)}\\s*=\\s*${keyOf(order, 2)}`));
    // A drop or a click leaves no focus on the bar: Enter saves.
    await page.keyboard.press('Enter');
    await page.getByTestId('all-done').waitFor();
    await allSaved();
    expect((await history('three', 'ranking')).at(-1)!.ranking).toEqual([[1], [0, 2]]);
  });

  it('never takes text typed in the rationale box for keys, and saves it with the ranking', async () => {
    await page.keyboard.press('ArrowLeft');
    await onItem('ranking-screen', 'three');
    await page.keyboard.press('r');
    await page.keyboard.type('2 = 3, then 1 — Backspace and Enter are text here');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    const order = await shownOrder('three');
    // The keys typed in the box changed nothing; after Esc the keys work again.
    await expect.poll(strip).toMatch(new RegExp(`1st\\s*${keyOf(order, 1)}`));
    await page.keyboard.press('Shift+Backspace');
    await page.getByTestId('strip-empty').waitFor();
    await page.keyboard.press(keyOf(order, 2));
    await page.keyboard.press(keyOf(order, 1));
    await page.keyboard.press('Enter');
    await page.getByTestId('all-done').waitFor();
    await allSaved();
    const last = (await history('three', 'ranking')).at(-1)!;
    expect(last.ranking).toEqual([[2], [1], [0]]);
    expect(last.body.rationale).toBe('2 = 3, then 1 — Backspace and Enter are text her\n');
  });
});

describe('the verdict screen', () => {
  it('gives single responses a verdict with 1 (good) and 2 (bad); each saves and the next follows', async () => {
    await page.keyboard.press('u');
    await page.getByTestId('verdict-screen').waitFor();
    await onItem('verdict-screen', 'solo-good');
    expect(await page.getByTestId('prompt').innerText()).toContain('What does a hash map do?');
    expect(await page.getByTestId('verdict-body').innerText()).toContain('ages["grace"] = 85');
    expect(await page.getByTestId('verdict-body').locator('.katex').count()).toBe(1);
    expect(await page.getByTestId('verdict-length').innerText()).toMatch(/\d+ chars · ~\d+ tokens/);
    await page.keyboard.press('1');
    await onItem('verdict-screen', 'solo-bad');
    expect(await page.getByTestId('verdict-body').innerText()).toContain('17 × 24 = 418');
    await page.keyboard.press('2');
    await onItem('verdict-screen', 'solo-steps');
    await allSaved();
    expect((await history('solo-good', 'verdict')).map((r) => r.choice)).toEqual(['good']);
    expect((await history('solo-bad', 'verdict')).map((r) => r.choice)).toEqual(['bad']);
    expect(await history('solo-good', 'pairwise')).toEqual([]);
  });

  it('changes a verdict and puts the replaced one back with Ctrl+Z', async () => {
    await page.keyboard.press('ArrowLeft');
    await onItem('verdict-screen', 'solo-bad');
    expect(await page.getByTestId('current-verdict').getAttribute('data-verdict')).toBe('bad');
    await page.keyboard.press('1');
    await onItem('verdict-screen', 'solo-steps');
    await allSaved();
    expect((await history('solo-bad', 'verdict')).map((r) => r.choice)).toEqual(['bad', 'good']);
    await page.keyboard.press('Control+z');
    await onItem('verdict-screen', 'solo-bad');
    await expect.poll(() => page.getByTestId('current-verdict').getAttribute('data-verdict')).toBe('bad');
    await allSaved();
    expect(await page.getByTestId('status-text').innerText()).toContain('back to Bad');
    expect((await history('solo-bad', 'verdict')).map((r) => r.choice)).toEqual(['bad', 'good', 'bad']);
  });

  it('exports the verdicts as trl-unpaired: label true for the good one, false for the bad one', async () => {
    const { records } = await exported<{ prompt: string; completion: string; label: boolean }>({ format: 'trl-unpaired' });
    const good = records.filter((r) => r.prompt.includes('What does a hash map do?'));
    const bad = records.filter((r) => r.prompt.includes('What is 17 × 24?'));
    expect(good).toHaveLength(1);
    expect(good[0]!.label).toBe(true);
    expect(good[0]!.completion).toContain('ages["grace"] = 85');
    expect(bad).toHaveLength(1);
    expect(bad[0]!.label).toBe(false);
    expect(bad[0]!.completion).toContain('17 × 24 = **418**.');
  });

  it('opens a response with steps of its own on the step screen with s', async () => {
    await page.keyboard.press('ArrowRight');
    await onItem('verdict-screen', 'solo-steps');
    expect(await page.getByTestId('open-steps').innerText()).toMatch(/3 steps/);
    await page.keyboard.press('s');
    await expect.poll(() => page.getByTestId('steps-screen').getAttribute('data-item-id'), { timeout: 10_000 }).toBe(String(ids.get('solo-steps')));
    await page.getByTestId('step-list').waitFor();
    expect(await page.getByTestId('step').count()).toBe(3);
    await expect.poll(() => page.evaluate(() => location.hash)).toBe(`#/p/${encodeURIComponent(PROJECT)}/steps/item/${ids.get('solo-steps')}/r/0`);
  });

  it('sends an item asked for by address to the screen of its shape', async () => {
    await page.evaluate((h) => (location.hash = h), `#/p/${encodeURIComponent(PROJECT)}/rank/item/${ids.get('solo-good')}`);
    await onItem('verdict-screen', 'solo-good');
    expect(await page.getByTestId('current-verdict').getAttribute('data-verdict')).toBe('good');
    expect(await page.getByTestId('verdict-mark').innerText()).toContain('good');
    if (SHOTS) await shoot('verdict-light');
    expect(problems).toEqual([]);
  });
});

async function shoot(name: 'ranking-light' | 'verdict-light') {
  await page.mouse.move(0, 0);
  await page.screenshot({ path: join(ROOT, 'docs', 'screenshots', `${name}.png`) });
  if (name !== 'ranking-light') return;
  // The same moment in dark: a second page on the same item, the same keys.
  const dark = await openApp(browser, host, { annotator: ANNOTATOR, theme: 'dark' });
  const order = await shownOrder('four');
  await dark.page.evaluate((h) => (location.hash = h), `#/p/${encodeURIComponent(PROJECT)}/rank/item/${ids.get('four')}`);
  await expect.poll(() => dark.page.getByTestId('ranking-screen').getAttribute('data-item-id'), { timeout: 10_000 }).toBe(String(ids.get('four')));
  for (const key of [keyOf(order, 2), keyOf(order, 0), '=']) await dark.page.keyboard.press(key);
  await dark.page.getByTestId('tie-armed').waitFor();
  await dark.page.mouse.move(0, 0);
  await dark.page.screenshot({ path: join(ROOT, 'docs', 'screenshots', 'ranking-dark.png') });
  await dark.page.context().close();
}
