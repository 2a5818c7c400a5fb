// Blind mode and undo, on the demo project (two scored demo models): the models' votes show only once
// the annotator has chosen, in Left / Right words; Ctrl+Z returns the item to its blind state (votes
// hidden again, the next label stored with prelabel_visible false); `b` switches blind / assist.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openApp, startHost, type Host } from './helpers';

const ANNOTATOR = 'e2e-blind';

interface Revision {
  annotator: string;
  choice: string | null;
  body: { prelabel_visible?: boolean; undo_of?: string };
}

let host: Host;
let browser: Browser;
let page: Page;
let problems: string[];
let project: string;
/** The item the first test labels. */
let labeled: number;

beforeAll(async () => {
  host = await startHost({ demo: true });
  browser = await launchBrowser();
  project = (await host.api<{ name: string }[]>('listProjects', {}))[0]!.name;
  ({ page, problems } = await openApp(browser, host, { annotator: ANNOTATOR }));
  await page.evaluate((p) => (location.hash = `#/p/${encodeURIComponent(p)}`), project);
  await page.getByTestId('response-body-left').waitFor();
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

async function itemId(): Promise<number> {
  await expect.poll(() => page.getByTestId('compare').getAttribute('data-item-id')).toMatch(/^\d+$/);
  return Number(await page.getByTestId('compare').getAttribute('data-item-id'));
}

async function mine(id: number): Promise<Revision[]> {
  return (await host.api<Revision[]>('labelHistory', { project, itemId: id })).filter((r) => r.annotator === ANNOTATOR);
}

/** Waits long enough for this item's pre-labels to have arrived, then says whether any vote is shown. */
async function votesShown(): Promise<number> {
  await page.waitForTimeout(700);
  return page.getByTestId('model-vote').count();
}

describe('blind mode and undo', () => {
  it('shows the votes only after the choice, in Left / Right words', async () => {
    expect(await page.getByTestId('prelabels').getAttribute('data-mode')).toBe('blind');
    labeled = await itemId();
    const pre = await host.api<{ models: unknown[] }>('prelabels', { project, itemId: labeled });
    expect(pre.models.length, 'the demo project comes scored').toBeGreaterThan(0);
    expect(await votesShown()).toBe(0);

    await page.keyboard.press('1');
    const reveal = page.getByTestId('prelabel-reveal');
    await reveal.waitFor();
    const words = await reveal.innerText();
    expect(words).toMatch(/you chose Left better/);
    expect(words).toMatch(/Left|Right/);
    expect(words, 'screen sides are never A / B').not.toMatch(/\b[AB]\b/);
    for (const vote of await reveal.getByTestId('model-vote').all()) expect(await vote.getAttribute('data-vote')).toMatch(/^(left|right|tie)$/);
  });

  it('Ctrl+Z returns the item to blind: votes hidden, and the next label is stored as made blind', async () => {
    // Back on the labeled item, its votes show (it has a label).
    await page.keyboard.press('ArrowLeft');
    await expect.poll(itemId).toBe(labeled);
    await page.getByTestId('current-label').waitFor();
    expect(await votesShown()).toBeGreaterThan(0);

    await page.keyboard.press('Control+z');
    await expect.poll(() => page.getByTestId('status-text').innerText()).toMatch(/Undid “Left better” — now unlabeled/);
    expect(await itemId()).toBe(labeled);
    expect(await page.getByTestId('current-label').count()).toBe(0);
    expect(await votesShown()).toBe(0);
    for (const id of ['prelabel-line', 'prelabel-reveal', 'steps-left', 'steps-right']) expect(await page.getByTestId(id).count(), id).toBe(0);

    await page.keyboard.press('2');
    await expect.poll(async () => (await mine(labeled)).at(-1)?.choice ?? null).toMatch(/^[AB]$/);
    const history = await mine(labeled);
    expect(history.at(-1)!.body.prelabel_visible).toBe(false);
    expect(history.some((r) => r.body.undo_of)).toBe(true);
  });

  it('undoing right after the choice (still on the next item) also hides the votes again', async () => {
    const id = await itemId();
    await page.keyboard.press('1');
    await expect.poll(itemId).not.toBe(id);
    await page.getByTestId('prelabel-reveal').waitFor();
    await page.keyboard.press('Control+z');
    await expect.poll(itemId).toBe(id);
    await expect.poll(() => page.getByTestId('status-text').innerText()).toMatch(/now unlabeled/);
    expect(await votesShown()).toBe(0);
    await page.keyboard.press('1');
    await expect.poll(async () => (await mine(id)).filter((r) => r.choice !== null).length).toBe(2);
    expect((await mine(id)).at(-1)!.body.prelabel_visible).toBe(false);
  });

  it('b switches the project between blind and assist, and the header shows the key', async () => {
    expect(await page.getByTestId('prelabels').innerText()).toMatch(/blind[\s\S]*assist[\s\S]*b/);
    await page.keyboard.press('b');
    await page.getByTestId('prelabels-switch').click(); // the switch asks first: every annotator sees it
    await expect.poll(() => page.getByTestId('prelabels').getAttribute('data-mode')).toBe('assist');
    await expect.poll(async () => (await host.api<{ settings: { prelabels: string } }>('getProject', { project })).settings.prelabels).toBe('assist');
    await page.getByTestId('accept-suggestion').waitFor();
    await page.keyboard.press('b');
    await page.getByTestId('prelabels-switch').click(); // the switch asks first: every annotator sees it
    await expect.poll(() => page.getByTestId('prelabels').getAttribute('data-mode')).toBe('blind');
    await expect.poll(() => page.getByTestId('accept-suggestion').count()).toBe(0);
    await expect.poll(async () => (await host.api<{ settings: { prelabels: string } }>('getProject', { project })).settings.prelabels).toBe('blind');
  });

  it('produced no page errors and no CSP violations', () => {
    expect(problems).toEqual([]);
  });
});
