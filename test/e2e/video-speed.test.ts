// The next pair's first frames at the key (issue 24, item 7), in a real Chromium page: while a pair is
// judged, the next item's videos are prepared in detached <video> elements (components/videos/prefetch.ts);
// on the key the screen moves those very elements into place, their first frame already decoded, instead of
// making new ones that start loading then. Checked without timing: at the first animation frame that shows
// the next pair, both its videos are the elements made ahead and have a decoded frame (readyState ≥ 2), and
// what they paint is the clip (not black). The filmstrip's own <video> waits its turn: nothing is drawn for
// it while the pair plays, and it draws its frames once they are paused (Filmstrip.tsx: its seeks decode
// from the key frame before, which at 1080p took the cores from the pair). The speed itself is
// bench/video-loop.mjs's (docs/benchmarks.md).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipOrFail } from '../helpers/required';
import { ffmpegMissing, makeClip } from '../helpers/videoClips';
import { launchBrowser, openApp, startHost, type Host } from './helpers';

const skip = skipOrFail('video-speed', ffmpegMissing());
const PROJECT = 'e2e video speed';

let host: Host;
let browser: Browser;
let page: Page;
let problems: string[];
const ids = new Map<string, number>();

/**
 * In the page, before the app: what the key's own task does that costs its frame, from the keydown (capture,
 * first of all) to the first timeout after it: requests to the host (each a few milliseconds of the page's
 * thread), heights read and scroll positions set (each lays the page out in the commit; a ResizeObserver's
 * report reads after the frame's own layout, so it is not counted), <video> decoders let go (load()). Only
 * while `__watch` is on.
 */
function recordKeyTask(): void {
  const w = window as unknown as { __watch: boolean; __inKey: boolean; __keyTask: string[] };
  w.__watch = false;
  w.__inKey = false;
  w.__keyTask = [];
  addEventListener(
    'keydown',
    () => {
      if (!w.__watch) return;
      w.__inKey = true;
      setTimeout(() => (w.__inKey = false), 0);
    },
    { capture: true },
  );
  const note = (what: string) => w.__inKey && w.__keyTask.push(what);
  const fetchBefore = window.fetch.bind(window);
  window.fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
    note(`fetch ${String(input instanceof Request ? input.url : input).replace(/^.*\/api\//, '')}`);
    return fetchBefore(input, init);
  }) as typeof fetch;
  const height = Object.getOwnPropertyDescriptor(Element.prototype, 'scrollHeight')!;
  Object.defineProperty(Element.prototype, 'scrollHeight', { ...height, get(this: Element) { if (w.__inKey && !/ResizeObserver/.test(new Error().stack ?? '')) note('scrollHeight'); return height.get!.call(this); } });
  const top = Object.getOwnPropertyDescriptor(Element.prototype, 'scrollTop')!;
  Object.defineProperty(Element.prototype, 'scrollTop', { ...top, set(this: Element, v: number) { note('scrollTop ='); top.set!.call(this, v); } });
  const load = HTMLMediaElement.prototype.load;
  HTMLMediaElement.prototype.load = function (this: HTMLMediaElement) {
    note('video load()');
    return load.call(this);
  };
}

/** In the page, before the app: every <video> the page makes is kept in order (made ahead or not). */
function recordVideoElements(): void {
  const made: HTMLVideoElement[] = [];
  (window as unknown as { __made: HTMLVideoElement[] }).__made = made;
  const create = document.createElement.bind(document);
  document.createElement = ((name: string, options?: ElementCreationOptions) => {
    const el = create(name, options);
    if (el instanceof HTMLVideoElement) made.push(el);
    return el;
  }) as typeof document.createElement;
}

beforeAll(async () => {
  if (skip) return;
  host = await startHost();
  const dir = join(host.home, 'clips');
  mkdirSync(dir);
  const items = [];
  for (let i = 0; i < 4; i++) {
    const side = (s: string, k: number) => {
      makeClip(dir, `${i}${s}.webm`, { codec: 'vp9', width: 320, height: 180, fps: 24, seconds: 2, source: k % 2 ? 'testsrc' : 'testsrc2' });
      return { text: [{ role: 'assistant', content: [{ type: 'video', video: `${i}${s}.webm` }] }] };
    };
    items.push({ id: `pair-${i}`, prompt: `Pair ${i}: a test card.`, responses: [side('a', i), side('b', i + 1)] });
  }
  writeFileSync(join(dir, 'items.jsonl'), items.map((l) => JSON.stringify(l)).join('\n') + '\n');
  await host.api('importContent', { project: PROJECT, fileName: 'items.jsonl', content: items.map((l) => JSON.stringify(l)).join('\n') + '\n', format: 'arbiter', createProject: true, imagesDir: dir });
  const { rows } = await host.api<{ rows: { id: number; externalId: string }[] }>('listItems', { project: PROJECT, limit: 10 });
  for (const row of rows) ids.set(row.externalId, row.id);
  browser = await launchBrowser();
  ({ page, problems } = await openApp(browser, host, { annotator: 'e2e-speed' }));
  await page.addInitScript(recordVideoElements);
  await page.addInitScript(recordKeyTask);
  await page.reload();
  await page.getByTestId('header').waitFor();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

describe.skipIf(skip)('the next pair of videos', () => {
  it('is shown by the elements prepared ahead, their first frames decoded at the first frame after the key', async () => {
    await page.evaluate((h) => (location.hash = h), `#/p/${encodeURIComponent(PROJECT)}/item/${ids.get('pair-0')}`);
    await expect.poll(() => page.getByTestId('compare').getAttribute('data-item-id'), { timeout: 15_000 }).toBe(String(ids.get('pair-0')));
    // Two elements on the screen, and the next pair's two made ahead (detached), all with a decoded frame.
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { __made: HTMLVideoElement[] }).__made.filter((v) => !v.isConnected && v.readyState >= 2 && v.getAttribute('src')).length), { timeout: 15_000 })
      .toBeGreaterThanOrEqual(2);
    await page.evaluate((previous) => {
      const w = window as unknown as { __made: HTMLVideoElement[]; __seen: Promise<{ ahead: boolean[]; ready: number[] }> };
      const before = w.__made.length;
      w.__seen = new Promise((done) => {
        const look = () => {
          const item = document.querySelector('[data-testid="compare"]')?.getAttribute('data-item-id');
          const shown = [...document.querySelectorAll<HTMLVideoElement>('[data-testid="compare"] video')];
          if (item !== previous && shown.length >= 2) done({ ahead: shown.map((v) => w.__made.indexOf(v) >= 0 && w.__made.indexOf(v) < before), ready: shown.map((v) => v.readyState) });
          else requestAnimationFrame(look);
        };
        requestAnimationFrame(look);
      });
    }, String(ids.get('pair-0')));
    await page.keyboard.press('1');
    const seen = await page.evaluate(() => (window as unknown as { __seen: Promise<{ ahead: boolean[]; ready: number[] }> }).__seen);
    expect(seen.ahead).toEqual([true, true]);
    expect(seen.ready.map((r) => r >= 2)).toEqual([true, true]);
    await expect.poll(() => page.getByTestId('compare').getAttribute('data-item-id')).toBe(String(ids.get('pair-1')));
    // What the moved elements paint is the clip: a test card, far from black.
    const shot = await page.getByTestId('video').first().screenshot();
    const { channels } = await sharp(shot).stats();
    expect(Math.max(...channels.slice(0, 3).map((c) => c.mean))).toBeGreaterThan(40);
    expect(problems).toEqual([]);
  });

  it('the filmstrip draws nothing while the pair plays, and its eight frames once they are paused', async () => {
    // On the next pair, Space as soon as its transport bar is there (in the page, not a round trip away);
    // then, every animation frame while the leader plays, the filmstrip's count of drawn frames.
    await page.evaluate((previous) => {
      const w = window as unknown as { __drawn: Promise<string[]> };
      w.__drawn = new Promise((done) => {
        const seen: string[] = [];
        const from = performance.now();
        let pressed = false;
        const look = () => {
          const item = document.querySelector('[data-testid="compare"]')?.getAttribute('data-item-id');
          const shown = [...document.querySelectorAll<HTMLVideoElement>('[data-testid="compare"] video')];
          const strip = document.querySelector('[data-testid="video-filmstrip"]');
          if (!pressed && item !== previous && strip && document.querySelector('[data-testid="video-transport"]') && shown.length === 2) {
            pressed = true;
            seen.push(`shown ${strip.getAttribute('data-drawn')}`);
            document.body.dispatchEvent(new KeyboardEvent('keydown', { key: ' ', code: 'Space', bubbles: true }));
          } else if (pressed && shown[0] && !shown[0].paused) seen.push(strip?.getAttribute('data-drawn') ?? 'none');
          const end = shown[0] && (shown[0].ended || shown[0].currentTime >= shown[0].duration - 0.05);
          if ((pressed && end) || performance.now() - from > 10_000) done(seen);
          else requestAnimationFrame(look);
        };
        requestAnimationFrame(look);
      });
    }, String(ids.get('pair-1')));
    await page.keyboard.press('1');
    const drawn = await page.evaluate(() => (window as unknown as { __drawn: Promise<string[]> }).__drawn);
    expect(drawn.length).toBeGreaterThan(10);
    expect([...new Set(drawn)]).toEqual(['shown 0', '0']);
    await expect.poll(() => page.getByTestId('video-filmstrip').getAttribute('data-drawn'), { timeout: 15_000 }).toBe('8');
    expect(problems).toEqual([]);
  });

  it("the key's task asks the host only for the save, reads no height, sets no scroll, lets no decoder go and keeps the pair left in the document", async () => {
    // Pair 2 to pair 3 by the key, as on every key: the pair left let go, the next one's prepared elements moved in.
    await expect.poll(() => page.getByTestId('compare').getAttribute('data-item-id')).toBe(String(ids.get('pair-2')));
    await page.evaluate(() => {
      const w = window as unknown as { __watch: boolean; __left: HTMLVideoElement[]; __leftAtFrame: Promise<boolean[]> };
      w.__watch = true;
      // The pair left stays in the document (a hidden holder) through the key's frame: taking a media
      // element out of the document pauses it and lets its player go at once, in the commit.
      w.__left = [...document.querySelectorAll<HTMLVideoElement>('[data-testid="compare"] video')];
      w.__leftAtFrame = new Promise((done) => addEventListener('keydown', () => requestAnimationFrame(() => done(w.__left.map((v) => v.isConnected))), { once: true }));
    });
    await page.keyboard.press('1');
    await expect.poll(() => page.getByTestId('compare').getAttribute('data-item-id')).toBe(String(ids.get('pair-3')));
    const task = await page.evaluate(() => (window as unknown as { __keyTask: string[] }).__keyTask);
    expect(task.filter((t) => !/^fetch (saveLabel|saveJudgement)/.test(t))).toEqual([]);
    expect(await page.evaluate(() => (window as unknown as { __leftAtFrame: Promise<boolean[]> }).__leftAtFrame)).toEqual([true, true]);
    // …and out of it after the frame, back in the pool; never counted among the screen's videos.
    await expect.poll(() => page.evaluate(() => (window as unknown as { __left: HTMLVideoElement[] }).__left.some((v) => v.isConnected))).toBe(false);
    expect(await page.getByTestId('video').count()).toBe(2);
    expect(problems).toEqual([]);
  });

  it('a pair left while it plays is paused as it leaves the screen, not at the pool\'s timeout', async () => {
    await expect.poll(() => page.getByTestId('compare').getAttribute('data-item-id')).toBe(String(ids.get('pair-3')));
    await page.keyboard.press('Space');
    await expect.poll(() => page.evaluate(() => [...document.querySelectorAll<HTMLVideoElement>('[data-testid="compare"] video')].every((v) => !v.paused))).toBe(true);
    await page.evaluate(() => {
      const w = window as unknown as { __playing: HTMLVideoElement[]; __pausedAtFrame: Promise<boolean[]> };
      w.__playing = [...document.querySelectorAll<HTMLVideoElement>('[data-testid="compare"] video')];
      // Seen when they leave the screen (a mutation observer runs in the commit's microtasks, before any timeout).
      w.__pausedAtFrame = new Promise((done) => {
        const seen = new MutationObserver(() => {
          if (w.__playing.some((v) => v.closest('[data-testid="compare"]'))) return;
          seen.disconnect();
          done(w.__playing.map((v) => v.paused));
        });
        seen.observe(document.body, { childList: true, subtree: true });
      });
    });
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => page.getByTestId('compare').getAttribute('data-item-id')).toBe(String(ids.get('pair-2')));
    expect(await page.evaluate(() => (window as unknown as { __pausedAtFrame: Promise<boolean[]> }).__pausedAtFrame)).toEqual([true, true]);
    expect(problems).toEqual([]);
  });
});
