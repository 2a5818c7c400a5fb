// The pairwise loop end to end: create a project, import a TRL file through the file picker, label
// three pairs from the keyboard (one undone with Ctrl+Z, one "much better" with Shift, one with a
// rationale typed after pressing R), export TRL through the UI, download it as the browser does and
// check the file line by line against what the page showed on each side.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProjectViaUi, launchBrowser, openApp, startHost, writeJsonl, type Host } from './helpers';

const ANNOTATOR = 'e2e-alice';
const PROJECT = 'e2e pairs';
const PAIRS = [
  { prompt: 'What is the capital of France?', chosen: 'Paris is the capital of France.', rejected: 'Lyon is the capital of France.' },
  { prompt: 'Add 2 and 3.', chosen: '2 + 3 = 5', rejected: '2 + 3 = 6, since addition carries.' },
  { prompt: 'Name a primary colour.', chosen: 'Red is a primary colour.', rejected: 'Green, in paint mixing.' },
  { prompt: 'Is water wet?', chosen: 'Water makes things wet; whether it is wet itself is a matter of definition.', rejected: 'No.' },
  { prompt: 'Say hello in Spanish.', chosen: 'Hola.', rejected: 'Bonjour.' },
];

interface Shown {
  prompt: string;
  left: string;
  right: string;
}

let host: Host;
let browser: Browser;
let page: Page;
let problems: string[];
/** What each item looked like on screen, by prompt, and which text was chosen over which. */
const expected = new Map<string, { chosen: string; rejected: string }>();

/** The responses as the page shows them: the rendered text of each column. */
async function shown(): Promise<Shown> {
  const prompt = (await page.getByTestId('prompt-body').innerText()).trim();
  const left = (await page.getByTestId('response-body-left').innerText()).trim();
  const right = (await page.getByTestId('response-body-right').innerText()).trim();
  return { prompt, left, right };
}

/** The source record (from the file) whose texts the page showed. */
function sourceOf(screen: Shown) {
  const pair = PAIRS.find((p) => p.prompt === screen.prompt);
  if (!pair) throw new Error(`No pair has the prompt the page showed: ${screen.prompt}`);
  expect([screen.left, screen.right].sort()).toEqual([pair.chosen, pair.rejected].sort());
  return pair;
}

async function itemNumber(): Promise<number> {
  const text = await page.getByTestId('item-position').innerText();
  return Number(/Item\s+(\d+)/.exec(text)![1]);
}

async function waitForItem(n: number) {
  await expect.poll(itemNumber, { timeout: 10_000 }).toBe(n);
}

async function waitSaved(text: RegExp) {
  const status = page.getByTestId('status-text');
  await expect.poll(async () => `${await status.getAttribute('data-state')} ${await status.innerText()}`, { timeout: 10_000 }).toMatch(
    new RegExp(`^saved .*${text.source}`),
  );
}

beforeAll(async () => {
  host = await startHost();
  browser = await launchBrowser();
  ({ page, problems } = await openApp(browser, host));
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

describe('pairwise labeling through the UI', () => {
  it('sets the annotator and creates a project from the start screen', async () => {
    const name = page.getByTestId('annotator-input');
    await name.fill(ANNOTATOR);
    await name.press('Enter');
    await expect.poll(() => page.getByTestId('annotator').innerText()).toContain(ANNOTATOR);
    await createProjectViaUi(page, PROJECT);
    expect(await page.evaluate(() => localStorage.getItem('arbiter.annotator'))).toBe(ANNOTATOR);
  });

  it('imports a TRL file through the file picker, with the format detected and a preview', async () => {
    const file = writeJsonl(host.home, 'pairs.trl.jsonl', PAIRS);
    await page.getByTestId('import-file').setInputFiles(file);
    await expect.poll(() => page.getByTestId('import-detected').innerText()).toMatch(/Detected .*\(trl\)/);
    expect((await page.getByTestId('import-reason').innerText()).length).toBeGreaterThan(3);
    await expect.poll(() => page.getByTestId('import-preview').innerText()).toContain(PAIRS[0]!.prompt);
    await page.getByTestId('import-button').click();
    await page.getByTestId('import-result').waitFor();
    expect(await page.getByTestId('import-result').innerText()).toMatch(/Imported 5 new items/);
    // The items table lists them, with the file's own preference shown as "source".
    await expect.poll(() => page.getByTestId('item-row').count()).toBe(5);
    expect(await page.getByTestId('items-table').innerText()).toMatch(/source/i);
    expect(await page.getByTestId('item-source').first().innerText()).toMatch(/^[AB]$/);
    // Source labels are not anyone's progress.
    await expect.poll(() => page.getByTestId('progress').innerText()).toMatch(/0\s*\/\s*5 labeled/);
  });

  it('labels from the keyboard: undo, Shift for much better, R for a rationale', async () => {
    await page.keyboard.press('c');
    await page.getByTestId('compare').waitFor();
    await waitForItem(1);
    expect(await page.getByTestId('header').innerText()).toMatch(/blind/);

    // Item 1: "1" (left better), then Ctrl+Z takes it back and returns to item 1, then "2".
    let screen = await shown();
    sourceOf(screen);
    await page.keyboard.press('1');
    await waitForItem(2);
    await waitSaved(/Left better/);
    await page.keyboard.press('Control+z');
    await waitForItem(1);
    await expect.poll(() => page.getByTestId('status-text').innerText()).toMatch(/Undid “Left better” — now unlabeled/);
    screen = await shown();
    expect(await page.getByTestId('current-label').count()).toBe(0);
    await page.keyboard.press('2');
    expected.set(screen.prompt, { chosen: screen.right, rejected: screen.left });
    await waitForItem(2);
    await waitSaved(/Right better/);

    // Item 2: R focuses the rationale box; typed keys (1, 2, s, r…) do not label; Esc gives the keys back.
    screen = await shown();
    await page.keyboard.press('r');
    const box = page.getByTestId('rationale');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('rationale');
    const rationale = 'Left is correct: 2 + 3 is 5, and it says so in 1 line.';
    await page.keyboard.type(rationale);
    expect(await box.inputValue()).toBe(rationale);
    expect(await itemNumber()).toBe(2);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? null)).not.toBe('rationale');
    await page.keyboard.press('Shift+1');
    expected.set(screen.prompt, { chosen: screen.left, rejected: screen.right });
    await waitForItem(3);
    await waitSaved(/Left much better/);
    expect(await box.inputValue()).toBe('');

    // Item 3: plain 2.
    screen = await shown();
    await page.keyboard.press('2');
    expected.set(screen.prompt, { chosen: screen.right, rejected: screen.left });
    await waitForItem(4);
    await waitSaved(/Right better/);
    await expect.poll(() => page.getByTestId('progress').innerText()).toMatch(/3\s*\/\s*5 labeled/);

    // What was stored: source order, strength, rationale, time on the item.
    const items = await host.api<{ rows: { id: number; seq: number }[] }>('listItems', { project: PROJECT });
    const second = items.rows.find((r) => r.seq === 1)!;
    const history = await host.api<{ annotator: string; strength: number; body: { rationale?: string; time_ms?: number } }[]>('labelHistory', {
      project: PROJECT,
      itemId: second.id,
    });
    const mine = history.filter((h) => h.annotator === ANNOTATOR);
    expect(mine.at(-1)!.strength).toBe(3);
    expect(mine.at(-1)!.body.rationale).toBe(rationale);
    expect(mine.at(-1)!.body.time_ms).toBeGreaterThan(0);
  });

  it('going back shows the current choice and, only then, what the file said', async () => {
    await page.keyboard.press('ArrowLeft');
    await waitForItem(3);
    await expect.poll(() => page.getByTestId('current-label').innerText()).toMatch(/Right better/);
    expect(await page.getByTestId('choice-right').getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByTestId('source-label').innerText()).toMatch(/file says: (Left|Right) better/);
    // A rationale added after the label was saved is saved on its own when the box is left.
    await page.keyboard.press('r');
    await page.keyboard.type('Added later.');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('status-text').innerText()).toMatch(/Rationale — saved/);
    const rows = await host.api<{ rows: { id: number; seq: number }[] }>('listItems', { project: PROJECT });
    const history = await host.api<{ annotator: string; choice: string; body: { rationale?: string } }[]>('labelHistory', {
      project: PROJECT,
      itemId: rows.rows.find((r) => r.seq === 2)!.id,
    });
    const last = history.filter((h) => h.annotator === ANNOTATOR).at(-1)!;
    expect(last.body.rationale).toBe('Added later.');
    expect(last.choice).toMatch(/^[AB]$/);
    await page.keyboard.press('ArrowRight');
    await waitForItem(4);
    // Unlabeled: the file's preference stays hidden so it cannot anchor the choice.
    expect(await page.getByTestId('source-label').count()).toBe(0);
  });

  it('shows every shortcut with ?', async () => {
    await page.keyboard.press('?');
    const overlay = page.getByTestId('shortcuts');
    await overlay.waitFor();
    const text = await overlay.innerText();
    for (const want of ['Left is better', 'Right is better', 'Tie', 'Both bad', 'much better', 'slightly', 'rationale', 'Undo', 'Next item', 'Previous item'])
      expect(text).toContain(want);
    await page.keyboard.press('Escape');
    await overlay.waitFor({ state: 'detached' });
    expect(await itemNumber()).toBe(4);
  });

  it('exports TRL through the UI; every line matches what was chosen on screen', async () => {
    await page.keyboard.press('d');
    await page.getByTestId('export-panel').waitFor();
    await page.getByTestId('export-format').selectOption('trl');
    await expect.poll(() => page.getByTestId('export-annotator').locator('option').allInnerTexts()).toContain(`${ANNOTATOR} only`);
    await page.getByTestId('export-annotator').selectOption(ANNOTATOR);
    // The browser host hands the file over as a download started by the page (a one-time ticket).
    const downloading = page.waitForEvent('download');
    await page.getByTestId('export-button').click();
    await page.getByTestId('export-summary').waitFor();
    expect(await page.getByTestId('export-written').innerText()).toMatch(/Wrote 3 records/);
    expect(await page.getByTestId('export-skipped').innerText()).toMatch(/2 unlabeled/);
    const download = await downloading;
    const name = download.suggestedFilename();
    expect(name).toMatch(/^e2e-pairs-trl-[\w-]+\.jsonl$/);
    // The page shows the file's name, never a path; the link carries a ticket, never the token.
    expect((await page.getByTestId('export-file').innerText()).trim()).toBe(name);
    expect(download.url()).toMatch(/\/download\/[\w-]+$/);
    expect(download.url()).not.toContain(host.token);

    const text = readFileSync((await download.path())!, 'utf8');
    expect(text).toBe(readFileSync(join(host.home, 'exports', name), 'utf8'));
    const lines = text.split('\n').filter((l) => l.trim());
    expect(lines).toHaveLength(3);
    const seen = new Set<string>();
    for (const line of lines) {
      const record = JSON.parse(line) as { prompt: string; chosen: string; rejected: string };
      const want = expected.get(record.prompt);
      expect(want, `exported prompt ${record.prompt} was labeled on screen`).toBeDefined();
      expect(record.chosen).toBe(want!.chosen);
      expect(record.rejected).toBe(want!.rejected);
      seen.add(record.prompt);
    }
    expect(seen.size).toBe(3);

    // A ticket works once; "Download again" asks for a new one.
    expect((await fetch(download.url())).status).toBe(404);
    const again = page.waitForEvent('download');
    await page.getByTestId('export-download').click();
    expect(readFileSync((await (await again).path())!, 'utf8')).toBe(text);
  });

  it('produced no page errors and no CSP violations', () => {
    expect(problems).toEqual([]);
  });
});
