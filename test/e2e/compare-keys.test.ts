// The compare screen as a daily annotator uses it from the keyboard: a folded chat keeps the question
// being answered in view; Space / PageDown scroll long responses (both columns, or the one with the
// focus; never while typing); the screen says Left / Right and keeps A / B for source order; the
// header's count moves at the key; `c` on the start screen and "Choose file…" work from the keyboard.
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openApp, startHost, type Host } from './helpers';

const PROJECT = 'reading';
const ANNOTATOR = 'e2e-reader';
const paragraphs = (who: string, n: number) =>
  Array.from({ length: n }, (_, i) => `${who} paragraph ${i + 1}: the response keeps explaining, one careful sentence after another, so it runs long.`).join('\n\n');

const LAST_QUESTION = 'So which of the two plans is cheaper per month for me?';
const EARLIER = 'I compared two phone plans last week and wrote down every fee I could find.';
const SHORT_LAST = 'Shorter, one syllable?';
const ITEMS = [
  { id: 'long', prompt: 'Explain the trade-offs at length.', responses: [{ text: paragraphs('First', 60) }, { text: paragraphs('Second', 45) }] },
  {
    id: 'chat',
    prompt: [
      { role: 'system', content: 'You are a careful assistant who compares prices.' },
      { role: 'user', content: `${EARLIER}\n\n${paragraphs('Plan notes', 8)}` },
      { role: 'assistant', content: paragraphs('Earlier answer', 5) },
      { role: 'user', content: LAST_QUESTION },
    ],
    responses: [{ text: 'Plan A is cheaper: 20 a month against 25.' }, { text: 'Plan B, by a little.' }],
  },
  {
    // 3 turns, about 100 characters: short, but three role headings make it taller than the fold.
    id: 'short-chat',
    prompt: [
      { role: 'user', content: 'Suggest a name for a grey cat.' },
      { role: 'assistant', content: 'How about Smokey or Pebble?' },
      { role: 'user', content: SHORT_LAST },
    ],
    responses: [{ text: 'Ash.' }, { text: 'Mo.' }],
  },
  ...Array.from({ length: 6 }, (_, i) => ({ id: `pair-${i}`, prompt: `Short question ${i}?`, responses: [{ text: `Yes ${i}.` }, { text: `No ${i}.` }] })),
];

interface ItemView {
  id: number;
  shownOrder: number[];
}

let host: Host;
let browser: Browser;
const ids = new Map<string, number>();

beforeAll(async () => {
  host = await startHost();
  browser = await launchBrowser();
  await host.api('importContent', {
    project: PROJECT,
    fileName: 'reading.jsonl',
    content: ITEMS.map((l) => JSON.stringify(l)).join('\n') + '\n',
    format: 'arbiter',
    createProject: true,
  });
  const { rows } = await host.api<{ rows: { id: number; externalId: string | null }[] }>('listItems', { project: PROJECT, limit: 100 });
  for (const row of rows) ids.set(row.externalId!, row.id);
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

async function openItem(page: Page, external: string) {
  await page.evaluate(([p, id]) => (location.hash = `#/p/${encodeURIComponent(p)}/item/${id}`), [PROJECT, String(ids.get(external))] as const);
  await expect.poll(() => page.getByTestId('compare').getAttribute('data-item-id')).toBe(String(ids.get(external)));
  await page.getByTestId('response-body-left').waitFor();
}

/** Whether all of the element is shown: no box around it clips any of it, and none fades it out. */
function fullyShown(locator: Locator): Promise<boolean> {
  return locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    if (r.height === 0 || r.bottom > innerHeight || r.top < 0) return false;
    for (let box = el.parentElement; box; box = box.parentElement) {
      const style = getComputedStyle(box);
      if (style.maskImage && style.maskImage !== 'none') return false;
      if (style.overflowY !== 'visible') {
        const b = box.getBoundingClientRect();
        if (r.top < b.top - 1 || r.bottom > b.bottom + 1) return false;
      }
    }
    return true;
  });
}

const scrollTops = (page: Page) =>
  page.evaluate(() => ['left', 'right', 'responses'].map((s) => document.querySelector<HTMLElement>(`[data-testid="${s === 'responses' ? s : `response-body-${s}`}"]`)!.scrollTop));

describe('the prompt fold', () => {
  it('keeps the last user turn of a chat in view and folds the earlier turns', async () => {
    const { page, problems } = await openApp(browser, host, { annotator: ANNOTATOR });
    await openItem(page, 'chat');
    const prompt = page.getByTestId('prompt');
    expect(await fullyShown(prompt.getByText(LAST_QUESTION))).toBe(true);
    expect(await prompt.getAttribute('data-fold')).toBe('chat');
    expect(await page.getByTestId('prompt-fold').innerText()).toMatch(/Show the 3 earlier messages/);
    expect(await fullyShown(page.getByTestId('prompt-earlier').getByText(EARLIER))).toBe(false);
    // One quiet line stands for the earlier turns.
    expect(await page.getByTestId('prompt-earlier-folded').innerText()).toMatch(/3 earlier messages[\s\S]*careful assistant/);

    await page.keyboard.press('f');
    await expect.poll(() => page.getByTestId('prompt-fold').innerText()).toMatch(/Fold the earlier messages/);
    expect(await fullyShown(page.getByTestId('prompt-earlier').getByText(EARLIER))).toBe(true);
    await page.keyboard.press('f');
    await expect.poll(() => fullyShown(prompt.getByText(LAST_QUESTION))).toBe(true);

    // A short chat of three turns: the question is whole, never under the fold's fade.
    await openItem(page, 'short-chat');
    expect(await fullyShown(prompt.getByText(SHORT_LAST))).toBe(true);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});

describe('keyboard scrolling', () => {
  it('Space / PageDown scroll both columns a page; Shift+Space / PageUp come back', async () => {
    const { page, problems } = await openApp(browser, host, { annotator: ANNOTATOR, height: 800 });
    await openItem(page, 'long');
    expect(await scrollTops(page)).toEqual([0, 0, 0]);
    await page.keyboard.press('PageDown');
    await expect.poll(async () => (await scrollTops(page)).slice(0, 2).every((t) => t > 200)).toBe(true);
    await page.keyboard.press('Space');
    const [left, right] = await scrollTops(page);
    await expect.poll(async () => (await scrollTops(page))[0]).toBeGreaterThan(left! + 200);
    expect((await scrollTops(page))[1]).toBeGreaterThan(right! + 200);
    await page.keyboard.press('Shift+Space');
    await page.keyboard.press('PageUp');
    await expect.poll(async () => (await scrollTops(page)).slice(0, 2)).toEqual([0, 0]);
    // Still the same item: no page key labels or moves on.
    expect(await page.getByTestId('compare').getAttribute('data-item-id')).toBe(String(ids.get('long')));
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('scrolls only the column that has the focus; Esc gives the keys back to both', async () => {
    const { page } = await openApp(browser, host, { annotator: ANNOTATOR, height: 800 });
    await openItem(page, 'long');
    await page.getByTestId('response-body-right').click();
    await page.getByTestId('keys-here-right').waitFor();
    await page.keyboard.press('Space');
    await expect.poll(async () => (await scrollTops(page))[1]).toBeGreaterThan(200);
    expect((await scrollTops(page))[0]).toBe(0);
    await page.keyboard.press('Escape');
    await page.keyboard.press('PageDown');
    await expect.poll(async () => (await scrollTops(page))[0]).toBeGreaterThan(200);
    await page.context().close();
  });

  it('never scrolls while typing, and a clicked button does not take Space for itself', async () => {
    const { page } = await openApp(browser, host, { annotator: ANNOTATOR, height: 800 });
    await openItem(page, 'long');
    await page.keyboard.press('r');
    await page.keyboard.type('a b');
    await page.keyboard.press('PageDown');
    expect(await page.getByTestId('rationale').inputValue()).toBe('a b');
    expect(await scrollTops(page)).toEqual([0, 0, 0]);
    await page.keyboard.press('Escape');
    // After a click on "Prev", Space scrolls; it must not press "Prev" again.
    await page.getByTestId('next').click();
    await expect.poll(() => page.getByTestId('compare').getAttribute('data-item-id')).not.toBe(String(ids.get('long')));
    await page.getByTestId('prev').click();
    await expect.poll(() => page.getByTestId('compare').getAttribute('data-item-id')).toBe(String(ids.get('long')));
    await page.keyboard.press('Space');
    await expect.poll(async () => (await scrollTops(page))[0]).toBeGreaterThan(200);
    expect(await page.getByTestId('compare').getAttribute('data-item-id')).toBe(String(ids.get('long')));
    await page.context().close();
  });

  it('scrolls the other screens as a page when nothing has the focus', async () => {
    const { page } = await openApp(browser, host, { annotator: ANNOTATOR, height: 420 });
    await page.evaluate((p) => (location.hash = `#/p/${encodeURIComponent(p)}/models`), PROJECT);
    const screen = page.getByTestId('models');
    await screen.waitFor();
    await expect.poll(() => screen.evaluate((el) => el.scrollHeight > el.clientHeight + 40)).toBe(true);
    await page.keyboard.press('PageDown');
    await expect.poll(() => screen.evaluate((el) => el.scrollTop)).toBeGreaterThan(40);
    await page.keyboard.press('Shift+Space');
    await expect.poll(() => screen.evaluate((el) => el.scrollTop)).toBe(0);
    await page.context().close();
  });

  it('scrolls the stacked columns in a narrow window, and ? lists the page keys', async () => {
    const { page } = await openApp(browser, host, { annotator: ANNOTATOR, width: 900, height: 900 });
    await openItem(page, 'long');
    await page.keyboard.press('PageDown');
    await expect.poll(async () => (await scrollTops(page))[2]).toBeGreaterThan(200);
    await page.keyboard.press('?');
    const overlay = await page.getByTestId('shortcuts').innerText();
    expect(overlay).toMatch(/Space\s*\/\s*PageDown\s*Scroll the responses down a page/);
    expect(overlay).toMatch(/Shift\s*\+\s*Space\s*\/\s*PageUp\s*Scroll the responses up a page/);
    await page.context().close();
  });
});

describe('Left / Right on screen, A / B only for source order', () => {
  it('names the columns and the saved label by side, while the label stores the source letter', async () => {
    const { page, problems } = await openApp(browser, host, { annotator: ANNOTATOR });
    // An item this annotator sees swapped: its first response (A) on the right.
    let swapped: string | null = null;
    for (const external of ITEMS.map((i) => i.id).filter((i) => i.startsWith('pair-'))) {
      const view = await host.api<ItemView>('getItem', { project: PROJECT, annotator: ANNOTATOR, itemId: ids.get(external) });
      if (view.shownOrder[0] === 1) swapped = external;
    }
    expect(swapped, 'one of six items shows its first response on the right').not.toBeNull();
    await openItem(page, swapped!);
    for (const side of ['left', 'right'] as const) {
      const head = await page.getByTestId(`response-head-${side}`).innerText();
      expect(head).toContain(side === 'left' ? 'Left' : 'Right');
      expect(head, 'no source letter on a screen side').not.toMatch(/\b[AB]\b/);
      expect(await page.getByTestId(`response-${side}`).getAttribute('aria-label')).toBe(`${side === 'left' ? 'Left' : 'Right'} response`);
    }
    await page.keyboard.press('2');
    await expect.poll(() => page.getByTestId('status-text').innerText()).toMatch(/Right better — saved/);
    const history = await host.api<{ annotator: string; choice: string }[]>('labelHistory', { project: PROJECT, itemId: ids.get(swapped!) });
    expect(history.filter((h) => h.annotator === ANNOTATOR).at(-1)!.choice).toBe('A');

    await page.keyboard.press('?');
    expect(await page.getByTestId('shortcuts').innerText()).toMatch(/A and B always mean the file’s order \(A is its first response\)/);
    await page.keyboard.press('Escape');
    // The import preview names responses in the file's order.
    await page.keyboard.press('d');
    await page.getByTestId('import-file').setInputFiles({ name: 'x.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from('{"prompt":"p","chosen":"c","rejected":"r"}\n') });
    await expect.poll(() => page.getByTestId('import-preview').innerText()).toMatch(/Response A[\s\S]*Response B/i);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});

describe('the header count and the start screen', () => {
  it('counts a label at the key, before its save has answered', async () => {
    const { page } = await openApp(browser, host, { annotator: 'e2e-counter' });
    await page.evaluate((p) => (location.hash = `#/p/${encodeURIComponent(p)}`), PROJECT);
    await page.getByTestId('response-body-left').waitFor();
    await expect.poll(() => page.getByTestId('progress').innerText()).toMatch(/^0\s*\/\s*9 labeled/);
    let release: () => void = () => undefined;
    const held = new Promise<void>((done) => (release = done));
    await page.route('**/api/saveLabel', async (route) => {
      await held;
      await route.continue();
    });
    const first = await page.getByTestId('compare').getAttribute('data-item-id');
    await page.keyboard.press('1');
    await expect.poll(() => page.getByTestId('progress').innerText(), { timeout: 1000 }).toMatch(/^1\s*\/\s*9 labeled/);
    await expect.poll(() => page.getByTestId('compare').getAttribute('data-item-id')).not.toBe(first);
    await page.keyboard.press('2');
    await expect.poll(() => page.getByTestId('progress').innerText(), { timeout: 1000 }).toMatch(/^2\s*\/\s*9 labeled/);
    expect(await page.getByTestId('status-text').getAttribute('data-state')).toBe('saving');
    release();
    await expect.poll(() => page.getByTestId('status-text').getAttribute('data-state')).toBe('saved');
    // Once the saves have landed, the host's counters agree with what the header showed.
    await page.waitForTimeout(300);
    expect(await page.getByTestId('progress').innerText()).toMatch(/^2\s*\/\s*9 labeled/);
    expect((await host.api<{ labeledByMe: number }>('progress', { project: PROJECT, annotator: 'e2e-counter' })).labeledByMe).toBe(2);
    await page.context().close();
  });

  it('shows the prefetched next item in the same DOM update as the key\'s own changes (one render, not two)', async () => {
    // bench:loop (issue 20): the key's notice and count, then the next item, were two renders and two commits.
    const { page } = await openApp(browser, host, { annotator: 'e2e-one-pass' });
    const asked: { itemId?: number }[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/api/getCritiques')) asked.push(JSON.parse(r.postData() ?? '{}') as { itemId?: number });
    });
    // The prefetch: the item after the one on screen.
    const prefetched = page.waitForResponse((r) => r.url().endsWith('/api/nextItem') && (r.request().postData() ?? '').includes('afterSeq'));
    await page.evaluate((p) => (location.hash = `#/p/${encodeURIComponent(p)}`), PROJECT);
    await page.getByTestId('response-body-left').waitFor();
    await expect.poll(() => page.getByTestId('progress').innerText()).toMatch(/^0\s*\/\s*9 labeled/);
    await (await prefetched).finished();
    const first = await page.getByTestId('compare').getAttribute('data-item-id');
    // The page has taken the prefetch in once it asks for the next item's critiques (after `ready` is set):
    // the response having arrived is not enough on a busy machine, where the key could come before the page read it.
    await expect.poll(() => asked.some((body) => body.itemId !== undefined && String(body.itemId) !== first)).toBe(true);
    await page.evaluate(() => {
      const w = window as unknown as { __batches: boolean[] | null };
      const screen = document.querySelector('[data-testid="compare"]')!;
      const from = screen.getAttribute('data-item-id');
      addEventListener('keydown', () => (w.__batches = []), { capture: true, once: true });
      new MutationObserver(() => w.__batches?.push(screen.getAttribute('data-item-id') !== from)).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    });
    await page.keyboard.press('1');
    await expect.poll(() => page.getByTestId('compare').getAttribute('data-item-id')).not.toBe(first);
    // The first batch of DOM changes after the key already holds the next item.
    expect(await page.evaluate(() => (window as unknown as { __batches: boolean[] }).__batches[0])).toBe(true);
    await expect.poll(() => page.getByTestId('progress').innerText()).toMatch(/^1\s*\/\s*9 labeled/);
    await page.context().close();
  });

  it('c on the start screen puts the cursor in the new project box, and says so', async () => {
    const { page } = await openApp(browser, host, { annotator: ANNOTATOR });
    await page.getByTestId('project-row').first().waitFor();
    expect(await page.getByTestId('project-keys').innerText()).toMatch(/c\s+new project/);
    await page.keyboard.press('c');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('new-project-name');
    expect(await page.getByTestId('new-project-name').inputValue()).toBe('');
    await page.keyboard.type('cats');
    expect(await page.getByTestId('new-project-name').inputValue()).toBe('cats');
    await page.context().close();
  });

  it('opens "Choose file…" from the keyboard, with no invisible tab stop before it', async () => {
    const { page } = await openApp(browser, host, { annotator: ANNOTATOR });
    // Listening from the start: Playwright catches file dialogs only once someone listens for them.
    let opened = 0;
    page.on('filechooser', (chooser) => {
      opened++;
      void chooser.setFiles([]); // closed with nothing chosen, as Cancel would
    });
    await page.evaluate((p) => (location.hash = `#/p/${encodeURIComponent(p)}/datasets`), PROJECT);
    await page.getByTestId('import-panel').waitFor();
    const stops: string[] = [];
    for (let i = 0; i < 30 && stops.at(-1) !== 'import-choose'; i++) {
      await page.keyboard.press('Tab');
      stops.push((await page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName)) ?? '');
    }
    expect(stops).toContain('import-choose');
    expect(stops).not.toContain('import-file');
    await page.keyboard.press('Enter');
    await expect.poll(() => opened).toBe(1);
    await page.keyboard.press('Space');
    await expect.poll(() => opened).toBe(2);
    await page.context().close();
  });
});
