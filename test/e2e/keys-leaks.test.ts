// Keys that leaked and what the screens showed wrong (issue 13, findings 22–26), end to end in Chromium:
// - step screen: with the tag menu open, `c` opens the correction box and what is typed goes into it;
//   `o` pressed three times saves one revision; `a` with nothing to accept says why; `v` shows the file's
//   own step ratings beside the annotator's; PRM800K's "# Answer" is text, not a heading; a step split
//   inside a fenced code block shows two code blocks, each with its code;
// - compare screen with a rubric: after a choice blocked by a required criterion, Tab stays on the first
//   empty criterion; a 10-category criterion takes 1 for its first category at once and 0 for its tenth;
//   `b` asks before switching the whole project to assist;
// - rubric screen: Ctrl+S saves with nothing focused;
// - header at 760 px keeps the project, progress, blind / assist and the annotator in view;
// - review queue: votes B ×2 · A ×1 show "B better · majority".
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openApp, startHost, type Host } from './helpers';

const STEPS = 'leaky steps';
const PAIRS = 'leaky pairs';
const ME = 'e2e-leaks';
let host: Host;
let browser: Browser;
const ids = new Map<string, number>();

const PRM = {
  labeler: '340d89bc-f5b7-45e9-b272-909ba68ee363',
  timestamp: '2023-01-22T04:34:27.052924',
  generation: 9,
  is_quality_control_question: false,
  is_initial_screening_question: false,
  question: {
    problem: 'How many positive two-digit integers leave a remainder of 2 when divided by 8?',
    ground_truth_answer: '12',
    pre_generated_steps: [
      'A number that leaves a remainder of 2 when divided by 8 has the form 8n+2.',
      'The two-digit ones start at n=1: 10.',
      'They end at n=13: 106.',
      'So there are 13 of them.',
      '# Answer\n\n13',
    ],
    pre_generated_answer: '13',
    pre_generated_verifier_score: 0.0103,
  },
  label: {
    steps: [
      { completions: [{ text: 'A number that leaves a remainder of 2 when divided by 8 has the form 8n+2.', rating: 1, flagged: null }], human_completion: null, chosen_completion: 0 },
      { completions: [{ text: 'The two-digit ones start at n=1: 10.', rating: 0, flagged: null }], human_completion: null, chosen_completion: 0 },
      { completions: [{ text: 'They end at n=13: 106.', rating: -1, flagged: null }], human_completion: null, chosen_completion: null },
    ],
    total_time: 183417,
    finish_reason: 'found_error',
  },
};
const CODE_STEP = 'Compute it in Python:\n```python\nrows = 4\ncols = 7\nprint(rows * cols - 5)\n```';
const CODE_ITEM = { id: 'code', prompt: 'How many apples are left?', responses: [{ text: `Step 1: Count the apples.\nStep 2: ${CODE_STEP}\nStep 3: The answer is 23.` }] };
const TEN = ['arithmetic', 'algebra', 'geometry', 'counting', 'probability', 'number-theory', 'calculus', 'statistics', 'logic', 'other'];

beforeAll(async () => {
  host = await startHost();
  browser = await launchBrowser();
  await host.api('importContent', { project: STEPS, fileName: 'prm.jsonl', content: JSON.stringify(PRM) + '\n', format: 'prm800k', createProject: true });
  await host.api('importContent', { project: STEPS, fileName: 'code.jsonl', content: JSON.stringify(CODE_ITEM) + '\n', format: 'arbiter' });
  const pairs = [
    { id: 'p1', prompt: 'What is 2 + 2?', responses: [{ text: '4.' }, { text: '5.' }] },
    { id: 'p2', prompt: 'Capital of France?', responses: [{ text: 'Paris.' }, { text: 'Lyon.' }] },
  ];
  await host.api('importContent', { project: PAIRS, fileName: 'pairs.jsonl', content: pairs.map((p) => JSON.stringify(p)).join('\n') + '\n', format: 'arbiter', createProject: true });
  await host.api('saveRubric', {
    project: PAIRS,
    name: 'facts',
    criteria: [
      { key: 'accuracy', description: 'Is the answer right?', scale: { type: 'likert', min: 1, max: 5 }, required: true },
      { key: 'cites', description: 'Does it say where it comes from?', scale: { type: 'binary' } },
      { key: 'topic', description: 'What is it about?', scale: { type: 'categories', values: TEN } },
    ],
  });
  for (const project of [STEPS, PAIRS]) {
    const rows = await host.api<{ rows: { id: number; externalId: string }[] }>('listItems', { project, annotator: ME, limit: 10 });
    for (const r of rows.rows) ids.set(r.externalId, r.id);
  }
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

const go = (page: Page, hash: string) => page.evaluate((h) => (location.hash = h), hash);
const stepsHistory = async (external: string) =>
  (await host.api<{ task: string; body: Record<string, unknown> }[]>('labelHistory', { project: STEPS, itemId: ids.get(external) })).filter((r) => r.task === 'steps' && !('labeler' in r.body));

async function onSteps(page: Page, external: string) {
  await go(page, `#/p/${encodeURIComponent(STEPS)}/steps/item/${ids.get(external)}`);
  await expect.poll(() => page.getByTestId('steps-screen').getAttribute('data-item-id'), { timeout: 10_000 }).toBe(String(ids.get(external)));
  await page.getByTestId('step-list').waitFor();
}

describe('the step screen', () => {
  it('renders PRM800K’s "# Answer" step as text, not a heading', async () => {
    const { page, problems } = await openApp(browser, host, { annotator: ME });
    await onSteps(page, ids.has('prm800k') ? 'prm800k' : [...ids.keys()].find((k) => k !== 'code' && k !== 'p1' && k !== 'p2')!);
    const last = page.getByTestId('step').nth(4);
    expect(await last.locator('h1').count()).toBe(0);
    expect(await last.innerText()).toMatch(/# Answer\s+13/);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('`v` shows the file’s own step ratings beside the annotator’s', async () => {
    const { page } = await openApp(browser, host, { annotator: ME });
    await onSteps(page, [...ids.keys()].find((k) => k !== 'code' && k !== 'p1' && k !== 'p2')!);
    expect(await page.getByTestId('source-step-chip').count()).toBe(0);
    await page.keyboard.press('v');
    await expect.poll(() => page.getByTestId('source-step-chip').evaluateAll((chips) => chips.map((c) => c.getAttribute('data-rating')))).toEqual(['1', '0', '-1', '', '']);
    await page.keyboard.press('v');
    await expect.poll(() => page.getByTestId('source-step-chip').count()).toBe(0);
    await page.context().close();
  });

  it('with the tag menu open, `Tab` opens the correction box and what is typed goes into it', async () => {
    const { page } = await openApp(browser, host, { annotator: ME });
    await onSteps(page, 'code');
    await page.keyboard.press('t');
    await page.getByTestId('tag-picker').waitFor();
    await page.keyboard.press('Tab');
    const box = page.getByTestId('correction-input');
    await box.waitFor();
    await page.keyboard.type(' fe=-');
    await expect.poll(() => box.inputValue()).toMatch(/ fe=-$/);
    expect(await page.getByTestId('rating-chip').evaluateAll((chips) => chips.map((c) => c.getAttribute('data-rating')))).toEqual(['unrated', 'unrated', 'unrated']);
    await page.context().close();
  });

  it('`o` cycles the outcome on screen and saves one revision for the decision', async () => {
    const { page } = await openApp(browser, host, { annotator: ME });
    await onSteps(page, 'code');
    const before = (await stepsHistory('code')).length;
    await page.keyboard.press('o');
    await page.keyboard.press('o');
    await page.keyboard.press('o');
    await expect.poll(() => page.getByTestId('steps-outcome').innerText()).toMatch(/unsure/i);
    await expect.poll(async () => (await stepsHistory('code')).length, { timeout: 10_000 }).toBe(before + 1);
    expect((await stepsHistory('code')).at(-1)!.body).toMatchObject({ outcome: { A: 'unsure' } });
    // Still one, a moment later.
    await page.waitForFunction(() => new Promise((done) => setTimeout(() => done(true), 1500)));
    expect((await stepsHistory('code')).length).toBe(before + 1);
    await page.context().close();
  });

  it('`a` with no process model says why, in the status line', async () => {
    const { page } = await openApp(browser, host, { annotator: ME });
    await onSteps(page, 'code');
    await page.keyboard.press('a');
    await expect.poll(() => page.getByTestId('status-text').innerText()).toMatch(/nothing to accept.*(no process model|blind)/i);
    await page.context().close();
  });

  it('a step split inside a fenced code block shows two code blocks, each with its code', async () => {
    const itemId = ids.get('code')!;
    const view = await host.api<{ responses: { version: number; steps: string[] }[] }>('getSteps', { project: STEPS, annotator: ME, itemId });
    const step = view.responses[0]!.steps.findIndex((s) => s.includes('```python'));
    const text = view.responses[0]!.steps[step]!;
    await host.api('resegment', { project: STEPS, annotator: ME, itemId, response: 0, op: 'split', fromVersion: view.responses[0]!.version, step, at: text.indexOf('cols = 7') });
    const { page } = await openApp(browser, host, { annotator: ME });
    await onSteps(page, 'code');
    const halves = page.getByTestId('step');
    await expect.poll(() => halves.count()).toBe(4);
    expect(await halves.nth(step).locator('pre code').innerText()).toMatch(/rows = 4/);
    expect(await halves.nth(step + 1).locator('pre code').innerText()).toMatch(/cols = 7\s+print\(rows \* cols - 5\)/);
    expect(await halves.nth(step + 1).innerText()).not.toMatch(/```/);
    await page.context().close();
  });
});

async function onCompare(page: Page, external: string) {
  await go(page, `#/p/${encodeURIComponent(PAIRS)}/item/${ids.get(external)}`);
  await expect.poll(() => page.getByTestId('rubric-version').innerText(), { timeout: 10_000 }).toMatch(/facts/);
}
const focused = (page: Page) => page.locator('[data-testid="criterion"][data-focused="true"]');

describe('ratings on the compare screen', () => {
  it('after a choice blocked by a required criterion, Tab stays on the first empty criterion', async () => {
    const { page } = await openApp(browser, host, { annotator: ME });
    await onCompare(page, 'p1');
    await page.keyboard.press('1');
    await page.getByTestId('ratings-required').waitFor();
    await expect.poll(() => focused(page).getAttribute('data-key')).toBe('accuracy');
    await page.keyboard.press('Tab');
    await expect.poll(() => focused(page).getAttribute('data-key')).toBe('accuracy');
    await page.keyboard.press('Escape');
    await page.context().close();
  });

  it('a 10-category criterion: 1 picks the first category at once, 0 the tenth', async () => {
    const { page } = await openApp(browser, host, { annotator: ME });
    await onCompare(page, 'p2');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect.poll(() => focused(page).getAttribute('data-key')).toBe('topic');
    await page.keyboard.press('1');
    // At once: no waiting for a second digit (the focus moved on to the next criterion).
    expect(await page.getByTestId('pending-digits').count()).toBe(0);
    await page.keyboard.press('Shift+Tab');
    await expect.poll(() => focused(page).getAttribute('data-key')).toBe('topic');
    expect(await focused(page).getAttribute('data-value')).toBe('arithmetic');
    await page.keyboard.press('0');
    expect(await page.getByTestId('pending-digits').count()).toBe(0);
    await page.keyboard.press('Shift+Tab');
    await expect.poll(() => focused(page).getAttribute('data-key')).toBe('topic');
    expect(await focused(page).getAttribute('data-value')).toBe('other');
    await page.keyboard.press('Escape');
    await page.context().close();
  });

  it('`a` with nothing to accept says why, in the status line', async () => {
    const { page } = await openApp(browser, host, { annotator: ME });
    await onCompare(page, 'p1');
    await page.keyboard.press('a');
    await expect.poll(() => page.getByTestId('status-text').innerText()).toMatch(/Nothing to accept \(a\): no model has scored this pair/);
    await page.context().close();
  });

  it('`b` asks before switching the whole project to assist', async () => {
    const { page } = await openApp(browser, host, { annotator: ME });
    await onCompare(page, 'p1');
    const mode = async () => (await host.api<{ settings: { prelabels: string } }>('getProject', { project: PAIRS })).settings.prelabels;
    expect(await mode()).toBe('blind');
    await page.keyboard.press('b');
    const confirm = page.getByTestId('prelabels-confirm');
    await confirm.waitFor();
    expect(await confirm.innerText()).toMatch(/every annotator|everyone/i);
    await page.keyboard.press('Escape');
    await expect.poll(() => confirm.count()).toBe(0);
    expect(await mode()).toBe('blind');
    await page.keyboard.press('b');
    await confirm.waitFor();
    await page.keyboard.press('Enter');
    await expect.poll(mode).toBe('assist');
    await expect.poll(() => page.getByTestId('prelabels').getAttribute('data-mode')).toBe('assist');
    // And back, the same way.
    await page.keyboard.press('b');
    await confirm.waitFor();
    await page.keyboard.press('Enter');
    await expect.poll(mode).toBe('blind');
    await page.context().close();
  });
});

describe('the rubric screen', () => {
  it('Ctrl+S saves with nothing focused', async () => {
    const { page } = await openApp(browser, host, { annotator: ME });
    await go(page, `#/p/${encodeURIComponent(PAIRS)}/rubrics`);
    await page.getByTestId('open-rubric').first().click();
    await expect.poll(() => page.getByTestId('rubric-name').inputValue()).toBe('facts');
    await page.getByTestId('criterion-card').nth(0).getByTestId('criterion-description-input').fill('Is the answer right, to the digit?');
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    expect(await page.evaluate(() => document.activeElement === document.body)).toBe(true);
    await page.keyboard.press('Control+s');
    await expect.poll(() => page.getByTestId('editor-message').innerText()).toMatch(/Saved as facts v2/);
    await page.context().close();
  });
});

describe('the header at 760 px', () => {
  it('keeps the project, progress, blind / assist and the annotator in view', async () => {
    for (const width of [760, 1280]) {
      const { page } = await openApp(browser, host, { annotator: ME, width, height: 800 });
      await onCompare(page, 'p1');
      for (const id of ['header-project', 'progress', 'prelabels', 'annotator']) {
        const box = await page.getByTestId(id).boundingBox();
        expect(box, `${id} at ${width} px`).not.toBeNull();
        expect(box!.width, `${id} at ${width} px`).toBeGreaterThan(8);
        expect(box!.x + box!.width, `${id} at ${width} px`).toBeLessThanOrEqual(width);
      }
      expect(await page.getByTestId('annotator').innerText()).toContain(ME);
      expect(await page.getByTestId('progress').innerText()).toMatch(/\d+\s*\/\s*\d+/);
      const header = await page.getByTestId('header').evaluate((h) => ({ scroll: h.scrollWidth, client: h.clientWidth }));
      expect(header.scroll).toBeLessThanOrEqual(header.client + 1);
      await page.context().close();
    }
  });
});

describe('words', () => {
  it('the verdict screen says "~1 token" and "Critique of the response" (not "1 tokens", "response response")', async () => {
    await host.api('importContent', { project: 'words', fileName: 'w.jsonl', content: JSON.stringify({ id: 'w1', prompt: 'Say yes.', responses: [{ text: 'Yes' }] }) + '\n', format: 'arbiter', createProject: true });
    const { page } = await openApp(browser, host, { annotator: ME });
    await go(page, '#/p/words/verdict');
    await page.getByTestId('verdict-screen').waitFor();
    await expect.poll(() => page.locator('main').innerText(), { timeout: 10_000 }).toMatch(/3 chars · ~1 token\b/);
    expect(await page.locator('main').innerText()).not.toMatch(/1 tokens/);
    expect(await page.locator('label[for="critique-response-text"]').textContent()).toBe('Critique of the response');
    await page.context().close();
  });
});

describe('the agreement dashboard', () => {
  it('reports a Likert criterion’s α at the ordinal level, with interval beside it', async () => {
    // The Krippendorff (2011) example's first units as two raters' accuracy ratings (1–5) on both responses.
    const itemIds = [ids.get('p1')!, ids.get('p2')!];
    const given: Record<string, number[][]> = { ann: [[1, 2], [3, 3]], bob: [[1, 2], [3, 4]] };
    for (const [annotator, byItem] of Object.entries(given))
      for (const [i, itemId] of itemIds.entries())
        await host.api('saveRatings', { project: PAIRS, annotator, itemId, rubric: 'facts', version: 1, ratings: { A: { accuracy: byItem[i]![0] }, B: { accuracy: byItem[i]![1] } } });
    const { page } = await openApp(browser, host, { annotator: ME });
    await go(page, `#/p/${encodeURIComponent(PAIRS)}/review/agreement`);
    const row = page.getByTestId('fields-table').locator('tr', { hasText: 'Rubric accuracy' });
    await expect.poll(() => row.count(), { timeout: 20_000 }).toBe(1);
    expect(await row.locator('td').nth(1).innerText()).toBe('ordinal');
    // Two items are fewer than a figure needs (10): both levels say so, the interval one still named beside.
    expect(await row.getByTestId('field-alpha').innerText()).toMatch(/^not enough data\s*not enough data\s*interval$/);
    await page.context().close();
  });
});

describe('the review queue', () => {
  it('calls votes B ×2 · A ×1 "B better", decided by majority', async () => {
    const itemId = ids.get('p2')!;
    for (const [annotator, choice] of [['ann', 'B'], ['bob', 'B'], ['cy', 'A']] as const)
      await host.api('saveLabel', { project: PAIRS, annotator, itemId, choice, strength: null, shownOrder: [0, 1] });
    const { page } = await openApp(browser, host, { annotator: ME });
    await go(page, `#/p/${encodeURIComponent(PAIRS)}/review`);
    const consensus = page.getByTestId('queue-consensus').first();
    await expect.poll(() => consensus.innerText(), { timeout: 20_000 }).toMatch(/B better\s*·\s*majority/);
    expect(await consensus.getAttribute('data-method')).toBe('majority');
    await page.context().close();
  });
});
