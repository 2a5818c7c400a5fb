// Model-assisted pre-labeling end to end, on a fresh database without the demo: add a model through
// the Models screen by its folder path (a folder without model.onnx is refused in words and adds
// nothing), score the project in the background and read which provider ran and why the others did
// not; then label in blind mode (nothing from the model before the choice, its verdict and agreement
// right after, prelabel_visible false) and in assist mode (the suggestion up front, accepted with `a`,
// saved in source order, prelabel_visible true).
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, createProjectViaUi, importViaUi, launchBrowser, openApp, startHost, writeJsonl, type Host } from './helpers';

const ANNOTATOR = 'e2e-models';
const PROJECT = 'e2e prelabels';
const MODEL_DIR = join(ROOT, 'resources', 'models', 'demo-outcome');
const PAIRS = [
  { prompt: 'What is 7 times 8?', chosen: '7 × 8 = 56.', rejected: '7 × 8 = 54, I think.' },
  { prompt: 'Name the largest planet.', chosen: 'Jupiter is the largest planet in the Solar System.', rejected: 'Saturn.' },
  { prompt: 'Translate "thank you" into German.', chosen: 'Danke (or "danke schön").', rejected: 'Merci.' },
  { prompt: 'Is 17 prime?', chosen: 'Yes: 17 has no divisors other than 1 and itself.', rejected: 'No, 17 = 3 × 6 − 1.' },
  { prompt: 'Give a synonym for "quick".', chosen: 'Fast, rapid or swift.', rejected: 'Slow.' },
  { prompt: 'What colour is the sky on a clear day?', chosen: 'Blue, because air scatters short wavelengths most.', rejected: 'Green.' },
];

interface Prelabels {
  models: { name: string; pAB: number | null; vote: 'A' | 'B' | 'tie' | null }[];
}
interface Revision {
  annotator: string;
  choice: string | null;
  body: { prelabel_visible?: boolean };
}
interface ItemView {
  id: number;
  shownOrder: number[];
}

let host: Host;
let browser: Browser;
let page: Page;
let problems: string[];

async function currentItemId(): Promise<number> {
  await expect.poll(() => page.getByTestId('compare').getAttribute('data-item-id')).toMatch(/^\d+$/);
  return Number(await page.getByTestId('compare').getAttribute('data-item-id'));
}

async function lastLabel(itemId: number): Promise<Revision> {
  const history = await host.api<Revision[]>('labelHistory', { project: PROJECT, itemId });
  return history.filter((h) => h.annotator === ANNOTATOR).at(-1)!;
}

async function waitSavedLabel(itemId: number): Promise<Revision> {
  await expect.poll(async () => (await host.api<Revision[]>('labelHistory', { project: PROJECT, itemId })).some((h) => h.annotator === ANNOTATOR), { timeout: 10_000 }).toBe(true);
  return lastLabel(itemId);
}

/** The screen side a source-order choice shows on for this annotator. */
function screenSide(choice: 'A' | 'B', order: number[]): 'left' | 'right' {
  return order.indexOf(choice === 'A' ? 0 : 1) === 0 ? 'left' : 'right';
}

beforeAll(async () => {
  host = await startHost();
  browser = await launchBrowser();
  ({ page, problems } = await openApp(browser, host, { annotator: ANNOTATOR }));
  await createProjectViaUi(page, PROJECT);
  await importViaUi(page, writeJsonl(host.home, 'pairs.jsonl', PAIRS));
  expect(await page.getByTestId('import-result').innerText()).toMatch(/Imported 6 new items/);
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

describe('models: add by folder, score, pre-labels', () => {
  it('refuses a folder without model.onnx in words, and adds nothing', async () => {
    await page.keyboard.press('m');
    await page.getByTestId('models').waitFor();
    await page.getByTestId('no-models').waitFor();
    // The browser host reads model folders only from `models` beside the database (issue 13, finding 14).
    const bad = join(host.home, 'models', 'not-a-model');
    mkdirSync(bad, { recursive: true });
    writeFileSync(join(bad, 'tokenizer.json'), '{}');
    const dir = page.getByTestId('model-dir');
    await dir.fill(bad);
    await dir.press('Enter');
    const error = page.getByTestId('model-error');
    await error.waitFor();
    const text = await error.innerText();
    expect(text).toContain('model.onnx');
    expect(text).not.toMatch(/\bat .*\(.*:\d+:\d+\)/); // no stack trace
    expect(await page.getByTestId('inspection').count()).toBe(0);
    expect(await page.getByTestId('add-model-button').count()).toBe(0);
    expect(await page.getByTestId('model-row').count()).toBe(0);
    expect(await host.api<unknown[]>('listModels', {})).toEqual([]);
  });

  it('inspects the demo outcome model, says what it found, and adds it', async () => {
    const dir = page.getByTestId('model-dir');
    cpSync(MODEL_DIR, join(host.home, 'models', 'demo-outcome'), { recursive: true });
    await dir.fill(join(host.home, 'models', 'demo-outcome'));
    await dir.press('Enter');
    const inspection = page.getByTestId('inspection');
    await inspection.waitFor();
    expect(await page.getByTestId('model-error').count()).toBe(0);
    expect(await page.getByTestId('inspection-kind').innerText()).toMatch(/outcome/);
    expect(await page.getByTestId('inspection-input').innerText()).toMatch(/text pair — from /);
    const inputs = await page.getByTestId('inspection-inputs').innerText();
    for (const name of ['input_ids', 'attention_mask']) expect(inputs).toContain(name);
    expect(await inspection.innerText()).toMatch(/Max length\s+512 tokens/);
    // Typing in the path box never triggers a shortcut (m, c, d are all letters of a path).
    expect(await page.getByTestId('models').count()).toBe(1);

    await page.getByTestId('add-model-button').click();
    await page.getByTestId('model-added').waitFor();
    await expect.poll(() => page.getByTestId('model-row').count()).toBe(1);
    expect(await page.getByTestId('model-row').innerText()).toMatch(/demo-outcome[\s\S]*outcome[\s\S]*text pair/);

    // The bad folder once more: still refused, the list stays as it was.
    await dir.fill(join(host.home, 'models', 'not-a-model'));
    await dir.press('Enter');
    await page.getByTestId('model-error').waitFor();
    expect(await page.getByTestId('model-row').count()).toBe(1);
    expect((await host.api<unknown[]>('listModels', {})).length).toBe(1);
  });

  it('lists the execution providers with the reason each is unavailable', async () => {
    await expect.poll(() => page.getByTestId('provider').count()).toBe(4);
    const cpu = page.locator('[data-testid="provider"][data-provider="cpu"]');
    expect(await cpu.getAttribute('data-available')).toBe('true');
    const providers = await host.api<{ name: string; available: boolean; reason: string }[]>('providers', {});
    for (const p of providers) {
      const row = page.locator(`[data-testid="provider"][data-provider="${p.name}"]`);
      expect(await row.getAttribute('data-available')).toBe(String(p.available));
      expect(await row.innerText()).toContain(p.reason);
    }
  });

  it('scores the project in the background: done, on cpu, with the skipped providers and why', async () => {
    await page.getByTestId('score-start').click();
    const job = page.locator('[data-testid="job"][data-state="done"]');
    await job.waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('job-summary').innerText()).toMatch(/Done[\s\S]*12 responses scored/);
    const run = page.getByTestId('job-model');
    expect(await run.count()).toBe(1);
    const used = (await page.getByTestId('job-model-provider').innerText()).trim();
    const providers = await host.api<{ name: string; available: boolean; reason: string }[]>('providers', {});
    const cuda = providers.find((p) => p.name === 'cuda')!;
    if (!cuda.available) {
      expect(used).toBe('cpu');
      const skipped = await page.getByTestId('job-skipped').innerText();
      expect(skipped).toContain(`cuda skipped: ${cuda.reason}`);
    }
    // The list now shows the scores and where the model last ran.
    await expect.poll(() => page.getByTestId('model-scores').innerText()).toBe('12');
    expect(await page.getByTestId('model-provider').innerText()).toContain(used);
    if (!cuda.available) expect(await page.getByTestId('model-provider').innerText()).toMatch(/skipped .*cuda/);
  });

  it('blind: shows nothing from the model before the choice, its verdict and agreement right after', async () => {
    await page.keyboard.press('c');
    await page.getByTestId('compare').waitFor();
    expect(await page.getByTestId('prelabels').getAttribute('data-mode')).toBe('blind');
    const itemId = await currentItemId();
    await page.getByTestId('response-body-left').waitFor();
    await page.waitForTimeout(600); // the pre-labels have arrived by now; they must stay hidden
    for (const id of ['prelabel-line', 'prelabel-reveal', 'accept-suggestion', 'steps-left', 'steps-right', 'model-vote', 'ensemble'])
      expect(await page.getByTestId(id).count(), id).toBe(0);
    expect(await page.getByTestId('compare').innerText()).not.toMatch(/demo-outcome|agrees|suggests|P 0\.\d\d/);

    const pre = await host.api<Prelabels>('prelabels', { project: PROJECT, itemId });
    const view = await host.api<ItemView>('getItem', { project: PROJECT, annotator: ANNOTATOR, itemId });
    expect(pre.models).toHaveLength(1);
    const vote = pre.models[0]!.vote!;

    await page.keyboard.press('1'); // left better
    const reveal = page.getByTestId('prelabel-reveal');
    await reveal.waitFor();
    const chosen = view.shownOrder[0] === 0 ? 'A' : 'B';
    const want = vote === 'tie' ? 'neutral' : vote === chosen ? 'agrees' : 'disagrees';
    const modelVote = reveal.getByTestId('model-vote');
    expect(await modelVote.getAttribute('data-agreement')).toBe(want);
    expect(await modelVote.getAttribute('data-vote')).toBe(vote === 'tie' ? 'tie' : screenSide(vote, view.shownOrder));
    expect(await reveal.innerText()).toMatch(new RegExp(`you chose Left better[\\s\\S]*demo-outcome[\\s\\S]*${want}`));
    // The next item's own pre-label is still hidden.
    expect(await page.getByTestId('prelabel-line').count()).toBe(0);

    const saved = await waitSavedLabel(itemId);
    expect(saved.choice).toBe(chosen);
    expect(saved.body.prelabel_visible).toBe(false);
  });

  it('blind: an item already labeled shows the verdict; labeling it again records that it was visible', async () => {
    await page.keyboard.press('ArrowLeft');
    await page.getByTestId('current-label').waitFor();
    const itemId = await currentItemId();
    await page.getByTestId('prelabel-line').waitFor();
    expect(await page.getByTestId('prelabel-line').innerText()).toMatch(/demo-outcome/);
    await page.keyboard.press('3'); // tie
    await expect.poll(async () => (await lastLabel(itemId)).choice).toBe('tie');
    expect((await lastLabel(itemId)).body.prelabel_visible).toBe(true);
  });

  it('assist: the suggestion is shown up front and `a` accepts it, saved in source order', async () => {
    await page.getByTestId('prelabels-assist').click();
    await page.getByTestId('prelabels-switch').click(); // the switch asks first: every annotator sees it
    await expect.poll(() => page.getByTestId('prelabels').getAttribute('data-mode')).toBe('assist');
    await expect.poll(async () => (await host.api<{ settings: { prelabels: string } }>('getProject', { project: PROJECT })).settings.prelabels).toBe('assist');

    // Labeling the previous item moved on to the next unlabeled one.
    const isUnlabeled = async () => {
      const id = await currentItemId();
      const v = await host.api<ItemView & { label: unknown }>('getItem', { project: PROJECT, annotator: ANNOTATOR, itemId: id });
      return v.label === null;
    };
    await expect.poll(isUnlabeled).toBe(true);
    const itemId = await currentItemId();
    const view = await host.api<ItemView>('getItem', { project: PROJECT, annotator: ANNOTATOR, itemId });

    const suggestion = page.getByTestId('accept-suggestion');
    await suggestion.waitFor();
    await page.getByTestId('prelabel-line').waitFor();
    const pre = await host.api<Prelabels>('prelabels', { project: PROJECT, itemId });
    const pAB = pre.models[0]!.pAB!;
    expect(pAB).not.toBe(0.5);
    const expected: 'A' | 'B' = pAB > 0.5 ? 'A' : 'B';
    expect(await suggestion.getAttribute('data-choice')).toBe(expected);
    const side = screenSide(expected, view.shownOrder);
    expect(await suggestion.getAttribute('data-screen')).toBe(side);
    expect(await suggestion.innerText()).toMatch(new RegExp(`Suggests[\\s\\S]*${side === 'left' ? 'Left' : 'Right'}[\\s\\S]*P 0\\.\\d\\d`));
    // P shown is P(the suggested side is better), so at least one half.
    const shownP = Number(/P (0\.\d\d|1\.00)/.exec(await suggestion.innerText())![1]);
    expect(shownP).toBeCloseTo(Math.max(pAB, 1 - pAB), 2);

    await page.keyboard.press('a');
    const saved = await waitSavedLabel(itemId);
    expect(saved.choice).toBe(expected);
    expect(saved.body.prelabel_visible).toBe(true);
    await expect.poll(() => page.getByTestId('status-text').innerText()).toMatch(new RegExp(`${side === 'left' ? 'Left' : 'Right'} better`));
  });

  it('lists the accept key in the shortcuts, and switches back to blind', async () => {
    await page.keyboard.press('?');
    const overlay = page.getByTestId('shortcuts');
    await overlay.waitFor();
    const text = await overlay.innerText();
    expect(text).toContain('Accept the model’s suggestion');
    expect(text).toContain('Models screen');
    await page.keyboard.press('Escape');
    await overlay.waitFor({ state: 'detached' });
    await page.getByTestId('prelabels-blind').click();
    await page.getByTestId('prelabels-switch').click(); // the switch asks first: every annotator sees it
    await expect.poll(() => page.getByTestId('prelabels').getAttribute('data-mode')).toBe('blind');
    await expect.poll(() => page.getByTestId('accept-suggestion').count()).toBe(0);
  });

  it('removes a model only after a confirmation', async () => {
    await page.keyboard.press('m');
    await page.getByTestId('model-row').waitFor();
    await page.getByTestId('remove-model').click();
    await page.getByTestId('remove-confirm').waitFor();
    expect(await page.getByTestId('remove-confirm').innerText()).toMatch(/Remove with its 12 scores\?/);
    expect((await host.api<unknown[]>('listModels', {})).length).toBe(1);
    await page.getByTestId('remove-yes').click();
    await expect.poll(() => page.getByTestId('model-row').count()).toBe(0);
    expect(await host.api<unknown[]>('listModels', {})).toEqual([]);
  });

  it('produced no page errors and no CSP violations', () => {
    expect(problems).toEqual([]);
  });
});
