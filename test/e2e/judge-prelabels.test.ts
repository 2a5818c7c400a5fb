// A judge's pre-labels beyond the compare screen (issue 23 §2), under the blind / assist rules of the
// compare judge line: the verdict screen's outcome (success / partial / failure and its reason), the step
// screen's first error with a reason per step, and the rating sheet's score and feedback per criterion.
// The results are written through the store (electron/core/store/judges.ts), as a judge run writes them:
// no llama inference here (test/e2e/judges.test.ts runs a real one).
import Database from 'better-sqlite3';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendJudgeResults, type JudgeResultDraft } from '../../electron/core/store/judges';
import type { JudgeAnswer } from '../../shared/judgeAnswers';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeTinyGguf } from '../helpers/tinyGguf';
import { launchBrowser, openApp, startHost, type Host } from './helpers';

const PROJECT = 'judged-elsewhere';
const ANNOTATOR = 'e2e-judge-prelabels';
let host: Host;
let browser: Browser;
let page: Page;
let problems: string[];
const ids = new Map<string, number>();

type Fields = Partial<JudgeResultDraft> & Pick<JudgeResultDraft, 'kind' | 'response' | 'answer'>;
/** Writes judge results into the host's database through the store, as a run would. */
function writeResults(external: string, results: Fields[]): void {
  const db = new Database(host.dbPath, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    const projectId = db.prepare('SELECT id FROM project WHERE name = ?').pluck().get(PROJECT) as number;
    const drafts = results.map((r): JudgeResultDraft => ({
      runId: 'e2e-run', projectId, itemId: ids.get(external)!, engine: 'llama', modelName: 'tiny-judge.gguf', modelHash: 'ab'.repeat(32), templateVersion: 2,
      rubricVersion: null, params: { temperature: 0 }, seed: 7, answerSwapped: null, verdict: null, strength: null, flipped: null, firstError: null, outcome: null,
      critique: null, error: null, tokens: 10, ms: 5, ...r,
    }));
    db.transaction(() => appendJudgeResults(db, drafts))();
  } finally {
    db.close();
  }
}

const outcome = (value: 'success' | 'partial' | 'failure', reason: string): Fields => ({ kind: 'outcome', response: 0, answer: { outcome: value, reason } as JudgeAnswer, outcome: value, critique: reason });

beforeAll(async () => {
  host = await startHost();
  browser = await launchBrowser();
  const items = [
    { id: 'v1', prompt: 'Book a table for two.', responses: [{ text: 'Booked at 7pm for two.' }] },
    { id: 'v2', prompt: 'Cancel my order.', responses: [{ text: 'I could not find the order.' }] },
    { id: 'v3', prompt: 'Say hello.', responses: [{ text: 'Hello.' }] },
    { id: 'p1', prompt: 'Say hello twice.', responses: [{ text: 'Hello. Hello.' }, { text: 'Hi.' }] },
    { id: 'p2', prompt: 'Say bye.', responses: [{ text: 'Bye.' }, { text: 'Goodbye.' }] },
    { id: 's1', prompt: 'Add 10 and 5, then halve it.', responses: [{ text: 'Step 1: 10 + 5 = 15.\nStep 2: Half of 15 is 7.\nStep 3: The answer is 7.' }] },
  ];
  await host.api('importContent', { project: PROJECT, fileName: 'single.jsonl', content: items.map((l) => JSON.stringify(l)).join('\n') + '\n', format: 'arbiter', createProject: true });
  const { rows } = await host.api<{ rows: { id: number; externalId: string }[] }>('listItems', { project: PROJECT, limit: 10 });
  for (const r of rows) ids.set(r.externalId, r.id);
  await host.api('saveRubric', {
    project: PROJECT,
    name: 'greeting',
    criteria: [
      { key: 'accuracy', description: 'Is it right?', scale: { type: 'likert', min: 1, max: 5 } },
      { key: 'cites', description: 'Does it say where it comes from?', scale: { type: 'binary' } },
    ],
  });
  const graded = { criteria: { accuracy: { score: 2, feedback: 'A bare hello, nothing more.' }, cites: { score: 0, feedback: 'No source named.' } } };
  const sheet = (accuracy: number, cites: number) => ({ criteria: { accuracy: { score: accuracy, feedback: `accuracy ${accuracy}` }, cites: { score: cites, feedback: `cites ${cites}` } } }) as JudgeAnswer;
  writeResults('p1', [0, 1].map((response) => ({ kind: 'rubric' as const, response, answer: sheet(response ? 1 : 5, response), rubricVersion: 1 })));
  writeResults('v3', [{ kind: 'rubric', response: 0, answer: graded as JudgeAnswer, rubricVersion: 1, critique: 'accuracy: A bare hello, nothing more.' }]);
  writeResults('v1', [outcome('success', 'The table was booked as asked.')]);
  writeResults('v2', [outcome('failure', 'The order was not cancelled.')]);
  const steps = [{ correct: true, reason: '10 + 5 is 15.' }, { correct: false, reason: 'Half of 15 is 7.5, not 7.' }];
  writeResults('s1', [{ kind: 'steps', response: 0, answer: { steps } as JudgeAnswer, firstError: 1, critique: steps[1]!.reason }]);
  ({ page, problems } = await openApp(browser, host, { annotator: ANNOTATOR }));
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

async function openVerdict(external: string): Promise<void> {
  await page.evaluate((h) => (location.hash = h), `#/p/${encodeURIComponent(PROJECT)}/verdict/item/${ids.get(external)}`);
  await expect.poll(() => page.getByTestId('verdict-screen').getAttribute('data-item-id')).toBe(String(ids.get(external)));
}
async function openSteps(external: string): Promise<void> {
  await page.evaluate((h) => (location.hash = h), `#/p/${encodeURIComponent(PROJECT)}/steps/item/${ids.get(external)}/r/0`);
  await expect.poll(() => page.getByTestId('steps-screen').getAttribute('data-item-id')).toBe(String(ids.get(external)));
}
const onVerdictItem = (external: string) => expect.poll(() => page.getByTestId('verdict-screen').getAttribute('data-item-id')).toBe(String(ids.get(external)));

describe('the judge on the step screen', () => {
  it('blind: hidden until the chain is judged, then its first error (same as yours) and its reason per step', async () => {
    await openSteps('s1');
    const panel = page.getByTestId('steps-judge');
    await panel.getByTestId('judge-hidden').waitFor();
    expect(await panel.getByTestId('judge-first-error').count()).toBe(0);
    // The annotator's own first error: step 2 (↓ once, f).
    await page.keyboard.press('j');
    await page.keyboard.press('f');
    await panel.getByTestId('judge-line').waitFor();
    expect(await panel.getByTestId('judge-first-error').getAttribute('data-value')).toBe('1');
    expect(await panel.innerText()).toMatch(/step 2 ✓ same as yours/);
    const reasons = panel.getByTestId('judge-step-reason');
    expect(await reasons.count()).toBe(2);
    expect(await reasons.nth(0).innerText()).toContain('10 + 5 is 15.');
    expect(await reasons.nth(1).getAttribute('data-correct')).toBe('false');
    expect(await reasons.nth(1).innerText()).toContain('Half of 15 is 7.5, not 7.');
    expect(await panel.getByTestId('judge-line').innerText()).toMatch(/shown because you labeled/);
  });
});

describe('the judge on the verdict screen', () => {
  it('blind: says a judge pre-label exists, shows the outcome once the annotator gave a verdict', async () => {
    await openVerdict('v1');
    await page.getByTestId('judge-hidden').waitFor();
    expect(await page.getByTestId('judge-line').count()).toBe(0);
    expect(await page.getByTestId('judge-outcome').count()).toBe(0);
    await page.keyboard.press('1');
    // The verdict moves on to v2 (unlabeled, blind again); back on v1 the outcome shows.
    await onVerdictItem('v2');
    await page.getByTestId('judge-hidden').waitFor();
    await page.keyboard.press('ArrowLeft');
    await onVerdictItem('v1');
    await page.getByTestId('judge-line').waitFor();
    expect(await page.getByTestId('judge-outcome').getAttribute('data-value')).toBe('success');
    expect(await page.getByTestId('judge-line').innerText()).toMatch(/shown because you labeled/);
    // An item the judge did not see has no line at all.
    await openVerdict('v3');
    expect(await page.getByTestId('judge-hidden').count()).toBe(0);
    expect(await page.getByTestId('judge-line').count()).toBe(0);
  });

  it('the rating sheet, blind: a criterion’s judge score shows once the annotator rated that criterion', async () => {
    await openVerdict('v3');
    await page.getByTestId('ratings-response').waitFor();
    expect(await page.getByTestId('criterion-judge-score').count()).toBe(0);
    await page.keyboard.press('Tab');
    const accuracy = page.locator('[data-testid="criterion"][data-key="accuracy"]');
    const cites = page.locator('[data-testid="criterion"][data-key="cites"]');
    await accuracy.getByTestId('criterion-judge-hidden').waitFor();
    await page.keyboard.press('4');
    await expect.poll(() => accuracy.getAttribute('data-value')).toBe('4');
    await accuracy.getByTestId('criterion-judge-score').waitFor();
    expect(await accuracy.getByTestId('criterion-judge-score').innerText()).toBe('2');
    expect(await accuracy.getByTestId('criterion-judge-feedback').innerText()).toBe('A bare hello, nothing more.');
    expect(await cites.getByTestId('criterion-judge-score').count(), 'cites is not rated yet').toBe(0);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('criterion-judge-score').allInnerTexts()).toEqual(['judge 2']);
  });

  it('assist: the outcome up front, with model, template version, seed and the reason as plain text', async () => {
    await host.api('updateProjectSettings', { project: PROJECT, settings: { prelabels: 'assist' } });
    await page.reload();
    await openVerdict('v2');
    const line = page.getByTestId('judge-line');
    await line.waitFor();
    expect(await page.getByTestId('judge-hidden').count()).toBe(0);
    expect(await page.getByTestId('judge-outcome').getAttribute('data-value')).toBe('failure');
    expect(await page.getByTestId('judge-source').innerText()).toBe('tiny-judge.gguf · template 2 · seed 7');
    await page.getByTestId('judge-reason-toggle').click();
    expect(await page.getByTestId('judge-reason').innerText()).toBe('The order was not cancelled.');
    await page.screenshot({ path: '/tmp/judge-verdict.png' });
    // The rating sheet in assist: every criterion's judge score up front; the focused one has its feedback and source.
    await openVerdict('v3');
    await expect.poll(() => page.getByTestId('criterion-judge-score').allInnerTexts()).toEqual(['judge 2', 'judge No']);
    // Tab enters the sheet (on the first criterion not rated yet: cites, accuracy was rated above).
    await page.keyboard.press('Tab');
    const cites = page.locator('[data-testid="criterion"][data-key="cites"]');
    await expect.poll(() => cites.getAttribute('data-focused')).toBe('true');
    expect(await cites.getByTestId('criterion-judge-feedback').innerText()).toBe('No source named.');
    expect(await cites.getByTestId('judge-source').innerText()).toBe('tiny-judge.gguf · template 2 · seed 7');
    await page.screenshot({ path: '/tmp/judge-sheet.png' });
    await page.keyboard.press('Escape');
    // The compare screen's two sheets: each response's own scores, on the side it is shown.
    await page.evaluate((h) => (location.hash = h), `#/p/${encodeURIComponent(PROJECT)}/item/${ids.get('p1')}`);
    await expect.poll(() => page.getByTestId('compare').getAttribute('data-item-id')).toBe(String(ids.get('p1')));
    const { shownOrder } = await host.api<{ shownOrder: number[] }>('getItem', { project: PROJECT, annotator: ANNOTATOR, itemId: ids.get('p1') });
    const expected = (response: number) => (response ? ['judge 1', 'judge Yes'] : ['judge 5', 'judge No']);
    await expect.poll(() => page.getByTestId('ratings-left').getByTestId('criterion-judge-score').allInnerTexts()).toEqual(expected(shownOrder[0]!));
    expect(await page.getByTestId('ratings-right').getByTestId('criterion-judge-score').allInnerTexts()).toEqual(expected(shownOrder[1]!));
    await page.screenshot({ path: '/tmp/judge-sheet-compare.png' });
    // The dark theme: the step screen's judge and the verdict screen's line and sheet (screenshots to /tmp).
    const dark = await openApp(browser, host, { annotator: ANNOTATOR, theme: 'dark' });
    await dark.page.evaluate((h) => (location.hash = h), `#/p/${encodeURIComponent(PROJECT)}/steps/item/${ids.get('s1')}/r/0`);
    await dark.page.getByTestId('steps-judge').getByTestId('judge-line').waitFor();
    await dark.page.screenshot({ path: '/tmp/judge-steps-dark.png' });
    await dark.page.evaluate((h) => (location.hash = h), `#/p/${encodeURIComponent(PROJECT)}/verdict/item/${ids.get('v2')}`);
    await dark.page.getByTestId('judge-line').waitFor();
    await dark.page.screenshot({ path: '/tmp/judge-verdict-dark.png' });
    expect(dark.problems).toEqual([]);
    await dark.page.context().close();
    // The step screen in assist: shown up front, with its source.
    await openSteps('s1');
    await page.getByTestId('steps-judge').getByTestId('judge-line').waitFor();
    expect(await page.getByTestId('steps-judge').getByTestId('judge-source').innerText()).toBe('tiny-judge.gguf · template 2 · seed 7');
    await page.screenshot({ path: '/tmp/judge-steps.png' });
    expect(problems).toEqual([]);
  });
});

describe('a judge run that ends while a labeling screen is open', () => {
  it('makes the screen ask again: an item seen before the run shows the results written since', async () => {
    process.env.ARBITER_JUDGE_THREADS = '1';
    const onPair = (external: string) => expect.poll(() => page.getByTestId('compare').getAttribute('data-item-id')).toBe(String(ids.get(external)));
    await page.evaluate((h) => (location.hash = h), `#/p/${encodeURIComponent(PROJECT)}/item/${ids.get('p1')}`);
    await onPair('p1');
    await page.keyboard.press('ArrowRight');
    await onPair('p2');
    // p1 was asked with no pairwise judge; one is written now, then a judge run (of another kind) ends.
    writeResults('p1', [{ kind: 'pairwise', response: null, answer: { verdict: 'A', strength: 2, critique: 'A says hello twice.' } as JudgeAnswer, verdict: 'A', strength: 2, flipped: false, critique: 'A says hello twice.' }]);
    mkdirSync(join(host.home, 'models'), { recursive: true });
    writeTinyGguf(join(host.home, 'models', 'tiny-judge.gguf'));
    await host.api('startJudging', { project: PROJECT, kind: 'outcome', model: 'tiny-judge.gguf', limit: 1, parallel: 1 });
    await expect
      .poll(async () => (await host.api<{ kind: string; project: string; state: string }[]>('listJobs', {})).find((j) => j.kind === 'judge' && j.project === PROJECT)?.state, { timeout: 120_000 })
      .toBe('done');
    await page.keyboard.press('ArrowLeft');
    await onPair('p1');
    await page.getByTestId('judge-line').waitFor();
    expect(await page.getByTestId('judge-verdict').innerText()).toMatch(/^(Left|Right), clearly better$/);
    expect(problems).toEqual([]);
  });
});
