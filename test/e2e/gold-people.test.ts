// Gold for people end to end (issue 23 §1): a file's own preferences marked gold; the lead sets the pairs'
// honeypot rate, qualification set, pass mark and bar on the Datasets screen; an annotator who misses the
// qualification is told so on Compare and held there; the lead's dashboard shows each annotator's accuracy
// against gold with its interval and n, flags the one under the bar with the gold items missed (each opens
// the item with every label), and lets them retry, after which their queue serves the set again.
// Screenshots of both screens in light and dark go to /tmp/arbiter-gold-*.png.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openApp, startHost, type Host } from './helpers';

const PROJECT = 'e2e gold';
const LEAD = 'e2e-lead';
const ALICE = 'e2e-alice';
const BOB = 'e2e-bob';
const PAIRS = Array.from({ length: 10 }, (_, i) => ({ prompt: `Question ${i}?`, chosen: `A careful answer to ${i}.`, rejected: `A careless answer ${i}.` }));

interface View {
  id: number;
  seq: number;
  externalId: string | null;
  sourceLabel: { choice: string } | null;
}

let host: Host;
let browser: Browser;
const gold = new Map<number, string>();
const go = (page: Page, hash: string) => page.evaluate((h) => (location.hash = h), hash);
const base = `#/p/${encodeURIComponent(PROJECT)}`;

/** Labels what the queue serves, `count` items, choosing the gold choice or the other one. */
async function labelQueue(annotator: string, count: number, right: (n: number) => boolean): Promise<number[]> {
  const served: number[] = [];
  let after: number | undefined;
  for (let n = 0; n < count; n++) {
    const item = await host.api<View | null>('nextItem', { project: PROJECT, annotator, afterSeq: after });
    if (!item) break;
    served.push(item.id);
    const want = gold.get(item.id) ?? 'A';
    await host.api('saveLabel', { project: PROJECT, annotator, itemId: item.id, choice: right(n) ? want : want === 'A' ? 'B' : 'A', strength: 2, shownOrder: [0, 1] });
    after = item.seq;
  }
  return served;
}

beforeAll(async () => {
  host = await startHost();
  browser = await launchBrowser();
  await host.api('importContent', { project: PROJECT, fileName: 'prefs.jsonl', content: PAIRS.map((p) => JSON.stringify(p)).join('\n') + '\n', format: 'trl', createProject: true });
  const { rows } = await host.api<{ rows: { id: number }[] }>('listItems', { project: PROJECT });
  // Six of the ten are gold: the first three the qualification set, the others honeypots.
  const marked = rows.slice(0, 6);
  await host.api('markGold', { project: PROJECT, annotator: LEAD, itemIds: marked.map((r) => r.id) });
  for (const r of marked) gold.set(r.id, (await host.api<View>('getItem', { project: PROJECT, annotator: LEAD, itemId: r.id })).sourceLabel!.choice);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

describe('gold for people', () => {
  it('the lead sets honeypots, a qualification set, its pass mark and the bar on the Datasets screen', async () => {
    const { page, problems } = await openApp(browser, host, { annotator: LEAD });
    await go(page, `${base}/datasets`);
    const panel = page.getByTestId('gold-rules');
    await panel.waitFor();
    await expect.poll(() => panel.locator('[data-task="pairwise"] td').nth(1).innerText()).toBe('6');
    for (const [key, value] of [['honeypotRate', '20'], ['qualification', '3'], ['passMark', '100'], ['bar', '80']] as const) {
      const input = page.getByTestId(`gold-pairwise-${key}`);
      await input.fill(value);
      await input.press('Enter');
    }
    await expect
      .poll(async () => (await host.api<{ settings: { gold: Record<string, unknown> } }>('getProject', { project: PROJECT })).settings.gold.pairwise, { timeout: 10_000 })
      .toEqual({ honeypotRate: 0.2, qualification: 3, passMark: 1, bar: 0.8, retries: {} });
    await page.screenshot({ path: '/tmp/arbiter-gold-rules-light.png', fullPage: true });
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('an annotator who misses the qualification is told on Compare and held; the gold is never shown', async () => {
    // Alice gets everything right; Bob one of the three qualification items.
    const aliceFirst = await labelQueue(ALICE, 3, () => true);
    expect(aliceFirst.every((id) => [...gold.keys()].slice(0, 3).includes(id))).toBe(true);
    expect(await labelQueue(ALICE, 5, () => true)).toHaveLength(5);
    expect(await labelQueue(BOB, 3, (n) => n === 0)).toHaveLength(3);
    expect(await host.api('nextItem', { project: PROJECT, annotator: BOB })).toBeNull();
    // A honeypot looks like any other item: no file label on it.
    const item = await host.api<View>('getItem', { project: PROJECT, annotator: BOB, itemId: [...gold.keys()][4]! });
    expect(item.sourceLabel).toBeNull();
    const { page, problems } = await openApp(browser, host, { annotator: BOB });
    await go(page, `${base}/compare`);
    const notice = page.getByTestId('qualification-notice');
    await notice.waitFor({ timeout: 15_000 });
    expect(await notice.getAttribute('data-state')).toBe('failed');
    expect(await notice.innerText()).toContain('Qualification not passed: 33% right, the pass mark is 100%.');
    expect(await page.getByTestId('qualification-chip').innerText()).toBe('not qualified');
    expect(await page.getByTestId('qualification-chip').getAttribute('title')).toBe('Your qualification: 33% right, pass mark 100%.');
    await page.screenshot({ path: '/tmp/arbiter-gold-held-light.png' });
    expect(problems).toEqual([]);
    await page.context().close();
    // Alice sees she passed; a newcomer that the qualification comes first, and a first item of it.
    for (const [who, text] of [[ALICE, 'qualified'], ['e2e-cara', 'qualifying 0/3']] as const) {
      const opened = await openApp(browser, host, { annotator: who, theme: who === ALICE ? 'dark' : 'light' });
      await go(opened.page, `${base}/compare`);
      await expect.poll(() => opened.page.getByTestId('qualification-chip').innerText().catch(() => ''), { timeout: 15_000 }).toBe(text);
      if (who !== ALICE) {
        await expect.poll(() => opened.page.getByTestId('compare').getAttribute('data-item-id'), { timeout: 10_000 }).not.toBe('');
        const shown = Number(await opened.page.getByTestId('compare').getAttribute('data-item-id'));
        expect([...gold.keys()].slice(0, 3)).toContain(shown);
        await opened.page.screenshot({ path: '/tmp/arbiter-gold-pending-light.png' });
      }
      expect(opened.problems).toEqual([]);
      await opened.page.context().close();
    }
  });

  it('the lead’s dashboard flags Bob with the gold items he missed, and lets him retry', async () => {
    for (const theme of ['dark', 'light'] as const) {
      const { page, problems } = await openApp(browser, host, { annotator: LEAD, theme });
      await go(page, `${base}/review/agreement`);
      const card = page.getByTestId('gold-accuracy-card');
      await card.waitFor({ timeout: 20_000 });
      const bob = card.locator(`[data-testid="gold-person"][data-annotator="${BOB}"]`);
      const alice = card.locator(`[data-testid="gold-person"][data-annotator="${ALICE}"]`);
      expect(await bob.getAttribute('data-flagged')).toBe('yes');
      expect(await alice.getAttribute('data-flagged')).toBe('no');
      // 1 of 3: Wilson 95% [6%, 79%].
      expect(await bob.getByTestId('gold-accuracy').innerText()).toBe('33% [6%–79%]');
      expect(await bob.getByTestId('gold-flag').innerText()).toBe('under 80%');
      expect(await bob.getByTestId('gold-qualification').innerText()).toContain('failed 33%');
      expect(await bob.getByTestId('gold-wrong').locator('a').count()).toBe(2);
      expect((await alice.getByTestId('gold-accuracy').innerText()).startsWith('100% [')).toBe(true);
      await card.screenshot({ path: `/tmp/arbiter-gold-dashboard-${theme}.png` });
      await page.screenshot({ path: `/tmp/arbiter-gold-dashboard-page-${theme}.png` });
      if (theme === 'light') {
        // A missed item opens with every label side by side.
        await bob.getByTestId('gold-wrong').locator('a').first().click();
        await expect.poll(() => page.evaluate(() => location.hash)).toMatch(/\/review\/item\/\d+$/);
        await page.goBack();
        await card.waitFor({ timeout: 20_000 });
        await bob.getByTestId('gold-retry').click();
        await bob.getByTestId('gold-retry-granted').waitFor();
        const again = await host.api<View | null>('nextItem', { project: PROJECT, annotator: BOB });
        expect([...gold.keys()].slice(0, 3)).toContain(again?.id);
      }
      expect(problems).toEqual([]);
      await page.context().close();
    }
  });
});
