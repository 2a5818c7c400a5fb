// Team review end to end: two annotators label the same five pairs and disagree on two (one through the
// API, the other from the keyboard on the compare screen); the lead opens the review screen with `q`; the
// queue shows exactly those two; the lead adjudicates one from the keyboard with a note and lands on the
// other; the adjudicated-only export holds one record. Then the agreement dashboard on the demo project
// (its two models scored; three annotators' labels): every chart with its n and its sentence, and no page
// error. With ARBITER_SHOTS=1 it also writes docs/screenshots/review-{queue,adjudication,dashboard}-{light,dark}.png.
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, launchBrowser, openApp, startHost, type Host } from './helpers';

const PROJECT = 'e2e review';
const LEAD = 'e2e-lead';
const ALICE = 'e2e-alice';
const BOB = 'e2e-bob';
const SHOTS = process.env.ARBITER_SHOTS === '1';
const NOTE = 'B cites the source; 1 2 3 j k typed here are text, not keys';

const PAIRS = Array.from({ length: 5 }, (_, i) => ({
  id: `q${i}`,
  prompt: `Question ${i}: which answer is better?`,
  responses: [{ text: `A short answer ${i}.` }, { text: `A much longer answer to question ${i}, with more words and a source.` }],
}));
// Alice and Bob differ on q1 and q4.
const ALICE_CHOICES = ['A', 'A', 'B', 'A', 'B'] as const;
const BOB_CHOICES = ['A', 'B', 'B', 'A', 'A'] as const;

interface QueueRow {
  itemId: number;
  externalId: string;
  adjudicated: boolean;
}

let host: Host;
let browser: Browser;
let demo: string;
const ids = new Map<string, number>();

const go = (page: Page, hash: string) => page.evaluate((h) => (location.hash = h), hash);
const reviewUrl = (project: string, rest = '') => `#/p/${encodeURIComponent(project)}/review${rest}`;

beforeAll(async () => {
  host = await startHost({ demo: true });
  browser = await launchBrowser();
  demo = (await host.api<{ name: string }[]>('listProjects', {}))[0]!.name;
  await host.api('importContent', { project: PROJECT, fileName: 'pairs.jsonl', content: PAIRS.map((p) => JSON.stringify(p)).join('\n') + '\n', format: 'arbiter', createProject: true });
  const { rows } = await host.api<{ rows: { id: number; externalId: string }[] }>('listItems', { project: PROJECT });
  for (const row of rows) ids.set(row.externalId, row.id);
  for (const [i, choice] of ALICE_CHOICES.entries())
    await host.api('saveLabel', { project: PROJECT, annotator: ALICE, itemId: ids.get(`q${i}`), choice, strength: 2, shownOrder: [0, 1], timeMs: 4000 + i * 1000, rationale: i === 1 ? 'A is shorter and right.' : undefined });
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

describe('the review queue and adjudication', () => {
  it('Bob labels the five pairs from the keyboard on the compare screen', async () => {
    const { page, problems } = await openApp(browser, host, { annotator: BOB });
    await go(page, `#/p/${encodeURIComponent(PROJECT)}`);
    for (let n = 0; n < PAIRS.length; n++) {
      await expect.poll(() => page.getByTestId('compare').getAttribute('data-item-id'), { timeout: 10_000 }).not.toBe('');
      const itemId = Number(await page.getByTestId('compare').getAttribute('data-item-id'));
      const external = [...ids].find(([, id]) => id === itemId)![0];
      const want = BOB_CHOICES[Number(external.slice(1))]!;
      // The letters are source order; the keys are screen sides: find the side A is shown on for Bob.
      const { shownOrder } = await host.api<{ shownOrder: number[] }>('getItem', { project: PROJECT, annotator: BOB, itemId });
      const leftIs = shownOrder[0] === 0 ? 'A' : 'B';
      await page.keyboard.press(want === leftIs ? '1' : '2');
      if (n < PAIRS.length - 1) await expect.poll(() => page.getByTestId('compare').getAttribute('data-item-id'), { timeout: 10_000 }).not.toBe(String(itemId));
    }
    await expect.poll(() => host.api<{ labeledByMe: number }>('progress', { project: PROJECT, annotator: BOB }).then((p) => p.labeledByMe), { timeout: 10_000 }).toBe(5);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('the queue shows exactly the two disputed pairs; the lead adjudicates one from the keyboard with a note', async () => {
    const { page, problems } = await openApp(browser, host, { annotator: LEAD });
    await go(page, `#/p/${encodeURIComponent(PROJECT)}`);
    await page.getByTestId('compare').waitFor();
    await page.keyboard.press('q');
    await page.getByTestId('review-queue').waitFor();
    await expect.poll(() => page.getByTestId('queue-count').getAttribute('data-total'), { timeout: 15_000 }).toBe('2');
    await expect.poll(() => page.getByTestId('queue-row').count()).toBe(2);
    expect((await page.getByTestId('queue-item').allInnerTexts()).sort()).toEqual(['q1', 'q4']);
    for (const votes of await page.getByTestId('queue-votes').allInnerTexts()) expect(votes).toBe('A ×1 · B ×1');
    for (const reason of await page.getByTestId('queue-reason').allInnerTexts()) expect(reason).toBe('people disagree');
    expect(await page.getByTestId('review-summary').innerText()).toMatch(/10 labels by 2 annotators/);

    // j moves the selection to the second row, k back; Enter opens the selected item.
    const rows = page.getByTestId('queue-row');
    await page.keyboard.press('j');
    await expect.poll(() => rows.nth(1).getAttribute('data-selected')).toBe('true');
    await page.keyboard.press('k');
    await expect.poll(() => rows.nth(0).getAttribute('data-selected')).toBe('true');
    const first = await rows.nth(0).getAttribute('data-item-id');
    const second = await rows.nth(1).getAttribute('data-item-id');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('adjudication').getAttribute('data-item-id')).toBe(first);
    await expect.poll(() => page.getByTestId('adjudication-label').count()).toBe(2);
    expect(await page.getByTestId('adjudication-labels').innerText()).toMatch(new RegExp(`${ALICE}[\\s\\S]*A better, clearly[\\s\\S]*${BOB}[\\s\\S]*B better`));
    expect(await page.getByTestId('adjudication-responses').innerText()).toMatch(/A short answer[\s\S]*much longer answer/);
    expect(await page.getByTestId('adjudication-position').innerText()).toMatch(/1 of 2/);

    // Keys pick the resolution; nothing is recorded before Ctrl+Enter.
    await page.keyboard.press('Shift+2');
    await expect.poll(() => page.getByTestId('resolve-draft').innerText()).toMatch(/B better, much/);
    await page.keyboard.press('s');
    await page.getByTestId('resolve-slight-armed').waitFor();
    await page.keyboard.press('1');
    await expect.poll(() => page.getByTestId('resolve-draft').innerText()).toMatch(/A better, slightly/);
    await page.keyboard.press('Shift+2');
    await expect.poll(() => page.getByTestId('resolve-draft').innerText()).toMatch(/B better, much/);
    const viewBefore = await host.api<{ adjudication: unknown }>('adjudicationView', { project: PROJECT, itemId: Number(first) });
    expect(viewBefore.adjudication).toBeNull();

    // n writes the note: what is typed there is text; Ctrl+Enter records and opens the next unadjudicated item.
    await page.keyboard.press('n');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('resolve-note');
    await page.keyboard.type(NOTE);
    await expect.poll(() => page.getByTestId('resolve-draft').innerText()).toMatch(/B better, much/);
    await page.keyboard.press('Control+Enter');
    await expect.poll(() => page.getByTestId('adjudication').getAttribute('data-item-id'), { timeout: 15_000 }).toBe(second);
    const firstName = [...ids].find(([, id]) => String(id) === first)![0];
    expect(await page.getByTestId('adjudication-flash').innerText()).toContain(`Recorded ${firstName}: B better, much, with a note`);
    const view = await host.api<{ adjudication: Record<string, unknown> | null; labels: unknown[] }>('adjudicationView', { project: PROJECT, itemId: Number(first) });
    expect(view.adjudication).toMatchObject({ by: LEAD, note: NOTE, choice: 'B', strength: 3 });
    expect(view.labels).toHaveLength(2);

    // Esc goes back to the queue: one row adjudicated; h hides it.
    await page.keyboard.press('Escape');
    await page.getByTestId('review-queue').waitFor();
    await expect.poll(() => page.locator(`[data-testid="queue-row"][data-item-id="${first}"] [data-testid="queue-adjudicated"]`).getAttribute('data-adjudicated')).toBe('true');
    await page.keyboard.press('h');
    await expect.poll(() => page.getByTestId('queue-count').getAttribute('data-total')).toBe('1');
    await expect.poll(() => page.getByTestId('queue-row').count()).toBe(1);
    expect(await page.getByTestId('queue-row').getAttribute('data-item-id')).toBe(second);
    await page.keyboard.press('h');
    await expect.poll(() => page.getByTestId('queue-row').count()).toBe(2);

    if (SHOTS) await shootQueueAndItem();
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('the adjudicated-only export holds one record: the lead’s choice', async () => {
    expect((await host.api<{ total: number }>('reviewQueue', { project: PROJECT, includeAdjudicated: false })).total).toBe(1);
    const summary = await host.api<{ written: number; out: string }>('exportProject', { project: PROJECT, format: 'trl', adjudicatedOnly: true });
    expect(summary.written).toBe(1);
    const { ticket } = await host.api<{ ticket: string }>('downloadTicket', { project: PROJECT, file: summary.out });
    const records = (await (await fetch(`${host.origin}/download/${ticket}`)).text())
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as { prompt: string; chosen: string; rejected: string });
    expect(records).toHaveLength(1);
    // The lead resolved it as B (the longer answer), against the split of one vote each.
    expect(records[0]!.chosen).toMatch(/much longer answer/);
  });
});

describe('adjudicating the other tasks from the keyboard', () => {
  const MORE = 'e2e review tasks';
  const more = new Map<string, number>();
  const CHAIN = ['Step 1: 6 × 7 = 42.', 'Step 2: 42 + 8 = 52.', 'Step 3: The answer is 52.'];

  beforeAll(async () => {
    const items = [
      { id: 'three', prompt: 'Rank these greetings.', responses: [{ text: 'Hello there.' }, { text: 'Hi.' }, { text: 'Good morning to you, friend.' }] },
      { id: 'solo', prompt: 'What is 6 × 7 + 8?', responses: [{ text: CHAIN.join('\n') }] },
    ];
    await host.api('importContent', { project: MORE, fileName: 'more.jsonl', content: items.map((p) => JSON.stringify(p)).join('\n') + '\n', format: 'arbiter', createProject: true });
    const { rows } = await host.api<{ rows: { id: number; externalId: string }[] }>('listItems', { project: MORE });
    for (const row of rows) more.set(row.externalId, row.id);
    const three = more.get('three')!;
    const solo = more.get('solo')!;
    await host.api('saveRanking', { project: MORE, annotator: ALICE, itemId: three, ranking: [[0], [2], [1]], shownOrder: [0, 1, 2] });
    await host.api('saveRanking', { project: MORE, annotator: BOB, itemId: three, ranking: [[2], [1], [0]], shownOrder: [0, 1, 2] });
    await host.api('saveVerdict', { project: MORE, annotator: ALICE, itemId: solo, verdict: 'good' });
    await host.api('saveVerdict', { project: MORE, annotator: BOB, itemId: solo, verdict: 'bad' });
    for (const [who, firstError] of [
      [ALICE, 1],
      [BOB, 2],
    ] as const) {
      const view = await host.api<{ responses: { version: number; steps: string[] }[] }>('getSteps', { project: MORE, annotator: who, itemId: solo });
      const ratings = view.responses[0]!.steps.map((_, i) => (i < firstError ? 1 : i === firstError ? -1 : null));
      await host.api('saveSteps', { project: MORE, annotator: who, itemId: solo, response: 0, steps: { version: view.responses[0]!.version, ratings, firstError } });
    }
  });

  async function openOnly(page: Page, task: string, external: string) {
    await expect.poll(() => page.getByTestId('queue-count').getAttribute('data-total'), { timeout: 15_000 }).toBe('1');
    expect(await page.getByTestId('queue-task-' + task).getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByTestId('queue-item').innerText()).toBe(external);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('adjudication').getAttribute('data-item-id')).toBe(String(more.get(external)));
    await expect.poll(() => page.getByTestId('adjudication-label').count()).toBe(2);
  }

  async function recordAndCheck(page: Page, task: string, external: string) {
    await page.keyboard.press('Control+Enter');
    await page.getByTestId('adjudication-finished').waitFor({ timeout: 15_000 });
    await page.getByTestId('adjudication-earlier').waitFor();
    return host.api<{ adjudication: { choice: string | null; ranking: number[][] | null; body: Record<string, unknown> } }>('adjudicationView', { project: MORE, itemId: more.get(external), task });
  }

  it('a ranking typed as an order, a verdict with b, a first error with j and f; t walks the tasks', async () => {
    const { page, problems } = await openApp(browser, host, { annotator: LEAD });
    await go(page, reviewUrl(MORE));
    await page.getByTestId('review-queue').waitFor();
    await page.keyboard.press('t');
    await openOnly(page, 'ranking', 'three');
    expect(await page.getByTestId('adjudication-labels').innerText()).toMatch(/A > C > B[\s\S]*C > B > A/);
    for (const key of ['3', '1', '=', '2']) await page.keyboard.press(key);
    await expect.poll(() => page.getByTestId('resolve-draft').innerText()).toMatch(/C > A = B/);
    // Backspace takes the last pick back; the one response left then comes last by itself.
    await page.keyboard.press('Backspace');
    await expect.poll(() => page.getByTestId('resolve-draft').innerText()).toMatch(/C > A > B$/);
    expect((await recordAndCheck(page, 'ranking', 'three')).adjudication.ranking).toEqual([[2], [0], [1]]);

    await page.keyboard.press('Escape');
    // Back on the queue, its keys taken: the ranking task still chosen, the adjudication gone.
    await expect.poll(() => page.getByTestId('adjudication').count(), { timeout: 15_000 }).toBe(0);
    await expect.poll(() => page.getByTestId('queue-task-ranking').getAttribute('aria-pressed'), { timeout: 15_000 }).toBe('true');
    // While the verdict queue is on its way, the ranking's row is not offered (Enter would open it).
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let askedFor = false;
    await page.route('**/api/reviewQueue', async (route) => {
      if (!route.request().postData()?.includes('"verdict"')) return route.continue().catch(() => undefined);
      askedFor = true;
      await held;
      await route.continue().catch(() => undefined);
    });
    await page.keyboard.press('t');
    await expect.poll(() => page.getByTestId('queue-task-verdict').getAttribute('aria-pressed'), { timeout: 15_000 }).toBe('true');
    await expect.poll(() => askedFor, { timeout: 15_000 }).toBe(true);
    expect(await page.getByTestId('queue-item').count()).toBe(0);
    await page.keyboard.press('Enter');
    expect(await page.getByTestId('adjudication').count()).toBe(0);
    release();
    await page.unroute('**/api/reviewQueue');
    await openOnly(page, 'verdict', 'solo');
    await page.keyboard.press('b');
    await expect.poll(() => page.getByTestId('resolve-draft').innerText()).toMatch(/bad/);
    // b is the verdict here, not the project's blind / assist switch.
    expect(await page.getByTestId('prelabels').getAttribute('data-mode')).toBe('blind');
    expect((await recordAndCheck(page, 'verdict', 'solo')).adjudication.choice).toBe('bad');

    await page.keyboard.press('Escape');
    await page.keyboard.press('t');
    await openOnly(page, 'steps', 'solo');
    expect(await page.getByTestId('adjudication-step').count()).toBe(3);
    expect(await page.getByTestId('adjudication-labels').innerText()).toMatch(/A: first error at step 2[\s\S]*A: first error at step 3/);
    await page.keyboard.press('j');
    await page.keyboard.press('f');
    await expect.poll(() => page.getByTestId('resolve-draft').innerText()).toMatch(/A: step 2/);
    expect((await recordAndCheck(page, 'steps', 'solo')).adjudication.body.first_error).toEqual({ A: 1 });
    expect(problems).toEqual([]);
    await page.context().close();
  });
});

describe('the agreement dashboard', () => {
  it('draws every chart with its n and its sentence on the demo project, without a page error', async () => {
    await labelDemo();
    const { page, problems } = await openApp(browser, host, { annotator: LEAD });
    await go(page, reviewUrl(demo));
    await page.getByTestId('review-queue').waitFor();
    await page.keyboard.press('a');
    await page.getByTestId('dashboard').waitFor({ timeout: 20_000 });
    const charts = page.getByTestId('chart');
    // The six charts, and the demo's region marks (two people boxed one generated image).
    await expect.poll(() => charts.count()).toBe(7);
    const regions = page.locator('[data-testid="chart"][data-chart="region-agreement"]');
    expect(await regions.getByTestId('chart-n').innerText()).toMatch(/^n = 1 image boxed by two or more people/);
    // [0.72, 0.3, 0.99, 0.72] and [0.74, 0.28, 0.98, 0.75]: overlap 0.24 × 0.42 = 0.1008, union 0.1134 + 0.1128 − 0.1008 = 0.1254.
    expect(await page.getByTestId('region-iou').innerText()).toBe('0.80 over 1 image');
    for (const name of ['fields', 'people', 'bias', 'over-time', 'calibration', 'anchoring']) {
      const chart = page.locator(`[data-testid="chart"][data-chart="${name}"]`);
      expect(await chart.getByTestId('chart-n').innerText()).toMatch(/^n = [1-9]/);
      expect((await chart.getByTestId('chart-sentence').innerText()).length).toBeGreaterThan(40);
      // Drawn, not an empty state: an SVG with labelled axes.
      await chart.locator('svg.recharts-surface').first().waitFor();
      expect(await chart.getByTestId('chart-empty').count()).toBe(0);
      expect(await chart.locator('.recharts-label, .recharts-legend-item-text').count()).toBeGreaterThan(0);
    }
    // Bars carry their value and n; a figure without one says why instead.
    const values = await page.locator('[data-chart="fields"] .recharts-label-list text').allTextContents();
    // The pairwise fields (choice, strength…), and the demo's own rankings, first errors and verdicts.
    expect(values.length).toBeGreaterThanOrEqual(4);
    for (const value of values) expect(value).toMatch(/^(\d+%|α -?\d\.\d\d)\s+n=\d+$|^n\/a: .|^not enough data: \d+ items? \(10 needed\)$/);
    // Two bars a person (left picks, longer picks): the test's three people and the demo's ana and ben.
    expect(await page.locator('[data-chart="bias"] .recharts-label-list text').count()).toBe(10);
    expect(await page.locator('[data-chart="bias"] .recharts-errorBar').count()).toBeGreaterThan(0);
    // The reliability diagram has its points and the diagonal.
    expect(await page.locator('[data-chart="calibration"] .recharts-scatter-symbol').count()).toBeGreaterThan(1);
    expect(await page.locator('[data-chart="calibration"] .recharts-reference-line').count()).toBe(1);
    expect(await page.getByTestId('people-table').innerText()).toMatch(new RegExp(ALICE));

    // The page keys scroll the dashboard.
    const scrolled = () => page.getByTestId('dashboard').evaluate((el) => el.scrollTop);
    await page.keyboard.press(' ');
    await expect.poll(scrolled).toBeGreaterThan(100);
    await page.keyboard.press('Shift+ ');
    await expect.poll(scrolled).toBe(0);

    // Recompute runs the job again and says so while it runs.
    await page.keyboard.press('Shift+R');
    await page.getByTestId('review-computed-at').waitFor({ timeout: 20_000 });
    await expect.poll(() => page.getByTestId('dashboard').getAttribute('data-computing')).toBe('false');

    if (SHOTS) await shootDashboard(page);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});

describe('region marks in the adjudication view', () => {
  it('two people’s labels on nearly the same box stay apart, each readable', async () => {
    const { rows } = await host.api<{ rows: { id: number; externalId: string }[] }>('listItems', { project: demo, limit: 1000 });
    const item = rows.find((r) => r.externalId === 'demo-t2i-2')!;
    const { page, problems } = await openApp(browser, host, { annotator: LEAD });
    await go(page, reviewUrl(demo, `/item/${item.id}`));
    const labels = page.getByTestId('review-region-label');
    await expect.poll(() => labels.count(), { timeout: 15_000 }).toBe(2);
    await expect.poll(() => page.locator('[data-testid="image-view"][data-state="shown"]').count(), { timeout: 15_000 }).toBe(2);
    const [a, b] = await labels.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as { left: number; right: number; top: number; bottom: number }));
    const overlap = a!.left < b!.right && b!.left < a!.right && a!.top < b!.bottom && b!.top < a!.bottom;
    expect(overlap).toBe(false);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});

let demoLabeled = false;
const RATIONALES = ['Answers the question directly and the arithmetic checks out.', undefined, 'The other one hedges and never commits to an answer.', 'Both are fine; this one is clearer and shorter.'];

/** Three annotators label the demo's pairs: Alice and Bob all of them, Carol every other one; they disagree now and then. */
async function labelDemo() {
  if (demoLabeled) return;
  demoLabeled = true;
  const { rows } = await host.api<{ rows: { id: number; responses: number }[] }>('listItems', { project: demo, limit: 200 });
  const pairs = rows.filter((r) => r.responses === 2);
  const shown = await Promise.all(pairs.map((r) => host.api<{ shownOrder: number[] }>('getItem', { project: demo, annotator: ALICE, itemId: r.id })));
  for (const [i, row] of pairs.entries()) {
    const base = i % 3 === 0 ? 'B' : 'A';
    const flip = (c: string) => (c === 'A' ? 'B' : 'A');
    const labels: [string, string, boolean][] = [
      [ALICE, base, i % 2 === 0],
      [BOB, i % 5 === 1 ? flip(base) : base, i % 2 === 1],
      ...(i % 2 === 0 ? [['e2e-carol', i % 7 === 3 ? 'tie' : i % 6 === 0 ? flip(base) : base, i % 4 === 0] as [string, string, boolean]] : []),
    ];
    for (const [who, choice, visible] of labels)
      await host.api('saveLabel', {
        project: demo,
        annotator: who,
        itemId: row.id,
        choice,
        strength: choice === 'tie' ? null : 1 + ((i + who.length) % 3),
        shownOrder: who === ALICE ? shown[i]!.shownOrder : i % 2 === 0 ? [0, 1] : [1, 0],
        timeMs: 3000 + ((i * 1700 + who.length * 900) % 20000),
        prelabelVisible: visible,
        rationale: RATIONALES[(i + who.length + (who === BOB ? 1 : 0)) % RATIONALES.length],
      });
  }
}

async function shot(page: Page, name: string) {
  await page.mouse.move(0, 0);
  await page.screenshot({ path: join(ROOT, 'docs', 'screenshots', `${name}.png`) });
}

/** The queue and an item of the demo project (richer than five pairs), light and dark. */
async function shootQueueAndItem() {
  await labelDemo();
  const queue = await host.api<{ rows: QueueRow[] }>('reviewQueue', { project: demo });
  // The second row is adjudicated already: the queue shows its mark, its view the earlier resolution.
  const item = queue.rows[1]!;
  await host.api('adjudicate', { project: demo, annotator: LEAD, itemId: item.itemId, choice: 'B', strength: 2, note: 'First pass: B reads better, but check the numbers.' });
  for (const theme of ['light', 'dark'] as const) {
    const { page } = await openApp(browser, host, { annotator: LEAD, theme, width: 1440, height: 900 });
    await go(page, reviewUrl(demo));
    await expect.poll(() => page.getByTestId('queue-row').count(), { timeout: 20_000 }).toBeGreaterThan(3);
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await shot(page, `review-queue-${theme}`);
    await go(page, reviewUrl(demo, `/item/${item.itemId}`));
    await page.getByTestId('adjudication-label').first().waitFor();
    await page.keyboard.press('Shift+1');
    await page.getByTestId('resolve-note').fill('A answers the question; B guesses. Checked against the reference.');
    await page.getByTestId('resolve-note').blur();
    await shot(page, `review-adjudication-${theme}`);
    await page.context().close();
  }
}

async function shootDashboard(page: Page) {
  await page.setViewportSize({ width: 1440, height: 1540 });
  await shot(page, 'review-dashboard-light');
  const dark = await openApp(browser, host, { annotator: LEAD, theme: 'dark', width: 1440, height: 1540 });
  await go(dark.page, reviewUrl(demo, '/agreement'));
  await dark.page.getByTestId('dashboard').waitFor({ timeout: 20_000 });
  await expect.poll(() => dark.page.getByTestId('chart').count()).toBe(7);
  await shot(dark.page, 'review-dashboard-dark');
  await dark.page.context().close();
}
