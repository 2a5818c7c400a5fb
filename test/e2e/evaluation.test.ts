// The evaluation tab end to end on the demo project (two people's labels, two bundled reward models'
// stored scores): the lead marks the file's own labels gold and resolves twenty pairs through the API, opens the review screen, and
// `e` shows people and models side by side on the same gold, each accuracy with its interval and n; j / k
// pick a row and its facets; a digit changes the measure, and one without gold says it rests on the
// people's consensus; a model's RewardBench rows download. Light and dark screenshots go to
// /tmp/arbiter-evaluation-{light,dark}.png (ARBITER_SHOTS=1 also writes docs/screenshots/evaluation-*.png).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, launchBrowser, openApp, startHost, type Host } from './helpers';

const SHOTS = process.env.ARBITER_SHOTS === '1';
let host: Host;
let browser: Browser;
let demo: string;

beforeAll(async () => {
  host = await startHost({ demo: true });
  browser = await launchBrowser();
  demo = (await host.api<{ name: string }[]>('listProjects', {}))[0]!.name;
  const { rows } = await host.api<{ rows: { id: number }[] }>('listItems', { project: demo, limit: 500 });
  await host.api('markGold', { project: demo, annotator: 'lead', itemIds: rows.map((r) => r.id) });
  // The demo's pairs carry no file labels: the lead resolves twenty of them, which are gold by themselves.
  let resolved = 0;
  for (const [i, row] of rows.entries()) {
    if (resolved === 20) break;
    try {
      await host.api('adjudicate', { project: demo, annotator: 'lead', itemId: row.id, choice: i % 3 ? 'A' : 'B' });
      resolved++;
    } catch {
      // not a pair
    }
  }
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

describe('the evaluation tab', () => {
  it('shows people and models on the same gold with n and intervals, moves by keys, and exports', async () => {
    const evaluation = await host.api<{ subjects: { subject: string; kind: string; measures: { measure: string; reference: string; accuracy: { n: number } }[] }[] }>('evaluate', { project: demo });
    const models = evaluation.subjects.filter((s) => s.kind === 'reward model');
    expect(models.length).toBeGreaterThan(0);
    const { page, problems } = await openApp(browser, host, { annotator: 'lead' });
    await page.evaluate((h) => (location.hash = h), `#/p/${encodeURIComponent(demo)}/review`);
    await page.getByTestId('review-screen').waitFor();
    await page.keyboard.press('e');
    await page.getByTestId('evaluation-table').waitFor();
    expect(await page.getByTestId('review-screen').getAttribute('data-tab')).toBe('evaluation');
    const rows = page.getByTestId('evaluation-row');
    await expect.poll(() => rows.count()).toBe(evaluation.subjects.length);
    for (const s of evaluation.subjects) await page.locator(`[data-testid="evaluation-row"][data-subject="${s.subject}"]`).waitFor();
    // The pair measure rests on the gold; every accuracy shown says its n.
    expect(await page.getByTestId('evaluation-reference').innerText()).toMatch(/measured on the gold: \d+ items/);
    const first = page.getByTestId('evaluation-accuracy').first();
    expect(await first.innerText()).toMatch(/^\d+\.\d%\s*\d+\.\d%–\d+\.\d% · n=\d+$/);
    // j picks the next row; its facets show below.
    expect(await rows.nth(0).getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('j');
    expect(await rows.nth(1).getAttribute('aria-selected')).toBe('true');
    await page.getByTestId('evaluation-detail').waitFor();
    // A model's RewardBench rows: pick its row, export, and the file holds one row per gold pair it scored.
    const model = models[0]!;
    await page.locator(`[data-testid="evaluation-row"][data-subject="${model.subject}"]`).click();
    const download = page.waitForEvent('download');
    await page.getByTestId('evaluation-export-rewardbench').click();
    const file = await (await download).path();
    const lines = readFileSync(file!, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(Object.keys(lines[0]!).sort()).toEqual(['id', 'results', 'scores_chosen', 'scores_rejected', 'subset']);
    await page.getByTestId('evaluation-export-status').waitFor();
    // A measure without gold says it rests on the people's consensus.
    const other = page.locator('[data-testid^="evaluation-measure-"]').nth(1);
    if (await other.count()) {
      await page.keyboard.press('2');
      await expect.poll(() => other.getAttribute('aria-current')).toBe('true');
      const name = (await other.getAttribute('data-testid'))!.replace('evaluation-measure-', '');
      const reference = evaluation.subjects.flatMap((s) => s.measures).find((m) => m.measure === name)?.reference;
      expect(await page.getByTestId('evaluation-reference').innerText()).toMatch(reference === 'gold' ? /measured on the gold/ : /people’s consensus/);
      await page.keyboard.press('1');
    }
    expect(problems).toEqual([]);
    for (const theme of ['light', 'dark'] as const) {
      const shot = await openApp(browser, host, { annotator: 'lead', theme, width: 1440, height: 900 });
      await shot.page.evaluate((h) => (location.hash = h), `#/p/${encodeURIComponent(demo)}/review/evaluation`);
      await shot.page.getByTestId('evaluation-table').waitFor();
      await shot.page.screenshot({ path: `/tmp/arbiter-evaluation-${theme}.png` });
      if (SHOTS) await shot.page.screenshot({ path: join(ROOT, 'docs', 'screenshots', `evaluation-${theme}.png`) });
      expect(shot.problems).toEqual([]);
      await shot.page.context().close();
    }
  }, 120_000);
});
