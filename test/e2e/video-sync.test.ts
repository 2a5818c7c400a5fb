// What the screen's one clock (components/videos/syncGroup.ts) does when the videos part while playing, in
// a real Chromium page with two ffmpeg-made clips: a follower put off the leader on purpose (by 150 ms,
// behind or ahead) is brought back by its playback rate alone, never seeked (a seek throws its decoded
// frames away and, on a busy machine, opened a larger gap each time: bench/video-loop.mjs); one that
// cannot play (its bytes held back 800 ms by a route, as a stalled decoder or a slow disk would) holds the
// leader, paused until it can, and then both play on within a frame; one this browser cannot decode (MPEG-4
// Part 2) neither leads nor holds the other.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipOrFail } from '../helpers/required';
import { ffmpegMissing, makeClip } from '../helpers/videoClips';
import { launchBrowser, openApp, startHost, type Host } from './helpers';

const skip = skipOrFail('video-sync', ffmpegMissing());
const PROJECT = 'e2e video sync';
const FPS = 24;

let host: Host;
let browser: Browser;
let page: Page;
let problems: string[];
let broken: number;

const clip = (path: string) => ({ text: [{ role: 'assistant', content: [{ type: 'video', video: path }] }] });

/** The two videos' times, paused flags and rates (the leader first). */
const clocks = () => page.getByTestId('video').evaluateAll((vs) => vs.map((v) => ({ t: (v as HTMLVideoElement).currentTime, paused: (v as HTMLVideoElement).paused })));

beforeAll(async () => {
  if (skip) return;
  host = await startHost();
  const dir = join(host.home, 'clips');
  mkdirSync(dir);
  makeClip(dir, 'left.webm', { codec: 'vp9', width: 320, height: 180, fps: FPS, seconds: 20 });
  makeClip(dir, 'right.webm', { codec: 'vp9', width: 320, height: 180, fps: FPS, seconds: 20, source: 'testsrc' });
  // MPEG-4 Part 2 in an MP4: the import takes it (probed: a video stream, its size and length), Chromium
  // has no decoder for it, so the element fails (MEDIA_ERR_SRC_NOT_SUPPORTED) and its box says so.
  const made = spawnSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `testsrc=size=320x180:rate=${FPS}:duration=4`, '-c:v', 'mpeg4', join(dir, 'garbled.mp4')], { encoding: 'utf8' });
  if (made.status !== 0) throw new Error(made.stderr);
  const items = [
    { id: 'pair', prompt: 'Two test cards.', responses: [clip('left.webm'), clip('right.webm')] },
    { id: 'broken', prompt: 'One card, one file that cannot be decoded.', responses: [clip('left.webm'), clip('garbled.mp4')] },
  ];
  await host.api('importContent', { project: PROJECT, fileName: 'sync.jsonl', content: items.map((l) => JSON.stringify(l)).join('\n') + '\n', format: 'arbiter', createProject: true, imagesDir: dir });
  const { rows } = await host.api<{ rows: { id: number; externalId: string }[] }>('listItems', { project: PROJECT, limit: 10 });
  broken = rows.find((r) => r.externalId === 'broken')!.id;
  browser = await launchBrowser();
  ({ page, problems } = await openApp(browser, host, { annotator: 'e2e-sync' }));
  await page.evaluate((h) => (location.hash = h), `#/p/${encodeURIComponent(PROJECT)}/item/${rows[0]!.id}`);
  await page.waitForFunction(() => [...document.querySelectorAll<HTMLVideoElement>('[data-testid="video"]')].filter((v) => v.readyState >= 3).length === 2, null, { timeout: 15_000 });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

/**
 * In the page: puts the follower `offset` seconds off the leader with a seek of its own (or, with
 * `reload`, gives it its address again under `reload`, so it has nothing to play until those bytes come),
 * then, from the moment that seek is done (the new address set), counts the follower's seeks and watches
 * every animation frame until the two have stayed within a quarter of a frame for 10 frames (or 8 s pass):
 * the seeks, the rates the follower was given, how long it took, and whether the leader was paused (the
 * test never pauses it) while the follower had no frame to play.
 */
function drift(offset: number, reload?: string) {
  return page.evaluate(
    ([off, fps, again]) =>
      new Promise<{ seeks: number; rates: number[]; caughtUp: number | null; leaderHeld: boolean }>((done) => {
        const [leader, follower] = [...document.querySelectorAll<HTMLVideoElement>('[data-testid="video"]')] as [HTMLVideoElement, HTMLVideoElement];
        let seeks = 0;
        let leaderHeld = false;
        const rates = new Set<number>();
        const held = () => (leaderHeld ||= follower.seeking || follower.readyState < 3);
        leader.addEventListener('pause', held);
        const watch = () => {
          follower.addEventListener('seeking', () => seeks++);
          const from = performance.now();
          let near = 0;
          const look = () => {
            rates.add(Number(follower.playbackRate.toFixed(3)));
            near = Math.abs(leader.currentTime - follower.currentTime) <= 1 / fps / 4 && !leader.paused && !follower.paused ? near + 1 : 0;
            if (near >= 10 || performance.now() - from > 8000) {
              leader.removeEventListener('pause', held);
              done({ seeks, rates: [...rates], caughtUp: near >= 10 ? performance.now() - from : null, leaderHeld });
            } else requestAnimationFrame(look);
          };
          requestAnimationFrame(look);
        };
        if (again) {
          follower.src = again;
          void follower.play();
          watch();
          return;
        }
        follower.addEventListener('seeked', watch, { once: true });
        follower.currentTime = Math.max(0, leader.currentTime + off);
      }),
    [offset, FPS, reload ?? null] as const,
  );
}

describe.skipIf(skip)('two videos playing on one clock', () => {
  it('a follower 150 ms behind catches up by playing faster, without a seek', async () => {
    await page.keyboard.press('Space');
    await expect.poll(async () => (await clocks()).every((c) => !c.paused && c.t > 0.5), { timeout: 10_000 }).toBe(true);
    const seen = await drift(-0.15);
    expect(seen.seeks).toBe(0);
    expect(seen.caughtUp).not.toBeNull();
    expect(Math.max(...seen.rates)).toBeGreaterThan(1);
  });

  it('a follower 150 ms ahead waits for the leader by playing slower, without a seek', async () => {
    const seen = await drift(0.15);
    expect(seen.seeks).toBe(0);
    expect(seen.caughtUp).not.toBeNull();
    expect(Math.min(...seen.rates)).toBeLessThan(1);
  });

  it('a follower that cannot play holds the leader, and both play on within a frame', async () => {
    // The follower's address again with a mark the route knows: its bytes come 800 ms late, so it has no
    // frame to play (readyState 0) for that long, then starts at 0 and the clock seeks it to the leader.
    const src = await page.getByTestId('video').nth(1).evaluate((v) => (v as HTMLVideoElement).src);
    const stalled = `${src}${src.includes('?') ? '&' : '?'}stall=1`;
    let held = 0;
    await page.route(
      (url) => url.href === stalled,
      async (route) => {
        held++;
        await new Promise((r) => setTimeout(r, 800));
        await route.continue({ url: src });
      },
    );
    const seen = await drift(0, stalled);
    expect(held).toBeGreaterThanOrEqual(1);
    expect(seen.leaderHeld).toBe(true);
    expect(seen.caughtUp).not.toBeNull();
    const [a, b] = await clocks();
    expect(a!.paused || b!.paused).toBe(false);
    expect(Math.abs(a!.t - b!.t)).toBeLessThanOrEqual(1 / FPS);
    await page.keyboard.press('Space');
  });

  it('one whose bytes never come holds the leader no longer than HOLD_MAX_MS (2 s): then the leader plays on', async () => {
    await page.keyboard.press('Space');
    await expect.poll(async () => (await clocks()).every((c) => !c.paused), { timeout: 10_000 }).toBe(true);
    const src = await page.getByTestId('video').nth(1).evaluate((v) => (v as HTMLVideoElement).src);
    const never = `${src}${src.includes('?') ? '&' : '?'}stall=never`;
    const answers: (() => void)[] = [];
    await page.route(
      (url) => url.href === never,
      (route) => new Promise<void>((r) => answers.push(r)).then(() => route.abort()),
    );
    const seen = await page.evaluate((again) => {
      const [leader, follower] = [...document.querySelectorAll<HTMLVideoElement>('[data-testid="video"]')] as [HTMLVideoElement, HTMLVideoElement];
      follower.src = again;
      void follower.play().catch(() => undefined);
      const from = performance.now();
      return new Promise<{ heldMs: number | null; playedOn: boolean; followerReady: number }>((done) => {
        let pausedAt: number | null = null;
        let heldMs: number | null = null;
        let t0 = 0;
        const look = () => {
          if (pausedAt === null && leader.paused) pausedAt = performance.now();
          if (pausedAt !== null && heldMs === null && !leader.paused) {
            heldMs = performance.now() - pausedAt;
            t0 = leader.currentTime;
          }
          const playedOn = heldMs !== null && leader.currentTime - t0 > 0.5;
          if (playedOn || performance.now() - from > 8000) done({ heldMs, playedOn, followerReady: follower.readyState });
          else requestAnimationFrame(look);
        };
        requestAnimationFrame(look);
      });
    }, never);
    for (const answer of answers) answer();
    await page.unroute((url) => url.href === never);
    expect(seen.followerReady).toBeLessThan(3);
    expect(seen.heldMs).not.toBeNull();
    expect(seen.heldMs!).toBeGreaterThan(1500);
    expect(seen.playedOn).toBe(true);
    await page.keyboard.press('Space');
  });

  it('a video this browser cannot decode neither leads nor holds: its box says so, the other has the bar and plays', async () => {
    await page.evaluate((h) => (location.hash = h), `#/p/${encodeURIComponent(PROJECT)}/item/${broken}`);
    await page.getByTestId('video-problem').waitFor({ timeout: 15_000 });
    await expect.poll(() => page.getByTestId('video').count()).toBe(1);
    await page.getByTestId('video-transport').waitFor({ timeout: 5_000 });
    await page.keyboard.press('Space');
    await expect.poll(async () => (await clocks())[0], { timeout: 10_000 }).toMatchObject({ paused: false });
    await expect.poll(async () => (await clocks())[0]!.t, { timeout: 10_000 }).toBeGreaterThan(1);
    await page.keyboard.press('Space');
    expect(problems.filter((p) => !/garbled|decode|MEDIA_ERR|Failed to load/i.test(p))).toEqual([]);
  });
});
