// Scoring runs as a background job: with the demo (its two models already added and scored), a large
// project is scored from the Models screen; while the job runs the annotator labels on the compare
// screen without waiting, the header shows the job, and Cancel stops it with the state "cancelled".
// The demo project also shows its pre-labels in assist mode: both models' votes, the ensemble and the
// process model's per-step scores.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openApp, startHost, type Host } from './helpers';

const ANNOTATOR = 'e2e-jobs';
const BULK = 'e2e bulk';
const PAIRS = 1500;

interface Job {
  id: string;
  project: string;
  state: string;
  progress: { done: number } | null;
}

let host: Host;
let browser: Browser;
let page: Page;
let problems: string[];
let demo: string;

function bulkLines(): string {
  const lines: string[] = [];
  const topics = ['binary search', 'the water cycle', 'compound interest', 'photosynthesis', 'TCP handshakes', 'the French revolution'];
  for (let i = 0; i < PAIRS; i++) {
    const topic = topics[i % topics.length]!;
    const step = (n: number) => `Step ${n}: look at ${topic} from angle ${n} and explain what follows from it, carefully and in order. `;
    lines.push(JSON.stringify({ prompt: `Explain ${topic} (variant ${i}).`, chosen: [1, 2, 3, 4, 5].map(step).join(''), rejected: [1, 2].map(step).join('') + 'So it is 42.' }));
  }
  return lines.join('\n') + '\n';
}

async function go(hash: string) {
  await page.evaluate((h) => (location.hash = h), hash);
}

beforeAll(async () => {
  host = await startHost({ demo: true });
  browser = await launchBrowser();
  ({ page, problems } = await openApp(browser, host, { annotator: ANNOTATOR }));
  demo = (await host.api<{ name: string }[]>('listProjects', {}))[0]!.name;
  await host.api('importContent', { project: BULK, fileName: 'bulk.jsonl', content: bulkLines(), createProject: true });
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

describe('score jobs in the background', () => {
  it('the demo shows pre-labels from its two text models in assist mode, with per-step scores', async () => {
    await go(`#/p/${encodeURIComponent(demo)}/models`);
    // Two text models, the image model (which scores the demo's generated images, not this text pair) and
    // the video model (which scores the video demo's clips).
    await expect.poll(() => page.getByTestId('model-row').count()).toBe(4);
    await go(`#/p/${encodeURIComponent(demo)}`);
    await page.getByTestId('response-body-left').waitFor();
    expect(await page.getByTestId('prelabel-line').count()).toBe(0);
    await page.getByTestId('prelabels-assist').click();
    await page.getByTestId('prelabels-switch').click(); // the switch asks first: every annotator sees it
    const line = page.getByTestId('prelabel-line');
    await line.waitFor();
    expect(await line.getByTestId('model-vote').count()).toBe(2);
    expect(await page.getByTestId('ensemble').innerText()).toMatch(/2 models: P\((Left|Right)\) \d\.\d\d ± \d\.\d\d/);
    await page.getByTestId('accept-suggestion').waitFor();
    const steps = page.getByTestId('steps-left');
    await steps.waitFor();
    expect(await steps.getByTestId('step-chip').count()).toBeGreaterThan(0);
    expect(await steps.getByTestId('first-error').innerText()).toMatch(/first error: step \d+|no step below 0\.5/);
    await page.getByTestId('prelabels-blind').click();
    await page.getByTestId('prelabels-switch').click(); // the switch asks first: every annotator sees it
    await expect.poll(() => page.getByTestId('prelabel-line').count()).toBe(0);
    expect(await page.getByTestId('steps-left').count()).toBe(0);
  });

  it('starts a long job; labeling stays responsive meanwhile; Cancel stops it', async () => {
    await go(`#/p/${encodeURIComponent(BULK)}/models`);
    await page.getByTestId('score-start').waitFor();
    await expect.poll(() => page.getByTestId('score-model').count()).toBe(4);
    await page.getByTestId('score-batch').fill('1');
    await page.getByTestId('score-start').click();
    await page.locator('[data-testid="job"][data-state="running"]').waitFor();
    await expect
      .poll(async () => Number(/^([\d,]+)/.exec(await page.getByTestId('job-progress').innerText())?.[1]?.replace(/,/g, '') ?? 0), { timeout: 30_000 })
      .toBeGreaterThan(0);
    expect(await page.getByTestId('job-progress').innerText()).toMatch(/responses\/s[\s\S]*tokens\/s[\s\S]*ETA/);
    expect(await page.getByTestId('job-provider').innerText()).toBe('cpu');

    // Label while it runs: the next item follows and the save is confirmed while the job is still running
    // (neither waits for it; the waits below only guard against a hang).
    await page.keyboard.press('c');
    await page.getByTestId('response-body-left').waitFor();
    expect(await page.getByTestId('header-job').innerText()).toMatch(/scoring\s+\d+%/);
    const before = await page.getByTestId('item-position').innerText();
    await page.keyboard.press('2');
    await expect.poll(() => page.getByTestId('item-position').innerText(), { timeout: 30_000 }).not.toBe(before);
    await page.getByTestId('status-text').and(page.locator('[data-state="saved"]')).waitFor({ timeout: 30_000 });
    const running = (await host.api<Job[]>('listJobs', {})).find((j) => j.project === BULK)!;
    expect(running.state).toBe('running');

    // Back to the job, which is still running, and cancel it.
    await page.keyboard.press('m');
    await page.locator('[data-testid="job"][data-state="running"]').waitFor();
    await page.getByTestId('job-cancel').click();
    await page.locator('[data-testid="job"][data-state="cancelled"]').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('job-summary').innerText()).toMatch(/Cancelled/);
    await expect.poll(() => page.getByTestId('header-job').count()).toBe(0);
    const jobs = await host.api<Job[]>('listJobs', {});
    expect(jobs.find((j) => j.id === running.id)!.state).toBe('cancelled');
    // The Start button is back for another run.
    expect(await page.getByTestId('score-start').isEnabled()).toBe(true);
  });

  it('picks up a running job after a reload', async () => {
    const job = await host.api<Job>('startScoring', { project: BULK, batchSize: 1 });
    await page.reload();
    await page.locator('[data-testid="job"][data-state="running"]').waitFor({ timeout: 15_000 });
    await host.api('cancelJob', { jobId: job.id });
    await page.locator('[data-testid="job"][data-state="cancelled"]').waitFor({ timeout: 30_000 });
  });

  it('produced no page errors and no CSP violations', () => {
    expect(problems).toEqual([]);
  });
});
