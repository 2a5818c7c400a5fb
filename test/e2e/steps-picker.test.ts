// The step screen as a new user meets it (issue 20): money in a GSM8K-style step stays money ("$0.75"),
// not KaTeX; the correction box opens with the step selected, so typing replaces it; and the agent tag
// picker with 26 tags narrows as letters are typed, keeps its highlighted row in view, and stays on
// screen above the key bar with its severity prompt, in a short window, on the last turn. With
// ARBITER_SHOTS=1 it writes docs/screenshots/steps-tag-filter-{light,dark}.png and steps-money-{light,dark}.png.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ERROR_TAGS } from '../../shared/domain';
import { TAG_PRESETS } from '../../shared/stepJudgement';
import { join } from 'node:path';
import { launchBrowser, openApp, ROOT, startHost, type Host } from './helpers';

const ANNOTATOR = 'e2e-picker';
const PROJECT = 'picker';
const TAGS = [...new Set([...DEFAULT_ERROR_TAGS, ...TAG_PRESETS[0]!.tags, ...TAG_PRESETS[1]!.tags])];
const MONEY = ['Step 1: Each friend pays $0.75 ÷ 3 = $0.25.', 'Step 2: The area is $x^2$ square feet.', 'Step 3: The answer is $0.25.'];
const call = (id: string, name: string, args: object) => ({ id, type: 'function', function: { name, arguments: JSON.stringify(args) } });
const TURNS = Array.from({ length: 5 }, (_, i) => [
  { role: 'assistant', content: `Look at file ${i}.`, tool_calls: [call(`c${i}`, 'read_file', { path: `src/f${i}.py` })] },
  { role: 'tool', tool_call_id: `c${i}`, name: 'read_file', content: Array.from({ length: 14 }, (_, n) => `line ${n + 1} of f${i}`).join('\n') },
]).flat();
const AGENT = { id: 'agent', messages: [{ role: 'user', content: 'Read the files.' }, ...TURNS, { role: 'assistant', content: 'Done.' }] };

let host: Host;
let browser: Browser;
const ids = new Map<string, number>();

beforeAll(async () => {
  host = await startHost();
  browser = await launchBrowser();
  await host.api('importContent', { project: PROJECT, fileName: 'money.jsonl', content: JSON.stringify({ id: 'money', prompt: 'Three friends share $0.75.', responses: [{ text: MONEY.join('\n') }] }) + '\n', format: 'arbiter', createProject: true });
  await host.api('importContent', { project: PROJECT, fileName: 'agent.jsonl', content: JSON.stringify(AGENT) + '\n', format: 'openai-tools' });
  await host.api('updateProjectSettings', { project: PROJECT, settings: { errorTags: TAGS } });
  const { rows } = await host.api<{ rows: { id: number; externalId: string | null }[] }>('listItems', { project: PROJECT, limit: 10 });
  for (const row of rows) ids.set(row.externalId ?? 'agent', row.id);
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

async function onSteps(page: Page, external: string) {
  await page.evaluate(([p, id]) => (location.hash = `#/p/${encodeURIComponent(p)}/steps/item/${id}`), [PROJECT, String(ids.get(external))] as const);
  await expect.poll(() => page.getByTestId('steps-screen').getAttribute('data-item-id')).toBe(String(ids.get(external)));
  await page.getByTestId('step-list').waitFor();
}

type Box = { top: number; bottom: number };
const rect = (page: Page, testid: string): Promise<Box> => page.getByTestId(testid).evaluate((el) => ({ top: el.getBoundingClientRect().top, bottom: el.getBoundingClientRect().bottom }));

describe('a chain with money in it', () => {
  it('shows the dollars of amounts as text, and real math as math', async () => {
    const { page, problems } = await openApp(browser, host, { annotator: ANNOTATOR });
    await onSteps(page, 'money');
    const step = (i: number) => page.locator(`[data-testid="step"][data-index="${i}"]`);
    expect(await step(0).innerText()).toContain('$0.75 ÷ 3 = $0.25');
    expect(await step(0).locator('.katex').count()).toBe(0);
    expect(await step(2).innerText()).toContain('$0.25');
    expect(await step(1).locator('.katex').count()).toBe(1);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('opens the correction box with the step selected: typing replaces it, an arrow keeps it', async () => {
    const { page } = await openApp(browser, host, { annotator: ANNOTATOR });
    await onSteps(page, 'money');
    await page.keyboard.press('c');
    const box = page.getByTestId('correction-input');
    await box.waitFor();
    expect(await box.inputValue()).toBe(MONEY[0]);
    expect(await box.evaluate((el: HTMLTextAreaElement) => [el.selectionStart, el.selectionEnd])).toEqual([0, MONEY[0]!.length]);
    await page.keyboard.type('Step 1: Each friend pays 25 cents.');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('correction-input').count()).toBe(0);
    await expect.poll(() => page.locator('[data-testid="step"][data-index="0"]').getByTestId('step-correction').innerText()).toMatch(/CORRECTED\s+Step 1: Each friend pays 25 cents\.$/);

    // An arrow first keeps the text and edits it where the caret goes.
    await page.keyboard.press('j');
    await page.keyboard.press('c');
    await box.waitFor();
    await page.keyboard.press('End');
    await page.keyboard.type(' (in square feet)');
    expect(await box.inputValue()).toBe(`${MONEY[1]} (in square feet)`);
    await page.keyboard.press('Escape');
    await page.context().close();
  });
});

describe('the tag picker with 26 agent tags', () => {
  it('narrows as letters are typed, keeps the highlighted row in view, and stays on screen with its severity prompt', async () => {
    const { page, problems } = await openApp(browser, host, { annotator: ANNOTATOR, height: 540 });
    await onSteps(page, 'agent');
    await page.keyboard.press('End');
    await page.keyboard.press('t');
    const picker = page.getByTestId('tag-picker');
    await picker.waitFor();
    const options = picker.getByTestId('tag-option');
    expect(await options.count()).toBe(TAGS.length);
    expect(TAGS.length).toBeGreaterThanOrEqual(26);

    // The whole menu on screen, above the key bar.
    const keybar = await rect(page, 'steps-keybar');
    await expect.poll(async () => (await rect(page, 'tag-picker')).bottom).toBeLessThanOrEqual(keybar.top + 1);
    expect((await rect(page, 'tag-picker')).top).toBeGreaterThanOrEqual(0);

    // The arrows move the highlight, and the list scrolls to keep it in view.
    for (let n = 0; n < 22; n++) await page.keyboard.press('ArrowDown');
    const list = await picker.locator('ul').evaluate((el) => ({ top: el.getBoundingClientRect().top, bottom: el.getBoundingClientRect().bottom }));
    const row = await options.nth(22).evaluate((el) => ({ top: el.getBoundingClientRect().top, bottom: el.getBoundingClientRect().bottom }));
    expect(row.top).toBeGreaterThanOrEqual(list.top - 1);
    expect(row.bottom).toBeLessThanOrEqual(list.bottom + 1);

    // Typing narrows: "wro" leaves the four "wrong" tags, "ng ar" the one; Backspace widens again.
    await page.keyboard.type('wro');
    await expect.poll(() => options.allInnerTexts()).toEqual(TAGS.filter((t) => t.includes('wro')).map((t) => expect.stringContaining(t)));
    expect(await picker.getByTestId('tag-filter').innerText()).toContain('wro');
    await page.keyboard.type('ng ar');
    await expect.poll(() => options.count()).toBe(1);
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    await expect.poll(() => options.count()).toBe(TAGS.filter((t) => t.includes('wrong ')).length);
    await page.keyboard.type('ar');
    await expect.poll(() => options.count()).toBe(1);

    // Enter picks the highlighted one; the severity prompt shows on screen, above the key bar.
    await page.keyboard.press('Enter');
    await expect.poll(() => picker.locator('[data-tag="wrong arguments"]').getAttribute('data-on')).toBe('true');
    const prompt = page.getByTestId('severity-prompt');
    await prompt.waitFor();
    await expect.poll(async () => (await rect(page, 'severity-prompt')).bottom).toBeLessThanOrEqual(keybar.top + 1);
    await page.keyboard.press('2');
    await expect.poll(() => picker.count()).toBe(0);
    const last = page.locator('[data-testid="step"][data-current="true"]');
    expect(await last.getByTestId('step-tag').innerText()).toContain('wrong arguments');
    expect(await last.getByTestId('step-severity').getAttribute('data-severity')).toBe('major');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it.runIf(process.env.ARBITER_SHOTS === '1')('screenshots: the filtered picker, a chain with money, light and dark', async () => {
    for (const theme of ['light', 'dark'] as const) {
      const { page } = await openApp(browser, host, { annotator: `${ANNOTATOR}-${theme}`, height: 620, theme });
      await onSteps(page, 'agent');
      await page.keyboard.press('End');
      await page.keyboard.press('t');
      await page.getByTestId('tag-picker').waitFor();
      await page.keyboard.type('wro');
      await expect.poll(() => page.getByTestId('tag-option').count()).toBe(4);
      await page.keyboard.press('ArrowDown');
      await page.screenshot({ path: join(ROOT, 'docs', 'screenshots', `steps-tag-filter-${theme}.png`) });
      await page.keyboard.press('Escape');
      await page.keyboard.press('Escape');
      await onSteps(page, 'money');
      await page.keyboard.press('c');
      await page.getByTestId('correction-input').waitFor();
      await page.screenshot({ path: join(ROOT, 'docs', 'screenshots', `steps-money-${theme}.png`) });
      await page.keyboard.press('Escape');
      await page.context().close();
    }
  });
});
