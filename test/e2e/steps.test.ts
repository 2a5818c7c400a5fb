// The step screen end to end: an Arbiter file with a 6-step chain ("Step N:" markers, one response, a
// reference answer) imported through the UI, rated from the keyboard with a first error at step 4 (steps
// 5–6 greyed and unrated), a tag, a correction, the outcome and the reference judgement; kept across a
// reload and checked through the API (getSteps and labelHistory). Then a split and a merge from the
// keyboard with the host's notices; the compare screen's way to a response's steps and back; and a
// process model's step scores as pre-labels, blind (hidden until judged) and assist (accepted with a).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uuidv7 } from '../../shared/ids';
import { createProjectViaUi, importViaUi, launchBrowser, openApp, refuseApi, restoreApi, startHost, writeJsonl, type Host } from './helpers';

const ANNOTATOR = 'e2e-steps';
const PROJECT = 'e2e chains';
const CHAIN = [
  'Step 1: The box has 4 rows.',
  'Step 2: Each row holds 7 apples.',
  'Step 3: The total is the number of rows times the apples in a row.',
  'Step 4: $4 \\times 7 = 24$ apples.',
  'Step 5: After 5 are eaten, $24 - 5 = 19$ are left.',
  'Step 6: The answer is **19**.',
];
const SPLIT = ['Step 1: Let n = 5.', 'Step 2: Double it to get 10. Then add 3 to get 13.', 'Step 3: The answer is 13.'];
const ITEMS = [
  { id: 'apples', prompt: 'A box holds 4 rows of 7 apples. 5 apples are eaten. How many are left?', responses: [{ text: CHAIN.join('\n'), model: 'chain-model' }], reference: '23' },
  { id: 'double', prompt: 'Double 5, then add 3.', responses: [{ text: SPLIT.join('\n'), model: 'chain-model' }] },
  {
    id: 'pair',
    prompt: 'What is 2 + 2?',
    responses: [
      { text: 'Step 1: 2 + 2 = 4.\nStep 2: So the answer is four.', model: 'left-or-right' },
      { text: 'Step 1: 2 + 2 = 5.\nStep 2: So the answer is five.', model: 'left-or-right' },
    ],
  },
  { id: 'blind', prompt: 'Add 10 and 5, then halve it.', responses: [{ text: 'Step 1: 10 + 5 = 15.\nStep 2: Half of 15 is 7.5.\nStep 3: The answer is 7.5.' }] },
  { id: 'assist', prompt: 'Multiply 6 by 3, then subtract 4.', responses: [{ text: 'Step 1: 6 × 3 = 18.\nStep 2: 18 − 4 = 14.\nStep 3: The answer is 14.' }] },
];
const CORRECTION = '4 × 7 = 28 apples — typed f, j, k, = and - here change nothing';

interface Revision {
  id: string;
  task: string;
  annotator: string;
  body: Record<string, unknown>;
}
interface StepsView {
  responses: { index: number; version: number; steps: string[]; origin: string }[];
  label: Revision | null;
  judgements: Record<number, Record<string, unknown>>;
}

let host: Host;
let browser: Browser;
let page: Page;
let problems: string[];
const ids = new Map<string, number>();

const go = (hash: string) => page.evaluate((h) => (location.hash = h), hash);
const stepsUrl = (itemId?: number, response?: number) =>
  `#/p/${encodeURIComponent(PROJECT)}/steps${itemId ? `/item/${itemId}` : ''}${itemId && response !== undefined ? `/r/${response}` : ''}`;
const ratings = () => page.getByTestId('rating-chip').evaluateAll((chips) => chips.map((c) => c.getAttribute('data-rating')));
const current = () => page.locator('[data-testid="step"][data-current="true"]').getAttribute('data-index').then(Number);
const getSteps = (itemId: number) => host.api<StepsView>('getSteps', { project: PROJECT, annotator: ANNOTATOR, itemId });

async function onItem(external: string) {
  await expect.poll(() => page.getByTestId('steps-screen').getAttribute('data-item-id'), { timeout: 10_000 }).toBe(String(ids.get(external)));
  await page.getByTestId('step-list').waitFor();
}

/** Waits until every save is confirmed: the last one says saved, and the outbox is empty. */
async function allSaved() {
  await expect.poll(() => page.getByTestId('status-text').getAttribute('data-state'), { timeout: 10_000 }).toBe('saved');
  await expect.poll(() => page.evaluate(() => localStorage.getItem('arbiter.pendingJudgements')), { timeout: 10_000 }).toBeNull();
}

beforeAll(async () => {
  host = await startHost({ demo: true });
  browser = await launchBrowser();
  ({ page, problems } = await openApp(browser, host, { annotator: ANNOTATOR }));
  await createProjectViaUi(page, PROJECT);
  await importViaUi(page, writeJsonl(host.home, 'chains.jsonl', ITEMS));
  expect(await page.getByTestId('import-result').innerText()).toMatch(/Imported 5 new items[\s\S]*arbiter/);
  const { rows } = await host.api<{ rows: { id: number; externalId: string }[] }>('listItems', { project: PROJECT });
  for (const row of rows) ids.set(row.externalId, row.id);
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

describe('the step screen', () => {
  it('rates a 6-step chain from the keyboard: first error at step 4, a tag, a correction, the outcome; kept across a reload', async () => {
    await go(stepsUrl());
    await onItem('apples');
    expect(await page.getByTestId('step').count()).toBe(6);
    expect(await current()).toBe(0);
    expect(await page.getByTestId('steps-reference').innerText()).toContain('23');
    expect(await page.getByTestId('steps-prompt').innerText()).toContain('4 rows of 7 apples');
    expect(await page.getByTestId('step-list').locator('.katex').count()).toBeGreaterThan(0);

    for (const key of ['=', '+', '0']) await page.keyboard.press(key);
    expect(await current()).toBe(3);
    await page.keyboard.press('f');
    await page.getByTestId('first-error-rule').waitFor();
    expect(await page.locator('[data-testid="step"][data-index="3"]').getByTestId('first-error-rule').count()).toBe(1);
    expect(await page.locator('[data-testid="step"][data-after-error="true"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-index')))).toEqual(['4', '5']);
    expect(await ratings()).toEqual(['1', '1', '0', '-1', 'none', 'none']);

    // A tag from the picker, by the keyboard.
    await page.keyboard.press('t');
    await page.getByTestId('tag-picker').waitFor();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('[data-testid="tag-option"][data-tag="calculation"]').getAttribute('data-on')).toBe('true');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('tag-picker').count()).toBe(0);
    expect(await page.locator('[data-testid="step"][data-index="3"]').getByTestId('step-tag').innerText()).toContain('calculation');

    // A correction: what is typed in the box is text, never a shortcut.
    await page.keyboard.press('c');
    const box = page.getByTestId('correction-input');
    await box.waitFor();
    await box.press('Control+a');
    await page.keyboard.type(CORRECTION);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('correction-input').count()).toBe(0);
    expect(await page.locator('[data-testid="step"][data-index="3"]').getByTestId('step-correction').innerText()).toContain('4 × 7 = 28 apples');
    expect(await ratings()).toEqual(['1', '1', '0', '-1', 'none', 'none']);
    expect(await current()).toBe(3);

    // The result, kept apart from the process: final answer incorrect, not equivalent to the reference.
    await page.keyboard.press('o');
    await page.keyboard.press('o');
    await expect.poll(() => page.getByTestId('steps-outcome').getAttribute('data-value')).toBe('incorrect');
    await page.keyboard.press('r');
    await page.keyboard.press('r');
    await expect.poll(() => page.getByTestId('steps-reference-match').getAttribute('data-value')).toBe('no');
    await allSaved();

    await page.reload();
    await onItem('apples');
    expect(await ratings()).toEqual(['1', '1', '0', '-1', 'none', 'none']);
    expect(await page.locator('[data-testid="step"][data-index="3"]').getByTestId('first-error-rule').count()).toBe(1);
    expect(await page.getByTestId('step-tag').innerText()).toContain('calculation');
    expect(await page.getByTestId('step-correction').innerText()).toContain('4 × 7 = 28 apples');
    expect(await page.getByTestId('steps-outcome').getAttribute('data-value')).toBe('incorrect');
    expect(await page.getByTestId('steps-reference-match').getAttribute('data-value')).toBe('no');

    const view = await getSteps(ids.get('apples')!);
    expect(view.responses[0]).toMatchObject({ version: 1, origin: 'auto', steps: CHAIN });
    expect(view.judgements[0]).toEqual({
      version: 1,
      ratings: [1, 1, 0, -1, null, null],
      firstError: 3,
      tags: { '3': ['calculation'] },
      corrections: { '3': CORRECTION },
      outcome: 'incorrect',
      finishReason: 'found_error',
      referenceMatch: 'no',
    });
    const history = (await host.api<Revision[]>('labelHistory', { project: PROJECT, itemId: ids.get('apples') })).filter((r) => r.task === 'steps');
    expect(history.length).toBeGreaterThanOrEqual(2);
    expect(new Set(history.map((r) => r.id)).size).toBe(history.length);
    for (const r of history) expect(r.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const last = history[history.length - 1]!;
    expect(last.id).toBe(view.label!.id);
    expect(last.annotator).toBe(ANNOTATOR);
    expect(last.body).toMatchObject({ steps: { A: [1, 1, 0, -1, null, null] }, first_error: { A: 3 }, outcome: { A: 'incorrect' }, reference_match: { A: 'no' }, prelabel_visible: false });
    // The first save was the first rating alone: each key saved as it was made.
    expect(history[0]!.body).toMatchObject({ steps: { A: [1, null, null, null, null, null] } });
  });

  it('exports the rated chain as trl-stepwise: the steps up to and including the first error, labelled as rated', async () => {
    const summary = await host.api<{ out: string; written: number }>('exportProject', { project: PROJECT, format: 'trl-stepwise' });
    expect(summary.written).toBe(1);
    const lines = readFileSync(join(host.home, 'exports', summary.out), 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as { prompt: string; completions: string[]; labels: boolean[] });
    expect(lines).toHaveLength(1);
    expect(lines[0]!.prompt).toContain('4 rows of 7 apples');
    // Rated +1, +1, 0, −1: steps 5–6 come after the first error and are left out; a neutral step is false by default.
    expect(lines[0]!.completions).toEqual(CHAIN.slice(0, 4));
    expect(lines[0]!.labels).toEqual([true, true, false, false]);
  });

  it('splits a step at a caret moved from the keyboard, then merges two steps, saying what each did to the ratings', async () => {
    await page.keyboard.press('ArrowRight');
    await onItem('double');
    expect(await page.getByTestId('step').count()).toBe(3);
    await page.keyboard.press('j');
    await page.keyboard.press('=');
    await page.keyboard.press('k');
    expect(await current()).toBe(1);

    await page.keyboard.press('s');
    const split = page.getByTestId('split-view');
    await split.waitFor();
    const at = SPLIT[1]!.indexOf('Then');
    expect(Number(await split.getAttribute('data-at'))).toBe(at);
    await page.keyboard.press('ArrowRight');
    expect(Number(await split.getAttribute('data-at'))).toBe(SPLIT[1]!.indexOf('add'));
    await page.keyboard.press('ArrowLeft');
    expect(Number(await split.getAttribute('data-at'))).toBe(at);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('step').count()).toBe(4);
    expect(await page.getByTestId('steps-notices').innerText()).toContain('Step 2 was rated +1; its two halves are unrated now: rate each.');
    expect(await ratings()).toEqual(['unrated', 'unrated', 'unrated', 'unrated']);

    expect(await current()).toBe(1);
    await page.keyboard.press('=');
    await page.keyboard.press('-');
    await page.keyboard.press('k');
    await page.keyboard.press('k');
    expect(await current()).toBe(1);
    await page.keyboard.press('m');
    await expect.poll(() => page.getByTestId('step').count()).toBe(3);
    expect(await page.getByTestId('steps-notices').innerText()).toContain('Steps 2 and 3 were rated +1 and −1; the merged step keeps the worse, −1.');
    expect(await ratings()).toEqual(['unrated', '-1', 'unrated']);
    await allSaved();

    const view = await getSteps(ids.get('double')!);
    expect(view.responses[0]).toMatchObject({ version: 3, origin: 'annotator', steps: [SPLIT[0], `Step 2: Double it to get 10.\nThen add 3 to get 13.`, SPLIT[2]] });
    expect(view.judgements[0]).toMatchObject({ version: 3, ratings: [null, -1, null] });
  });

  it('opens a response of a pair on the step screen from the compare screen, and Esc comes back to the same item', async () => {
    const pair = ids.get('pair')!;
    const shown = await host.api<{ shownOrder: number[] }>('getItem', { project: PROJECT, annotator: ANNOTATOR, itemId: pair });
    await go(`#/p/${encodeURIComponent(PROJECT)}/item/${pair}`);
    await page.getByTestId('response-body-right').waitFor();
    expect(await page.getByTestId('open-steps-left').innerText()).toMatch(/Steps\s*\[/);
    await page.keyboard.press(']');
    await page.getByTestId('steps-screen').waitFor();
    await onItem('pair');
    expect(Number(await page.getByTestId('steps-screen').getAttribute('data-response'))).toBe(shown.shownOrder[1]);
    expect(await page.getByTestId('step-list').innerText()).toContain(shown.shownOrder[1] === 0 ? '2 + 2 = 4' : '2 + 2 = 5');
    expect(await page.evaluate(() => location.hash)).toBe(stepsUrl(pair, shown.shownOrder[1]));
    await page.keyboard.press('=');
    await allSaved();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('compare').getAttribute('data-item-id')).toBe(String(pair));
    const view = await getSteps(pair);
    expect(Object.keys(view.judgements)).toEqual([String(shown.shownOrder[1])]);
  });

  it('keeps a rating the host did not confirm across a reload, shows it, and saves it once the host answers', async () => {
    const pair = ids.get('pair')!;
    const shown = await host.api<{ shownOrder: number[] }>('getItem', { project: PROJECT, annotator: ANNOTATOR, itemId: pair });
    const other = shown.shownOrder[0]!;
    await refuseApi(page, 'saveSteps');
    await go(stepsUrl(pair, other));
    await expect.poll(() => page.getByTestId('steps-screen').getAttribute('data-response')).toBe(String(other));
    await page.keyboard.press('-');
    await page.getByTestId('unsaved-banner').waitFor();
    expect(await page.getByTestId('status-text').getAttribute('data-state')).toBe('failed');
    await page.reload();
    await onItem('pair');
    expect(await ratings()).toEqual(['-1', 'unrated']);
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('arbiter.pendingJudgements') ?? '[]').length)).toBe(1);
    await restoreApi(page);
    await page.getByTestId('unsaved-banner').waitFor({ state: 'detached', timeout: 20_000 });
    await allSaved();
    const view = await getSteps(pair);
    expect(view.judgements[other]).toMatchObject({ ratings: [-1, null] });
    expect(view.judgements[shown.shownOrder[1]!]).toMatchObject({ ratings: [1, null] });
  });

  it('one outbox: a step save an older page left under its own key is carried and sent by the Compare screen', async () => {
    const double = ids.get('double')!;
    const pair = ids.get('pair')!;
    const before = await getSteps(double);
    const { version, steps } = before.responses[0]!;
    const ratings = steps.map((_, i) => (i === steps.length - 1 ? -1 : 1));
    const revision = uuidv7();
    // As the step screen kept its saves before it used the labeling loop's outbox: { key, input, words, itemNumber } under arbiter.pendingSteps.
    const input = { project: PROJECT, annotator: ANNOTATOR, itemId: double, response: 0, id: revision, steps: { version, ratings, firstError: steps.length - 1 }, timeMs: 5, prelabelVisible: false };
    await page.evaluate((entry) => localStorage.setItem('arbiter.pendingSteps', JSON.stringify([entry])), { key: 'before-the-upgrade', words: 'Rated step 1 +1', itemNumber: 2, input });
    // Opened on another screen than the one that saved it: the Compare screen's outbox is the same one.
    await go(`#/p/${encodeURIComponent(PROJECT)}/item/${pair}`);
    await page.reload();
    await page.getByTestId('response-body-right').waitFor();
    // Sent: the host holds the revision under the id it was saved with, and the response's judgement is it.
    const mine = async () => (await host.api<Revision[]>('labelHistory', { project: PROJECT, itemId: double })).filter((r) => r.annotator === ANNOTATOR && r.task === 'steps').map((r) => r.id);
    await expect.poll(mine, { timeout: 10_000 }).toContain(revision);
    expect((await getSteps(double)).judgements[0]).toMatchObject({ ratings, firstError: steps.length - 1 });
    // And kept nowhere any more: neither the old key nor the shared outbox holds it.
    await expect.poll(() => page.evaluate(() => [localStorage.getItem('arbiter.pendingSteps'), localStorage.getItem('arbiter.pendingJudgements')]), { timeout: 10_000 }).toEqual([null, null]);
  });

  it("shows a process model's step scores only once the chain is judged (blind), and accepts them with a (assist)", async () => {
    const job = await host.api<{ id: string }>('startScoring', { project: PROJECT });
    await expect
      .poll(async () => (await host.api<{ id: string; state: string }[]>('listJobs', {})).find((j) => j.id === job.id)?.state, { timeout: 60_000 })
      .toBe('done');
    const blind = ids.get('blind')!;
    await page.reload();
    await go(stepsUrl(blind));
    await onItem('blind');
    await expect.poll(() => page.getByTestId('steps-screen').getAttribute('data-prelabels')).toBe('blind');
    await page.getByTestId('models-hidden').waitFor();
    expect(await page.getByTestId('model-step').count()).toBe(0);
    for (let i = 0; i < 3; i++) await page.keyboard.press('=');
    await page.getByTestId('models-shown').waitFor();
    expect(await page.getByTestId('model-step').count()).toBe(3);
    expect(await page.getByTestId('model-step').evaluateAll((els) => els.every((e) => ['agrees', 'disagrees'].includes(e.getAttribute('data-agreement') ?? '')))).toBe(true);
    const pre = await host.api<{ models: { kind: string; firstError?: (number | null)[] }[] }>('prelabels', { project: PROJECT, itemId: blind });
    const predicted = pre.models.find((m) => m.kind === 'process')!.firstError![0] ?? null;
    expect(await page.getByTestId('model-predicted-first-error').innerText()).toBe(predicted === null ? 'none (every step ≥ 0.5)' : `step ${predicted + 1}`);
    await page.keyboard.press('o');
    await allSaved();
    const revisions = (await host.api<Revision[]>('labelHistory', { project: PROJECT, itemId: blind })).filter((r) => r.task === 'steps');
    // The saves up to the one that completed the chain were made blind; the one after it with the scores in view.
    const visibility = revisions.map((r) => r.body.prelabel_visible);
    expect(visibility.length).toBeGreaterThanOrEqual(2);
    expect(visibility).toEqual([...visibility.slice(0, -1).map(() => false), true]);
    expect(revisions[revisions.length - 2]!.body).toMatchObject({ steps: { A: [1, 1, 1] }, first_error: { A: -1 } });

    // Assist: the scores are there up front, and `a` takes them.
    await page.keyboard.press('b');
    await page.getByTestId('prelabels-switch').click(); // the switch asks first: every annotator sees it
    await expect.poll(() => page.getByTestId('steps-screen').getAttribute('data-prelabels')).toBe('assist');
    const assist = ids.get('assist')!;
    await page.keyboard.press('ArrowRight');
    await onItem('assist');
    await page.getByTestId('models-shown').waitFor();
    expect(await page.getByTestId('model-step').count()).toBe(3);
    const scores = (await host.api<{ models: { kind: string; steps?: (number[] | null)[]; firstError?: (number | null)[] }[] }>('prelabels', { project: PROJECT, itemId: assist })).models.find(
      (m) => m.kind === 'process',
    )!;
    await page.keyboard.press('a');
    await allSaved();
    const first = scores.firstError![0] ?? null;
    const expected = scores.steps![0]!.map((_, i) => (first === null || i < first ? 1 : i === first ? -1 : null));
    const view = await getSteps(assist);
    expect(view.judgements[0]).toMatchObject({ ratings: expected, firstError: first === null ? -1 : first });
    expect(view.label!.body.prelabel_visible).toBe(true);
    await host.api('updateProjectSettings', { project: PROJECT, settings: { prelabels: 'blind' } });
  });

  it('produced no page errors and no CSP violations', () => {
    // The saves the test itself aborted (the host "down") are logged by the browser; nothing else may be.
    expect(problems.filter((p) => p !== 'console: Failed to load resource: net::ERR_FAILED')).toEqual([]);
  });
});
