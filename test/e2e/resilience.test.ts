// The loop under stress: a save that fails is loud, kept, retried and finally saved; the next item
// is prefetched before the choice; long prompts fold; the Electron-style bridge transport works.
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uuidv7 } from '../../shared/ids';
import { launchBrowser, openApp, refuseApi, restoreApi, startHost, type Host } from './helpers';

const PROJECT = 'resilience';
const ANNOTATOR = 'e2e-bob';
let host: Host;
let browser: Browser;

beforeAll(async () => {
  host = await startHost();
  browser = await launchBrowser();
  const lines = [
    { prompt: `Long prompt.\n\n${'This sentence makes the prompt long. '.repeat(80)}`, chosen: 'One.', rejected: 'Two.' },
    ...Array.from({ length: 4 }, (_, i) => ({ prompt: `Short prompt ${i}?`, chosen: `Yes ${i}.`, rejected: `No ${i}.` })),
  ];
  await host.api('importContent', {
    project: PROJECT,
    fileName: 'r.jsonl',
    content: lines.map((l) => JSON.stringify(l)).join('\n') + '\n',
    format: 'trl',
    createProject: true,
  });
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

async function itemNumber(page: Page): Promise<number> {
  return Number(/Item\s+(\d+)/.exec(await page.getByTestId('item-position').innerText())![1]);
}

async function openCompare(page: Page) {
  await page.evaluate((p) => (location.hash = `#/p/${encodeURIComponent(p)}`), PROJECT);
  await page.getByTestId('response-body-left').waitFor();
}

describe('labeling loop resilience', () => {
  it('folds a long prompt and unfolds it with f', async () => {
    const { page, problems } = await openApp(browser, host, { annotator: ANNOTATOR });
    await openCompare(page);
    expect(await itemNumber(page)).toBe(1);
    const fold = page.getByTestId('prompt-fold');
    await expect.poll(() => fold.innerText()).toMatch(/Show the whole prompt/);
    await page.keyboard.press('f');
    await expect.poll(() => fold.innerText()).toMatch(/Fold the prompt/);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('prefetches the next item while the annotator reads, so the choice shows it at once', async () => {
    const { page } = await openApp(browser, host, { annotator: ANNOTATOR });
    const calls: { name: string; body: string; at: number }[] = [];
    page.on('request', (r: Request) => {
      const m = /\/api\/(\w+)$/.exec(r.url());
      if (m) calls.push({ name: m[1]!, body: r.postData() ?? '', at: Date.now() });
    });
    await openCompare(page);
    await expect.poll(() => calls.some((c) => c.name === 'nextItem' && /"afterSeq":0/.test(c.body))).toBe(true);
    const before = calls.length;
    await page.keyboard.press('1');
    await expect.poll(() => itemNumber(page)).toBe(2);
    // The item on screen came from the prefetch: no nextItem for it was needed after the key.
    expect(calls.slice(before).filter((c) => c.name === 'nextItem' && /"afterSeq":0/.test(c.body))).toEqual([]);
    await page.context().close();
  });

  it('a failed save is loud, kept on the machine, retried, and then saved', async () => {
    const { page } = await openApp(browser, host, { annotator: ANNOTATOR });
    await openCompare(page);
    expect(await itemNumber(page)).toBe(2);
    await refuseApi(page, 'saveLabel');
    await page.keyboard.press('2');
    // The loop does not wait for the host: the next item is there.
    await expect.poll(() => itemNumber(page)).toBe(3);
    const status = page.getByTestId('status-text');
    await expect.poll(() => status.getAttribute('data-state')).toBe('failed');
    expect(await status.innerText()).toMatch(/Right better — NOT SAVED, retrying/);
    await page.getByTestId('unsaved-banner').waitFor();
    const pending = await page.evaluate(() => JSON.parse(localStorage.getItem('arbiter.pendingJudgements') ?? '[]') as unknown[]);
    expect(pending).toHaveLength(1);

    await restoreApi(page);
    await page.getByTestId('unsaved-banner').getByRole('button', { name: 'Retry now' }).click();
    await expect.poll(() => status.getAttribute('data-state'), { timeout: 20_000 }).toBe('saved');
    await page.getByTestId('unsaved-banner').waitFor({ state: 'detached' });
    expect(await page.evaluate(() => localStorage.getItem('arbiter.pendingJudgements'))).toBeNull();

    const rows = await host.api<{ rows: { seq: number; myChoice: string | null }[] }>('listItems', { project: PROJECT, annotator: ANNOTATOR });
    expect(rows.rows.find((r) => r.seq === 1)!.myChoice).toMatch(/^[AB]$/);
    await page.context().close();
  });

  it('carries a label an older page left under its own key into the shared outbox, then sends and counts it', async () => {
    const annotator = 'e2e-upgrade';
    const { page, problems } = await openApp(browser, host, { annotator });
    const rows = await host.api<{ rows: { id: number; seq: number }[] }>('listItems', { project: PROJECT, annotator });
    const itemId = rows.rows.find((r) => r.seq === 3)!.id;
    const revision = uuidv7();
    // As the Compare screen before the shared outbox kept it: { key, input, words, itemNumber } under its own key.
    const old = { key: 'before-the-upgrade', words: 'Left better', itemNumber: 4, input: { project: PROJECT, annotator, itemId, id: revision, choice: 'A', strength: 2, shownOrder: [0, 1] } };
    await page.evaluate((entry) => localStorage.setItem('arbiter.pendingSaves', JSON.stringify([entry])), old);
    const progress = page.getByTestId('progress');
    await openCompare(page);
    // Sent: the host holds the revision, under the id it was saved with.
    const mine = async () => (await host.api<{ id: string; annotator: string; choice: string }[]>('labelHistory', { project: PROJECT, itemId })).filter((r) => r.annotator === annotator);
    await expect.poll(async () => (await mine()).map((r) => [r.id, r.choice]), { timeout: 10_000 }).toEqual([[revision, 'A']]);
    // Counted: the header says one item of five is labeled by this annotator.
    await expect.poll(() => progress.getAttribute('title'), { timeout: 10_000 }).toMatch(/^1 of 5 items labeled/);
    // And kept nowhere any more: neither the old key nor the shared outbox holds it.
    expect(await page.evaluate(() => [localStorage.getItem('arbiter.pendingSaves'), localStorage.getItem('arbiter.pendingJudgements')])).toEqual([null, null]);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('says "slightly" with s (armed on the control) and with Alt', async () => {
    const { page } = await openApp(browser, host, { annotator: ANNOTATOR });
    await openCompare(page);
    const start = await itemNumber(page);
    await page.keyboard.press('s');
    expect(await page.getByTestId('slight-toggle').getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByTestId('choice-left').innerText()).toMatch(/Left slightly better/);
    await page.keyboard.press('1');
    await expect.poll(() => itemNumber(page)).not.toBe(start);
    const status = page.getByTestId('status-text');
    await expect.poll(() => status.innerText()).toMatch(/Left slightly better — saved/);
    expect(await page.getByTestId('slight-toggle').getAttribute('aria-pressed')).toBe('false');
    await page.keyboard.press('Alt+2');
    await expect.poll(() => status.innerText()).toMatch(/Right slightly better — saved/);
    await page.context().close();
  });

  it('uses the Electron bridge (window.arbiter) when it exists', async () => {
    const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
    const calls: string[] = [];
    await context.exposeFunction('__bridgeCall', (name: string) => void calls.push(name));
    await context.addInitScript(
      ([origin, token, annotator]) => {
        localStorage.setItem('arbiter.annotator', annotator);
        (window as unknown as { arbiter: unknown }).arbiter = {
          invoke: async (name: string, input: unknown) => {
            (window as unknown as { __bridgeCall(n: string): void }).__bridgeCall(name);
            const res = await fetch(`${origin}/api/${name}`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'x-arbiter-token': token },
              body: JSON.stringify(input),
            });
            return res.json();
          },
        };
      },
      [host.origin, host.token, 'e2e-ipc'] as const,
    );
    const page = await context.newPage();
    // No token in the URL: only the bridge can reach the API.
    await page.goto(`${host.origin}/#/p/${encodeURIComponent(PROJECT)}`);
    await page.getByTestId('response-body-left').waitFor();
    expect(calls).toContain('appInfo');
    expect(calls).toContain('nextItem');
    await context.close();
  });
});
