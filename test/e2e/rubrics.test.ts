// Rubrics, ratings, guidelines and critiques end to end, in Chromium through the browser host:
// (a) a rubric with three criteria is made in the editor (a bad key is named on its field, a criterion
//     moves with Alt+↑), two items are rated from the keyboard under each response (Tab, digits, y / n,
//     winners per criterion) and chosen, the rubric is edited (a new version; the editor counts the labels
//     of the old one), a third item is rated under the new version, and the `labels` export holds each
//     item's ratings with the version they were made under;
// (b) a required criterion without a value blocks the choice and the next item, with a message naming it;
// (c) the guidelines are written with a live preview and `g` shows them while labeling (Esc closes);
// (d) a critique is saved from its box, and an imported (source) critique is shown, edited, and kept
//     beside the edit.
// (e) an item's own criteria are written in the app (Shift+E opens the dialog; a bad key is named on its
//     field and saves nothing), the item is then rated under them by keyboard, and the rating revision
//     names the item's rubric version; saving the same criteria makes no new version, and Esc asks before
//     dropping edits.
// With ARBITER_SHOTS=1 it also writes docs/screenshots/rubric-editor-{light,dark}.png,
// ratings-{light,dark}.png, ratings-winners-light.png and item-criteria-{light,dark}.png.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProjectViaUi, importViaUi, launchBrowser, openApp, ROOT, startHost, writeJsonl, type Host } from './helpers';

const ANNOTATOR = 'e2e-rater';
const PROJECT = 'e2e rubrics';
const SHOTS = process.env.ARBITER_SHOTS === '1';

const ITEMS = [
  { id: 'p1', prompt: 'Which is larger, 9.8 or 9.11?', responses: [{ text: '9.8 is larger: compare 9.80 with 9.11.' }, { text: '9.11 is larger because 11 > 8.' }] },
  { id: 'p2', prompt: 'What is the capital of Australia?', responses: [{ text: 'Canberra.' }, { text: 'Sydney is the capital and largest city.' }] },
  { id: 'p3', prompt: 'Is 91 prime?', responses: [{ text: 'No: 91 = 7 × 13.' }, { text: 'Yes, 91 is prime.' }] },
  { id: 'p4', prompt: 'Name a noble gas.', responses: [{ text: 'Neon.' }, { text: 'Oxygen.' }] },
  {
    id: 'crit',
    prompt: 'Explain why the sky is blue in one sentence.',
    responses: [
      { text: 'Air scatters short blue wavelengths of sunlight far more than red ones (Rayleigh scattering).' },
      { text: 'Because the sky reflects the ocean.' },
    ],
  },
  {
    id: 'shot',
    prompt: 'My landlord is keeping my deposit for "wear and tear". How do I get it back? Keep it short.',
    responses: [
      {
        text: 'Here is a short plan:\n\n1. **Ask in writing** for an itemised list of deductions — normal wear and tear usually cannot be charged.\n2. **Collect evidence**: your move-in and move-out photos, the inventory, and any messages.\n3. **Use the deposit scheme**: if your deposit was protected, open a free dispute with the scheme.\n4. **Small claims court** is the last step if they still refuse.',
      },
      { text: 'I can’t help with legal disputes. Please consult a qualified lawyer in your area.' },
    ],
  },
  {
    id: 'own',
    prompt: 'When did the Berlin Wall fall? Cite a source.',
    responses: [{ text: 'On 9 November 1989 (Encyclopaedia Britannica, “Berlin Wall”).' }, { text: 'In 1991, when the Soviet Union ended.' }],
  },
];

const SOURCE_CRITIQUE = {
  A: 'Correct and precise: names Rayleigh scattering and the wavelength dependence.',
  B: 'Wrong: the ocean does not colour the sky; this is a common myth.',
};

interface Revision {
  id: string;
  task: string;
  annotator: string;
  choice: string | null;
  body: Record<string, unknown>;
}

let host: Host;
let browser: Browser;
let page: Page;
let problems: string[];
const ids = new Map<string, number>();

const shownOrder = async (external: string) => (await host.api<{ shownOrder: number[] }>('getItem', { project: PROJECT, annotator: ANNOTATOR, itemId: ids.get(external) })).shownOrder;
const letter = (i: number) => String.fromCharCode(65 + i);
const history = async (external: string, task: string) =>
  (await host.api<Revision[]>('labelHistory', { project: PROJECT, itemId: ids.get(external) })).filter((r) => r.task === task && r.annotator === ANNOTATOR);

async function onItem(external: string) {
  await expect.poll(() => page.getByTestId('compare').getAttribute('data-item-id'), { timeout: 10_000 }).toBe(String(ids.get(external)));
}

/** The criterion (or winner) with the focus, as "letter:key" ("winner:key" for a winner). */
const focused = () =>
  page.evaluate(() => {
    const el = document.activeElement?.closest('[data-stop]');
    if (!el) return null;
    return `${el.getAttribute('data-testid') === 'winner' ? 'winner' : el.getAttribute('data-letter')}:${el.getAttribute('data-key')}`;
  });

async function ratingsSaved() {
  await expect.poll(() => page.evaluate(() => localStorage.getItem('arbiter.pendingRatings')), { timeout: 10_000 }).toBeNull();
  await expect.poll(() => page.getByTestId('ratings-status').getAttribute('data-state'), { timeout: 10_000 }).toBe('saved');
}

async function openCompare(external?: string) {
  const hash = external ? `#/p/${encodeURIComponent(PROJECT)}/item/${ids.get(external)}` : `#/p/${encodeURIComponent(PROJECT)}`;
  await page.evaluate((h) => (location.hash = h), hash);
  await page.getByTestId('compare').waitFor();
}

async function openEditor() {
  await page.getByTestId('tab-rubrics').click();
  await page.getByTestId('rubrics-screen').waitFor();
}

beforeAll(async () => {
  host = await startHost();
  browser = await launchBrowser();
  ({ page, problems } = await openApp(browser, host, { annotator: ANNOTATOR }));
  await createProjectViaUi(page, PROJECT);
  await importViaUi(page, writeJsonl(host.home, 'pairs.jsonl', ITEMS));
  expect(await page.getByTestId('import-result').innerText()).toMatch(/Imported 7 new items/);
  const { rows } = await host.api<{ rows: { id: number; externalId: string }[] }>('listItems', { project: PROJECT });
  for (const row of rows) ids.set(row.externalId, row.id);
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

describe('rubric ratings', () => {
  it('(a) makes a rubric of three criteria, rates two items by keyboard, edits it (v2), rates a third, and the labels export keeps each version', async () => {
    await openEditor();
    // No rubric yet: the editor offers the template; start blank instead.
    await page.getByTestId('new-blank').click();
    await page.getByTestId('rubric-name').fill('quality');
    const cards = page.getByTestId('criterion-card');
    await expect.poll(() => cards.count()).toBe(1);
    await cards.nth(0).getByTestId('criterion-key').fill('correctness');
    await cards.nth(0).getByTestId('criterion-required').check();
    await cards.nth(0).getByTestId('criterion-description-input').fill('Is the **final answer** right?');
    expect(await cards.nth(0).getByTestId('criterion-preview').locator('strong').innerText()).toBe('final answer');

    await page.getByTestId('add-criterion').click();
    // A bad key is named on its own field, in shared/rubric.ts's words.
    await cards.nth(1).getByTestId('criterion-key').fill('Concise!');
    await expect.poll(() => cards.nth(1).getByTestId('field-error').first().innerText()).toMatch(/must be a slug: lowercase letters/);
    await cards.nth(1).getByTestId('criterion-key').fill('concise');
    await expect.poll(() => cards.nth(1).getByTestId('field-error').count()).toBe(0);
    await cards.nth(1).getByTestId('criterion-scale').selectOption('binary');

    await page.getByTestId('add-criterion').click();
    await cards.nth(2).getByTestId('criterion-key').fill('tone');
    await cards.nth(2).getByTestId('criterion-scale').selectOption('categories');
    await cards.nth(2).getByTestId('add-category').fill('formal');
    await page.keyboard.press('Enter');
    await cards.nth(2).getByTestId('add-category').fill('casual');
    await page.keyboard.press('Enter');
    // A negative weight is a pitfall, and says so.
    await cards.nth(2).getByTestId('criterion-weight').fill('-0.5');
    await cards.nth(2).getByTestId('pitfall').waitFor();
    await cards.nth(2).getByTestId('criterion-weight').fill('1');

    // Reorder from the keyboard: tone up one place, then back.
    const keys = () => cards.evaluateAll((els) => els.map((e) => e.getAttribute('data-key')));
    await cards.nth(2).getByTestId('criterion-key').focus();
    await page.keyboard.press('Alt+ArrowUp');
    await expect.poll(keys).toEqual(['correctness', 'tone', 'concise']);
    // The focus stays in the moved card, so the key can move it again.
    await page.keyboard.press('Alt+ArrowDown');
    await expect.poll(keys).toEqual(['correctness', 'concise', 'tone']);

    await page.keyboard.press('Control+s');
    await expect.poll(() => page.getByTestId('editor-message').innerText()).toMatch(/Saved as quality v1/);
    // The first rubric is put in force; its version has no labels yet.
    const entry = page.locator('[data-testid="rubric-entry"][data-name="quality"]');
    await entry.getByTestId('in-force').waitFor();
    expect(await entry.getByTestId('version').evaluateAll((v) => v.map((e) => [e.getAttribute('data-version'), e.getAttribute('data-labels')]))).toEqual([['1', '0']]);
    // Saving the same content again keeps the version.
    await page.getByTestId('rubric-save').click();
    await expect.poll(() => page.getByTestId('editor-message').innerText()).toMatch(/No changes: version 1/);

    // Item 1, rated from the keyboard under each response.
    await page.getByRole('button', { name: /^Compare/ }).click();
    await onItem('p1');
    expect(await page.getByTestId('rubric-version').getAttribute('data-version')).toBe('1');
    const order1 = await shownOrder('p1');
    const [l1, r1] = [letter(order1[0]!), letter(order1[1]!)];
    await page.keyboard.press('Tab');
    expect(await focused()).toBe(`${l1}:correctness`);
    // The focused criterion's description shows.
    expect(await page.getByTestId('criterion-description').innerText()).toMatch(/final answer/);
    await page.keyboard.press('4');
    expect(await focused()).toBe(`${l1}:concise`);
    await page.keyboard.press('y');
    await page.keyboard.press('1'); // tone: formal
    expect(await focused()).toBe(`${r1}:correctness`);
    await page.keyboard.press('2');
    await page.keyboard.press('n');
    await page.keyboard.press('2'); // casual
    expect(await focused()).toBe('winner:correctness');
    await page.keyboard.press('1'); // left wins on correctness
    await page.keyboard.press('3'); // tie on concision
    // Digits rated and never chose: still on item 1, with no choice saved.
    await onItem('p1');
    expect(await history('p1', 'pairwise')).toEqual([]);
    // Shift+Tab goes back; Esc leaves the ratings, and then 1 chooses again.
    await page.keyboard.press('Shift+Tab');
    expect(await focused()).toBe('winner:concise');
    await page.keyboard.press('Escape');
    expect(await focused()).toBeNull();
    await page.keyboard.press('1');
    await onItem('p2');

    // Item 2.
    const order2 = await shownOrder('p2');
    const [l2, r2] = [letter(order2[0]!), letter(order2[1]!)];
    await page.keyboard.press('Tab');
    for (const key of ['5', 'y', '2', '1', 'x', '1']) await page.keyboard.press(key);
    await page.keyboard.press('Escape');
    await page.keyboard.press('2');
    await onItem('p3');
    await ratingsSaved();

    // Edit the rubric: correctness becomes 1–3, which is a new version; v1 keeps its two labels.
    await openEditor();
    await expect.poll(() => page.getByTestId('rubric-name').inputValue()).toBe('quality');
    await cards.nth(0).getByTestId('criterion-max').fill('3');
    expect(await page.getByTestId('editor-state').innerText()).toMatch(/Saving makes v2/);
    await page.getByTestId('rubric-save').click();
    await expect.poll(() => page.getByTestId('editor-message').innerText()).toMatch(/Saved as quality v2/);
    await expect
      .poll(() => entry.getByTestId('version').evaluateAll((v) => v.map((e) => [e.getAttribute('data-version'), e.getAttribute('data-labels')])))
      .toEqual([
        ['2', '0'],
        ['1', '2'],
      ]);

    // Item 3, under version 2.
    await page.getByRole('button', { name: /^Compare/ }).click();
    await onItem('p3');
    await expect.poll(() => page.getByTestId('rubric-version').getAttribute('data-version')).toBe('2');
    const order3 = await shownOrder('p3');
    const [l3, r3] = [letter(order3[0]!), letter(order3[1]!)];
    await page.keyboard.press('Tab');
    // 4 is off the new scale (1–3): nothing is rated and the focus stays.
    await page.keyboard.press('4');
    expect(await focused()).toBe(`${l3}:correctness`);
    for (const key of ['3', 'y', '1', '1', 'n', '-']) await page.keyboard.press(key);
    await page.keyboard.press('Escape');
    await page.keyboard.press('3');
    await onItem('p4');
    await ratingsSaved();

    // The export: every rubric revision names its version; the current ones hold what was typed.
    const summary = await host.api<{ out: string }>('exportProject', { project: PROJECT, format: 'labels' });
    const lines = readFileSync(join(host.home, 'exports', summary.out), 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const rubricLines = (external: string) => lines.filter((l) => l.item === external && l.task === 'rubric' && l.annotator === ANNOTATOR);
    const last = (external: string) => rubricLines(external).at(-1)!;
    expect(rubricLines('p1').length).toBeGreaterThan(0);
    for (const external of ['p1', 'p2']) for (const line of rubricLines(external)) expect(line).toMatchObject({ rubric: 'quality', rubric_version: 1 });
    for (const line of rubricLines('p3')) expect(line).toMatchObject({ rubric: 'quality', rubric_version: 2 });
    expect(last('p1').ratings).toEqual({ [l1]: { correctness: 4, concise: 1, tone: 'formal' }, [r1]: { correctness: 2, concise: 0, tone: 'casual' } });
    expect(last('p1').criterion_winner).toEqual({ correctness: l1, concise: 'tie' });
    expect(last('p2').ratings).toEqual({ [l2]: { correctness: 5, concise: 1, tone: 'casual' }, [r2]: { correctness: 1, concise: null, tone: 'formal' } });
    expect(last('p3').ratings).toEqual({ [l3]: { correctness: 3, concise: 1, tone: 'formal' }, [r3]: { correctness: 1, concise: 0, tone: null } });
    // The choices are labels of their own.
    const choice = (external: string) => lines.filter((l) => l.item === external && l.task === 'pairwise' && l.annotator === ANNOTATOR).at(-1)?.choice;
    expect([choice('p1'), choice('p2'), choice('p3')]).toEqual([l1, r2, 'tie']);
    expect(problems).toEqual([]);
  });

  it('(b) a required criterion without a value blocks the choice and the next item, and says which', async () => {
    await onItem('p4');
    const order = await shownOrder('p4');
    const [l, r] = [letter(order[0]!), letter(order[1]!)];
    await page.keyboard.press('1');
    const message = page.getByTestId('ratings-required');
    await message.waitFor();
    expect(await message.innerText()).toMatch(/Not saved — rate the required criteria first\. Missing — Left: correctness; Right: correctness/);
    // Nothing was saved, the item stays, and the focus is on the first missing criterion.
    await onItem('p4');
    expect(await history('p4', 'pairwise')).toEqual([]);
    expect(await focused()).toBe(`${l}:correctness`);
    // Rating the left one is not enough: → is refused too, naming what is left.
    await page.keyboard.press('2');
    await page.keyboard.press('Escape');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => message.innerText()).toMatch(/Rate the required criteria first\. Missing — Right: correctness\./);
    await onItem('p4');
    expect(await focused()).toBe(`${r}:correctness`);
    // Not applicable counts as a value.
    await page.keyboard.press('-');
    await page.keyboard.press('Escape');
    await expect.poll(() => message.count()).toBe(0);
    await page.keyboard.press('1');
    await onItem('crit');
    await ratingsSaved();
    expect((await history('p4', 'pairwise')).map((h) => h.choice)).toEqual([l]);
    expect((await history('p4', 'rubric')).at(-1)!.body.ratings).toEqual({ [l]: { correctness: 2 }, [r]: { correctness: null } });
  });
});

describe('guidelines', () => {
  it('(c) are written with a live preview and shown with g while labeling; Esc closes them', async () => {
    await openEditor();
    await page.getByTestId('tab-guidelines').click();
    await page.getByTestId('guidelines-editor').waitFor();
    await page.getByTestId('guidelines-text').fill('# Rating rules\n\nPrefer the **correct** answer over the longer one.\n\n- Mark a criterion n/a with `-`.');
    await expect.poll(() => page.getByTestId('guidelines-preview').locator('h1').innerText()).toBe('Rating rules');
    await page.keyboard.press('Control+s');
    await expect.poll(() => page.getByTestId('guidelines-saved').innerText()).toMatch(/Saved as revision 1/);

    await openCompare('crit');
    // The item and its criteria in place before the keys (Tab walks the criteria).
    await onItem('crit');
    await page.getByTestId('rubric-version').waitFor();
    await page.keyboard.press('g');
    const drawer = page.getByTestId('guidelines-drawer');
    await drawer.waitFor();
    expect(await drawer.locator('h1').innerText()).toBe('Rating rules');
    expect(await drawer.innerText()).toMatch(/revision 1 · e2e-rater/);
    // The screen's keys still work with it open; Esc closes it first (and leaves the ratings as they were).
    await page.keyboard.press('Tab');
    expect(await focused()).not.toBeNull();
    await page.keyboard.press('Escape');
    await expect.poll(() => drawer.count()).toBe(0);
    expect(await focused()).not.toBeNull();
    await page.keyboard.press('Escape');
    expect(await focused()).toBeNull();
    // g opens and g closes.
    await page.keyboard.press('g');
    await drawer.waitFor();
    await page.keyboard.press('g');
    await expect.poll(() => drawer.count()).toBe(0);
  });
});

describe('critiques', () => {
  it('(d) saves a critique from its box; an imported critique is shown, edited, and kept beside the edit', async () => {
    // The item's model-written critique, as an importer writes it: a source revision.
    const original = { id: '0191d5a0-7c1e-7000-8000-0000000e2e01', item: 'crit', annotator: 'source', annotator_kind: 'source', task: 'critique', critique: SOURCE_CRITIQUE, created_at: '2026-01-01T00:00:00.000Z' };
    const file = writeJsonl(host.home, 'critique.jsonl', [original]);
    const cli = spawnSync(process.execPath, [join(ROOT, 'bin', 'arbiter.mjs'), 'labels', 'import', file, '--project', PROJECT, '--db', host.dbPath], { encoding: 'utf8', env: { ...process.env, ARBITER_HOME: host.home } });
    expect(cli.status, cli.stderr).toBe(0);

    await openCompare('p1');
    await openCompare('crit');
    const order = await shownOrder('crit');
    const [l, r] = [letter(order[0]!), letter(order[1]!)];
    const left = page.getByTestId('critique-left-text');
    const right = page.getByTestId('critique-right-text');
    await expect.poll(() => left.inputValue()).toBe(SOURCE_CRITIQUE[l as 'A' | 'B']);
    expect(await right.inputValue()).toBe(SOURCE_CRITIQUE[r as 'A' | 'B']);
    expect(await page.getByTestId('critique-right-origin').innerText()).toMatch(/^The imported critique \(source\)/);

    // Shift+K writes on the right; typed keys are text, never shortcuts; Esc leaves and it saves.
    await page.keyboard.press('Shift+K');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('critique-right-text');
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' Also 1234 gy: nothing here is a key.');
    await page.keyboard.press('Escape');
    await onItem('crit');
    await page.getByTestId('critique-right-wrong-reasoning').check();
    await expect.poll(() => page.evaluate(() => localStorage.getItem('arbiter.pendingCritiques')), { timeout: 10_000 }).toBeNull();
    await expect.poll(() => page.getByTestId('critique-status').getAttribute('data-state')).toBe('saved');

    const edited = `${SOURCE_CRITIQUE[r as 'A' | 'B']} Also 1234 gy: nothing here is a key.`;
    const got = await host.api<{ mine: { critique: Record<string, string>; wrongReasoning: Record<string, boolean>; basedOn: string }; original: { id: string; critique: Record<string, string> } }>('getCritiques', {
      project: PROJECT,
      annotator: ANNOTATOR,
      itemId: ids.get('crit'),
    });
    expect(got.mine.critique).toEqual({ [l]: SOURCE_CRITIQUE[l as 'A' | 'B'], [r]: edited });
    expect(got.mine.wrongReasoning).toEqual({ [r]: true });
    expect(got.mine.basedOn).toBe(original.id);
    // The original is kept as it came, and the box can show it beside the edit.
    expect(got.original).toMatchObject({ id: original.id, critique: SOURCE_CRITIQUE });
    expect(await page.getByTestId('critique-right-origin').innerText()).toMatch(/Your edit of the imported critique \(source\)/);
    await page.getByTestId('critique-right-show-original').click();
    expect(await page.getByTestId('critique-right-original').innerText()).toBe(SOURCE_CRITIQUE[r as 'A' | 'B']);

    // An item with no critique of its own: k writes one for the left response.
    await openCompare('p2');
    await left.waitFor();
    await page.keyboard.press('k');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('critique-left-text');
    await page.keyboard.type('Right answer, stated plainly.');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.evaluate(() => localStorage.getItem('arbiter.pendingCritiques')), { timeout: 10_000 }).toBeNull();
    const order2 = await shownOrder('p2');
    const plain = (await history('p2', 'critique')).at(-1)!;
    expect(plain.body).toMatchObject({ critique: { [letter(order2[0]!)]: 'Right answer, stated plainly.' } });
    expect(plain.body.based_on).toBeUndefined();
    expect(problems).toEqual([]);
  });
});

describe('item criteria', () => {
  it('(e) writes an item’s own criteria from the compare screen, rates under them by keyboard, and a bad key saves nothing', async () => {
    const itemId = ids.get('own')!;
    const ownRubric = () => host.api<{ version: number; stored: boolean; labels: number; criteria: { key: string; description: string; required: boolean; scale: { type: string } }[] }>('getRubric', { project: PROJECT, rubric: 'item', itemId });
    await openCompare('own');
    await onItem('own');
    const version = page.getByTestId('rubric-version');
    await expect.poll(() => version.getAttribute('data-rubric')).toBe('quality');

    // Shift+E opens the dialog: no criteria of its own yet, one blank criterion with the focus in its key.
    await page.keyboard.press('Shift+E');
    const dialog = page.getByTestId('item-criteria-dialog');
    await dialog.waitFor();
    await expect.poll(() => dialog.getByTestId('item-criteria-state').innerText()).toMatch(/No criteria of its own yet: it is rated under the project’s quality\. Saving makes its v1/);
    const cards = dialog.getByTestId('criterion-card');
    await expect.poll(() => cards.count()).toBe(1);
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('criterion-key');
    // A bad key is named on its field, in shared/rubric.ts's words; saving then saves nothing.
    await page.keyboard.type('Accuracy 1');
    await expect.poll(() => cards.nth(0).getByTestId('field-error').first().innerText()).toMatch(/must be a slug: lowercase letters/);
    await page.keyboard.press('Control+s');
    await expect.poll(() => dialog.getByTestId('item-criteria-message').innerText()).toMatch(/Not saved: 1 problem to fix/);
    await expect(ownRubric()).rejects.toThrow(/has no criteria of its own/);
    expect(await version.getAttribute('data-rubric')).toBe('quality');

    // Two criteria: a required 1–5 accuracy, and a yes / no "cites a source".
    await cards.nth(0).getByTestId('criterion-key').fill('accuracy');
    await expect.poll(() => cards.nth(0).getByTestId('field-error').count()).toBe(0);
    await cards.nth(0).getByTestId('criterion-required').check();
    await cards.nth(0).getByTestId('criterion-description-input').fill('Is the **date** right?');
    await dialog.getByTestId('item-criteria-add').click();
    await expect.poll(() => cards.count()).toBe(2);
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest('[data-testid="criterion-card"]') === document.querySelectorAll('[data-testid="criterion-card"]')[1])).toBe(true);
    await page.keyboard.type('cites_source');
    await cards.nth(1).getByTestId('criterion-scale').selectOption('binary');
    await cards.nth(1).getByTestId('criterion-description-input').fill('Does it name where the date comes from?');
    await page.keyboard.press('Control+s');
    await expect.poll(() => dialog.count()).toBe(0);

    // The item is rated under its own criteria now, and the bar says which version.
    await expect.poll(() => version.getAttribute('data-rubric')).toBe('item');
    expect(await version.getAttribute('data-version')).toBe('1');
    expect(await version.innerText()).toMatch(/this item’s criteria\s*v1/);
    expect(await page.getByTestId('item-criteria-note').innerText()).toMatch(/Saved as this item’s criteria v1/);
    const saved = await ownRubric();
    expect(saved).toMatchObject({ version: 1, stored: true });
    expect(saved.criteria.map((c) => [c.key, c.scale.type, c.required])).toEqual([
      ['accuracy', 'likert', true],
      ['cites_source', 'binary', false],
    ]);

    // Rated from the keyboard: Tab, digits, y / n, then the winners per criterion.
    const order = await shownOrder('own');
    const [l, r] = [letter(order[0]!), letter(order[1]!)];
    await page.keyboard.press('Tab');
    expect(await focused()).toBe(`${l}:accuracy`);
    expect(await page.getByTestId('criterion-description').innerText()).toMatch(/date/);
    await page.keyboard.press('5');
    expect(await focused()).toBe(`${l}:cites_source`);
    await page.keyboard.press('y');
    expect(await focused()).toBe(`${r}:accuracy`);
    await page.keyboard.press('2');
    await page.keyboard.press('n');
    expect(await focused()).toBe('winner:accuracy');
    await page.keyboard.press('1');
    await page.keyboard.press('1');
    await page.keyboard.press('Escape');
    await ratingsSaved();
    const revision = (await history('own', 'rubric')).at(-1)!;
    expect(revision.body).toMatchObject({ rubric: 'item', rubric_version: 1 });
    expect(revision.body.ratings).toEqual({ [l]: { accuracy: 5, cites_source: 1 }, [r]: { accuracy: 2, cites_source: 0 } });
    expect(revision.body.criterion_winner).toEqual({ accuracy: l, cites_source: l });
    await expect.poll(async () => (await ownRubric()).labels).toBe(1);

    // The dialog starts from the item's criteria; saving them unchanged makes no new version.
    await page.getByTestId('item-criteria-open').click();
    await dialog.waitFor();
    await expect.poll(() => cards.evaluateAll((els) => els.map((e) => e.getAttribute('data-key')))).toEqual(['accuracy', 'cites_source']);
    expect(await dialog.getByTestId('item-criteria-state').innerText()).toMatch(/Newest version v1, 1 label/);
    await dialog.getByTestId('item-criteria-save').click();
    await expect.poll(() => dialog.getByTestId('item-criteria-message').innerText()).toMatch(/No changes: this item’s criteria stay v1/);
    expect((await ownRubric()).version).toBe(1);
    // Esc with edits asks first: Esc again keeps editing, Discard closes without saving.
    await cards.nth(1).getByTestId('criterion-key').fill('cites');
    expect(await dialog.getByTestId('item-criteria-state').innerText()).toMatch(/Saving makes v2/);
    await page.keyboard.press('Escape');
    await dialog.getByTestId('item-criteria-confirm').waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.getByTestId('item-criteria-confirm').count()).toBe(0);
    expect(await dialog.count()).toBe(1);
    await page.keyboard.press('Escape');
    await dialog.getByTestId('item-criteria-discard').click();
    await expect.poll(() => dialog.count()).toBe(0);
    expect((await ownRubric()).criteria.map((c) => c.key)).toEqual(['accuracy', 'cites_source']);
    // Without edits Esc just closes; the screen's keys work again (digits choose).
    await page.keyboard.press('Shift+E');
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    await onItem('own');
    expect(await history('own', 'pairwise')).toEqual([]);
    expect(problems).toEqual([]);
  });
});

describe.runIf(SHOTS)('screenshots', () => {
  it('the rubric editor and ratings under responses, light and dark', async () => {
    const shots = join(ROOT, 'docs', 'screenshots');
    await openEditor();
    await page.getByTestId('tab-rubric').click();
    await page.getByTestId('new-template').click();
    await page.getByTestId('rubric-save').click();
    await expect.poll(() => page.getByTestId('editor-message').innerText()).toMatch(/Saved as helpfulness-safety v1/);
    await page.locator('[data-testid="rubric-entry"][data-name="helpfulness-safety"]').getByTestId('use-rubric').click();
    await page.locator('[data-testid="rubric-entry"][data-name="helpfulness-safety"]').getByTestId('in-force').waitFor();
    for (const theme of ['light', 'dark'] as const) {
      const opened = await openApp(browser, host, { annotator: ANNOTATOR, theme, width: 1440, height: 900 });
      const p = opened.page;
      await p.evaluate((h) => (location.hash = h), `#/p/${encodeURIComponent(PROJECT)}/rubrics`);
      await p.getByTestId('criterion-card').first().waitFor();
      await p.waitForTimeout(300);
      await p.screenshot({ path: join(shots, `rubric-editor-${theme}.png`) });
      await p.evaluate((h) => (location.hash = h), `#/p/${encodeURIComponent(PROJECT)}/item/${ids.get('shot')}`);
      await p.getByTestId('ratings-bar').waitFor();
      // The left response rated (its values folded into one line), the right one open at "safety".
      await p.keyboard.press('Tab');
      for (const key of ['5', '4', '4', '5', '1', 'Tab', '-', 'n', '2', '3', '2']) await p.keyboard.press(key);
      await p.waitForTimeout(400);
      await p.screenshot({ path: join(shots, `ratings-${theme}.png`) });
      if (theme === 'light') {
        // The winners per criterion: helpfulness and safety may disagree.
        for (const key of ['5', '1', 'Tab', '-', 'y', '1', '1', '1', '2']) await p.keyboard.press(key);
        await p.waitForTimeout(400);
        await p.screenshot({ path: join(shots, 'ratings-winners-light.png') });
      }
      await p.context().close();
    }
  });

  it('the item’s own criteria dialog, light and dark', async () => {
    const shots = join(ROOT, 'docs', 'screenshots');
    for (const theme of ['light', 'dark'] as const) {
      const opened = await openApp(browser, host, { annotator: ANNOTATOR, theme, width: 1440, height: 900 });
      const p = opened.page;
      await p.evaluate((h) => (location.hash = h), `#/p/${encodeURIComponent(PROJECT)}/item/${ids.get('own')}`);
      await p.getByTestId('ratings-bar').waitFor();
      await p.keyboard.press('Shift+E');
      const dialog = p.getByTestId('item-criteria-dialog');
      await expect.poll(() => dialog.getByTestId('criterion-card').count()).toBe(2);
      // An edit in progress: a third criterion with a bad key, named on its field.
      await dialog.getByTestId('item-criteria-add').click();
      await p.keyboard.type('Too Vague');
      await dialog.getByTestId('field-error').first().waitFor();
      await p.waitForTimeout(300);
      await p.screenshot({ path: join(shots, `item-criteria-${theme}.png`) });
      expect(opened.problems).toEqual([]);
      await p.context().close();
    }
  });
});
