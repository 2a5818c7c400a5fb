// Issue 24's "Done when", walked by a new user in Chromium: from the project list, import a
// VideoGen-RewardBench pair CSV with its videos, a LeRobot episode folder and a video-QA file (Video-R1's
// shape), each through the page's import flow; label pairs per criterion with synced playback; mark an
// episode's first failure (Shift+F); export each format back and find every video byte for byte (sha256)
// in what comes down; no request leaves the host. The clips are made here by Debian's ffmpeg (VP9 WebM
// for the CSV and the QA file, H.264 MP4 in the LeRobot folder, as LeRobot writes them).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLeRobotFolder } from '../helpers/leRobotFolder';
import { skipOrFail } from '../helpers/required';
import { ffmpegMissing, makeClip } from '../helpers/videoClips';
import { createProjectViaUi, launchBrowser, openApp, startHost, type Host } from './helpers';

const skip = skipOrFail('video-walk', ffmpegMissing());

let host: Host;
let browser: Browser;
let page: Page;
let problems: string[];
let data: string;
const outside: string[] = [];
const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const go = (hash: string) => page.evaluate((h) => (location.hash = h), hash);

/** Every file under `dir` by its sha256 (paths relative to `dir`). */
function hashesUnder(dir: string): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else found.set(sha(path), relative(dir, path));
    }
  };
  walk(dir);
  return found;
}

/** Each on-screen video's readiness, time and whether it plays. */
const clocks = () => page.getByTestId('video').evaluateAll((vs) => vs.map((v) => ({ ready: (v as HTMLVideoElement).readyState >= 2, t: (v as HTMLVideoElement).currentTime, paused: (v as HTMLVideoElement).paused })));

/** From the project list: a new project, its file imported with the folder that holds its videos. */
async function importProject(name: string, file: string, folder: string): Promise<string> {
  await go('#/');
  await page.getByTestId('new-project-name').waitFor();
  await createProjectViaUi(page, name);
  await page.getByTestId('import-file').setInputFiles(file);
  await page.getByTestId('import-detected').getByText(/Detected|not recognised/).waitFor();
  const detected = await page.getByTestId('import-detected').innerText();
  await page.getByTestId('import-images-dir').fill(folder);
  await page.getByTestId('import-button').click();
  await page.getByTestId('import-result').or(page.getByTestId('import-failure')).waitFor({ timeout: 60_000 });
  expect(await page.getByTestId('import-failure').allInnerTexts(), detected).toEqual([]);
  return page.getByTestId('import-result').innerText();
}

/** Exports `project` as `format` through the Datasets screen; returns the folder the download unpacked into. */
async function exportThroughPage(project: string, format: string): Promise<{ dir: string; note: string }> {
  await go(`#/p/${encodeURIComponent(project)}/datasets`);
  await page.getByTestId('export-panel').waitFor();
  await page.getByTestId('export-format').selectOption(format);
  const downloading = page.waitForEvent('download');
  await page.getByTestId('export-button').click();
  await page.getByTestId('export-summary').or(page.getByTestId('export-error')).waitFor({ timeout: 60_000 });
  expect(await page.getByTestId('export-error').allInnerTexts()).toEqual([]);
  const download = await downloading;
  const dir = join(data, `export-${format}`);
  mkdirSync(dir);
  const file = join(dir, download.suggestedFilename());
  await download.saveAs(file);
  if (file.endsWith('.zip')) expect(spawnSync('unzip', ['-q', file, '-d', dir]).status).toBe(0);
  return { dir, note: await page.getByTestId('export-summary').innerText() };
}

const sources = { vgen: new Map<string, string>(), robot: new Map<string, string>(), qa: new Map<string, string>() };

beforeAll(async () => {
  if (skip) return;
  host = await startHost();
  data = join(host.home, 'walk');
  // A VideoGen-RewardBench pair CSV (VideoAlign's columns) and its videos beside it.
  const vgen = join(data, 'videogen');
  mkdirSync(join(vgen, 'videos'), { recursive: true });
  for (const [i, source] of ['testsrc2', 'testsrc', 'smptebars', 'rgbtestsrc'].entries()) makeClip(join(vgen, 'videos'), `clip_${i}.webm`, { codec: 'vp9', width: 160, height: 90, fps: 24, seconds: 2, source });
  writeFileSync(
    join(vgen, 'videogen_rewardbench.csv'),
    [
      'path_A,path_B,A_model,B_model,prompt,VQ,MQ,TA,Overall,fps_A,num_frames_A,fps_B,num_frames_B',
      'videos/clip_0.webm,videos/clip_1.webm,gen-alpha,gen-beta,"A test card drifting right, colours vivid.",A,same,A,A,24.0,48.0,24.0,48.0',
      'videos/clip_2.webm,videos/clip_3.webm,gen-beta,gen-gamma,"A fractal zooming in slowly.",A,A,A,A,24.0,48.0,24.0,48.0',
    ].join('\n') + '\n',
  );
  for (const [hash, path] of hashesUnder(join(vgen, 'videos'))) sources.vgen.set(hash, path);
  // A LeRobot v2.1 dataset folder: two episodes, two cameras each (H.264 MP4).
  makeLeRobotFolder(join(data, 'so101'), [true, false]);
  for (const [hash, path] of hashesUnder(join(data, 'so101', 'videos'))) sources.robot.set(hash, path);
  // Video question answering with a reasoning chain (Video-R1's fields).
  const qa = join(data, 'videoqa');
  mkdirSync(join(qa, 'videos'), { recursive: true });
  makeClip(join(qa, 'videos'), 'q1.webm', { codec: 'vp9', width: 160, height: 90, fps: 24, seconds: 1, source: 'testsrc2' });
  writeFileSync(
    join(qa, 'video_r1.jsonl'),
    JSON.stringify({ problem_id: 1, problem: 'Which way does the pattern move?', data_type: 'video', problem_type: 'multiple choice', options: ['A. left', 'B. right'], process: '<think>The bars shift.\n\nSo it moves right.</think>', solution: '<answer>B</answer>', path: './videos/q1.webm', data_source: 'synthetic' }) + '\n',
  );
  for (const [hash, path] of hashesUnder(join(qa, 'videos'))) sources.qa.set(hash, path);
  browser = await launchBrowser();
  ({ page, problems } = await openApp(browser, host, { annotator: 'newcomer', acceptDownloads: true }));
  page.on('request', (request) => {
    if (!request.url().startsWith(host.origin) && !/^(blob|data):/.test(request.url())) outside.push(request.url());
  });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

describe.skipIf(skip)('a new user and three video datasets', () => {
  it('imports a VideoGen-RewardBench CSV with its videos from the project list', async () => {
    const said = await importProject('videogen', join(data, 'videogen', 'videogen_rewardbench.csv'), join(data, 'videogen'));
    expect(said).toMatch(/Imported 2 new items/);
  });

  it('labels the pairs per criterion while both clips play on one clock', async () => {
    await go('#/p/videogen/compare');
    await page.locator('[data-testid="compare"]:not([data-item-id=""])').waitFor({ timeout: 20_000 });
    for (let pair = 0; pair < 2; pair++) {
      const item = await page.getByTestId('compare').getAttribute('data-item-id');
      await expect.poll(() => clocks().then((c) => c.map((v) => v.ready)), { timeout: 20_000 }).toEqual([true, true]);
      await page.keyboard.press('Space');
      await expect.poll(() => clocks().then((c) => c.length === 2 && c.every((v) => !v.paused && v.t > 0.4)), { timeout: 10_000 }).toBe(true);
      const playing = await clocks();
      expect(Math.abs(playing[0]!.t - playing[1]!.t)).toBeLessThan(0.1);
      await page.keyboard.press('Space');
      await expect.poll(() => clocks().then((c) => c.every((v) => v.paused) && Math.abs(c[0]!.t - c[1]!.t) < 1 / 24)).toBe(true);
      // Per criterion (the video-generation rubric the CSV brought, in force): Tab into the sheet, each clip's
      // four axes rated 1–5, then who wins each axis: 1 left, 2 right, 3 tie.
      await page.keyboard.press('Tab');
      for (const key of ['4', '3', '5', '4', '2', '3', '3', '2', '1', '3', '1', '1']) await page.keyboard.press(key);
      await page.keyboard.press('Escape');
      await page.keyboard.press('1');
      await expect.poll(() => page.getByTestId('compare').getAttribute('data-item-id'), { timeout: 10_000 }).not.toBe(item);
    }
    await page.getByText('Every pair in this project has your label.').waitFor();
    const { rows } = await host.api<{ rows: { id: number }[] }>('listItems', { project: 'videogen', limit: 10 });
    for (const row of rows) {
      const sheet = await host.api<{ mine: { ratings: Record<string, Record<string, number>>; criterionWinner?: Record<string, string> } | null }>('getRatingSheet', { project: 'videogen', annotator: 'newcomer', itemId: row.id });
      expect(Object.keys(sheet.mine?.criterionWinner ?? {}).sort()).toEqual(['motion_quality', 'overall', 'text_alignment', 'visual_quality']);
      expect(Object.values(sheet.mine!.ratings).map((r) => Object.keys(r).length)).toEqual([4, 4]);
    }
  });

  it('imports a LeRobot episode folder and marks an episode’s first failure with Shift+F', async () => {
    await go('#/');
    await page.getByTestId('new-project-name').waitFor();
    await createProjectViaUi(page, 'robot');
    await page.getByTestId('import-folder-path').fill(join(data, 'so101'));
    await page.getByTestId('import-folder-button').click();
    await page.getByTestId('import-folder-result').or(page.getByTestId('import-folder-failure')).waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('import-folder-failure').allInnerTexts()).toEqual([]);
    expect(await page.getByTestId('import-folder-result').innerText()).toMatch(/Imported 2 new items/);
    // On Verdict: episode 0 succeeded (1, good); episode 1 failed (2, bad); back to it (←) for the moment.
    const { rows } = await host.api<{ rows: { id: number; externalId: string }[] }>('listItems', { project: 'robot', limit: 10 });
    const id = (external: string) => String(rows.find((r) => r.externalId === external)!.id);
    const failed = Number(id('episode_000001'));
    await go('#/p/robot/verdict');
    const screen = page.getByTestId('verdict-screen');
    await expect.poll(() => screen.getAttribute('data-item-id'), { timeout: 20_000 }).toBe(id('episode_000000'));
    await expect.poll(() => clocks().then((c) => c.length === 2 && c.every((v) => v.ready)), { timeout: 20_000 }).toBe(true);
    await page.keyboard.press('1');
    await expect.poll(() => screen.getAttribute('data-item-id'), { timeout: 10_000 }).toBe(String(failed));
    await expect.poll(() => clocks().then((c) => c.length === 2 && c.every((v) => v.ready)), { timeout: 20_000 }).toBe(true);
    await page.keyboard.press('2');
    await expect.poll(() => page.getByTestId('verdict-screen').getAttribute('data-item-id').catch(() => null), { timeout: 10_000 }).not.toBe(String(failed));
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => screen.getAttribute('data-item-id'), { timeout: 10_000 }).toBe(String(failed));
    await expect.poll(() => clocks().then((c) => c.length === 2 && c.every((v) => v.ready))).toBe(true);
    for (let i = 0; i < 12; i++) await page.keyboard.press('.');
    await expect.poll(() => clocks().then((c) => c.every((v) => Math.abs(v.t - 12.5 / 24) < 0.02))).toBe(true);
    await page.keyboard.press('Shift+F');
    await expect
      .poll(async () => {
        const history = await host.api<{ choice: string | null; body: { first_failure?: Record<string, number> } }[]>('labelHistory', { project: 'robot', itemId: failed });
        return history.at(-1)?.choice === 'bad' ? (history.at(-1)!.body.first_failure?.A ?? null) : null;
      }, { timeout: 10_000 })
      .toBeCloseTo(12.5 / 24, 2);
  });

  it('imports a video-QA file and shows its clip', async () => {
    const said = await importProject('videoqa', join(data, 'videoqa', 'video_r1.jsonl'), join(data, 'videoqa'));
    expect(said).toMatch(/Imported 1 new item/);
    const { rows } = await host.api<{ rows: { id: number }[] }>('listItems', { project: 'videoqa', limit: 10 });
    await go(`#/p/videoqa/item/${rows[0]!.id}`);
    await expect.poll(() => clocks().then((c) => c.length >= 1 && c.every((v) => v.ready)), { timeout: 20_000 }).toBe(true);
    // The question's clip is not folded away under the prompt: its transport bar shows under it.
    await page.getByTestId('prompt').getByTestId('video-transport').waitFor({ timeout: 10_000 });
    expect(await page.getByTestId('prompt').getByText(/Show the whole prompt/).count()).toBe(0);
    // And the question after the clip is in view, not scrolled away under it.
    const question = await page.getByTestId('prompt').getByText('Which way does the pattern move?').boundingBox();
    const prompt = await page.getByTestId('prompt').boundingBox();
    expect(question!.y + question!.height).toBeLessThanOrEqual(prompt!.y + prompt!.height);
    await page.screenshot({ path: '/tmp/video-walk-qa.png' });
    // Its reasoning chain rated step by step on the Steps screen (the export writes the judged chains).
    await go('#/p/videoqa/steps');
    await page.getByTestId('step-list').waitFor({ timeout: 20_000 });
    for (const key of ['=', '=', '=']) await page.keyboard.press(key);
    await expect.poll(() => page.getByTestId('status-text').getAttribute('data-state'), { timeout: 10_000 }).toBe('saved');
  });

  it('exports each format back through the page, every video byte for byte', async () => {
    for (const [project, format, source] of [
      ['videogen', 'videoalign', sources.vgen],
      ['robot', 'lerobot', sources.robot],
      ['videoqa', 'video-qa', sources.qa],
    ] as const) {
      const { dir, note } = await exportThroughPage(project, format);
      const got = hashesUnder(dir);
      for (const [hash, path] of source) expect(got.has(hash), `${format}: ${path} byte for byte in ${[...got.values()].join(', ')} (${note})`).toBe(true);
    }
  });

  it('sent no request off the host and logged no problem', () => {
    expect(outside).toEqual([]);
    expect(problems).toEqual([]);
  });
});
