#!/usr/bin/env node
// Video pairs in the labeling loop, measured in Chromium against a plain <video> page in the same run
// (issue 24, item 7): `node bench/video-loop.mjs` [--n 20] [--keys 15] [--width 1920] [--height 1080]
// [--seconds 2] [--sync 30] [--codec vp9|h264] [--encodes K] [--pause 400] [--profile FILE]
// (--profile: a CPU profile of Arbiter's page over the keys, for Chrome DevTools; build with ARBITER_NO_MINIFY=1
// in the environment to read the renderer's own function names in it)
// A project of --n pairs of distinct clips (ffmpeg-made, --width × --height, --seconds long), imported with
// `arbiter import`. With --encodes K (fewer than the 2 × --n clips) only K are encoded, each with its own hue;
// the others are copies of one of those remuxed with `ffmpeg -c copy -metadata comment=<n>`: distinct bytes
// and sha256 (so nothing is shared between items: each is stored, served and decoded on its own) and the
// same frames, so the same decode cost, in seconds instead of the hours 2,000 1080p encodes take here; on the Compare screen `1` is pressed --keys times with a reading pause between:
//  - key → next pair's first frames painted: from the keydown to the animation frame after both new
//    <video> elements have their first frame decoded (installProbe says how);
// the baseline: a page of two plain <video> elements (same origin, same addresses) whose src is swapped
// to the next pair on the same key, measured the same way.
//  - sync: a pair of --sync second clips played from one Space; every 100 ms the two elements'
//    currentTime are compared: the gaps' distribution and the share within one frame, with the seeks, stalls
//    and dropped frames of each element (sampleSync); the baseline: the two plain elements started by play().
// Clips are made in bench/.data/video-loop/ (kept; gitignored).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium, quantile, startHost, stopHost } from './lib/browser.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = join(root, 'bench', '.data');
const bin = join(root, 'bin', 'arbiter.mjs');
const argv = process.argv.slice(2);
const arg = (name, fallback) => {
  const i = argv.indexOf(name);
  return i >= 0 ? (typeof fallback === 'number' ? Number(argv[i + 1]) : argv[i + 1]) : fallback;
};
const N = arg('--n', 20);
const KEYS = Math.min(arg('--keys', 15), N - 2);
const W = arg('--width', 1920);
const H = arg('--height', 1080);
const SECONDS = arg('--seconds', 2);
const SYNC = arg('--sync', 30);
const CODEC = arg('--codec', 'vp9');
const ENCODES = Math.max(1, Math.min(arg('--encodes', 2 * N), 2 * N));
const FPS = 30;
/** The reading pause between keys (ms); the filmstrip starts 600 ms after an item shows, so 400 leaves it out. */
const PAUSE = arg('--pause', 400);
/** --profile FILE: a V8 CPU profile of Arbiter's page over the keys (Chrome DevTools' .cpuprofile). */
const PROFILE = arg('--profile', null);

if (spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], { stdio: ['ignore', 'ignore', 'inherit'] }).status !== 0) process.exit(1);
const folder = join(dataDir, `video-loop-${W}x${H}-${SECONDS}s-${CODEC}`);
mkdirSync(join(folder, 'clips'), { recursive: true });

/** Remuxed copies to make: the encoded clip's name → [path, variant] of each copy. */
const copies = new Map();

/** Makes every remuxed copy: one ffmpeg per encoded clip, writing all its copies. */
function copyClips() {
  const ext = CODEC === 'h264' ? 'mp4' : 'webm';
  for (const [from, outs] of copies) {
    for (let i = 0; i < outs.length; i += 200) {
      const batch = outs.slice(i, i + 200);
      const args = ['-hide_banner', '-loglevel', 'error', '-y', '-i', join(folder, 'clips', from)];
      for (const [out, variant] of batch) args.push('-map', '0', '-c', 'copy', '-metadata', `comment=arbiter bench copy ${variant}`, `${out}.partial.${ext}`);
      const copied = spawnSync('ffmpeg', args, { encoding: 'utf8' });
      if (copied.status !== 0) throw new Error(copied.stderr);
      for (const [out] of batch) renameSync(`${out}.partial.${ext}`, out);
    }
  }
}

const pairClip = (variant) => `${Math.floor(variant / 2)}-${variant % 2 ? 'b' : 'a'}.${CODEC === 'h264' ? 'mp4' : 'webm'}`;

function clip(name, seconds, variant) {
  const out = join(folder, 'clips', name);
  if (existsSync(out)) return name;
  if (variant < 2 * N && variant >= ENCODES) {
    // A remux of an encoded clip with its own comment: other bytes, the same frames (made by copyClips).
    const from = pairClip(variant % ENCODES);
    copies.set(from, [...(copies.get(from) ?? []), [out, variant]]);
    return name;
  }
  const codec = CODEC === 'h264' ? ['-c:v', 'libx264', '-preset', 'veryfast', '-b:v', '2M', '-pix_fmt', 'yuv420p', '-movflags', '+faststart'] : ['-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '2M'];
  // testsrc2 with a hue turn per clip: every clip's bytes differ, so nothing is shared between items. The
  // same 2 Mb/s for both codecs, so their decode costs compare (x264 veryfast: CABAC, B-frames, the loop
  // filter, as a camera's or a generator's H.264 has; its index at the front, as a web MP4 has it).
  const source = `testsrc2=size=${W}x${H}:rate=${FPS}:duration=${seconds},hue=h=${(variant * 37) % 360}`;
  const made = spawnSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', source, ...codec, '-g', String(FPS), `${out}.partial.${CODEC === 'h264' ? 'mp4' : 'webm'}`], { encoding: 'utf8' });
  if (made.status !== 0) throw new Error(made.stderr);
  renameSync(`${out}.partial.${CODEC === 'h264' ? 'mp4' : 'webm'}`, out);
  return name;
}

const ext = CODEC === 'h264' ? 'mp4' : 'webm';
const started = performance.now();
const lines = [];
const video = (name) => ({ text: [{ role: 'assistant', content: [{ type: 'video', video: `clips/${name}` }] }] });
lines.push(JSON.stringify({ id: 'sync', prompt: `Two ${SYNC} s clips.`, responses: [video(clip(`sync-a.${ext}`, SYNC, 1000)), video(clip(`sync-b.${ext}`, SYNC, 1001))] }));
for (let i = 0; i < N; i++) lines.push(JSON.stringify({ id: `p${i}`, prompt: `Pair ${i}: a test card turning.`, responses: [video(clip(pairClip(2 * i), SECONDS, 2 * i)), video(clip(pairClip(2 * i + 1), SECONDS, 2 * i + 1))] }));
copyClips();
writeFileSync(join(folder, 'items.jsonl'), `${lines.join('\n')}\n`);
console.log(`clips ready in ${((performance.now() - started) / 1000).toFixed(1)} s (${N} pairs of ${W}×${H} ${CODEC} ${SECONDS} s: ${ENCODES} encoded${ENCODES < 2 * N ? `, ${2 * N - ENCODES} remuxed copies of them` : ''}; one pair of ${SYNC} s)`);
const dbPath = join(folder, 'bench.db');
for (const suffix of ['', '-wal', '-shm']) rmSync(dbPath + suffix, { force: true });
rmSync(`${dbPath}.images`, { recursive: true, force: true });
const importing = performance.now();
const made = spawnSync(process.execPath, [bin, 'import', join(folder, 'items.jsonl'), '--project', 'loop', '--format', 'arbiter', '--db', dbPath], { env: { ...process.env, ARBITER_NO_DEMO: '1' }, encoding: 'utf8' });
if (made.status !== 0) throw new Error(made.stderr);
console.log(`imported ${2 * N + 2} videos in ${((performance.now() - importing) / 1000).toFixed(1)} s`);

/**
 * In the page: the time from a key to the frame after both visible videos can show the next pair's first
 * frame. From the keydown, every animation frame looks at the connected <video> elements: done when at least
 * two are new (another element than before the key, or the same element with another src) and every one of
 * them has its current frame decoded (readyState ≥ HAVE_CURRENT_DATA, which that frame's paint shows); the
 * time is taken at the next animation frame (the one after that paint). The same rule on both pages. (Not
 * requestVideoFrameCallback alone: an element prepared ahead and moved into place has its frame decoded
 * before it is attached, and Chromium does not always call it back for that frame.)
 */
function installProbe() {
  const w = window;
  w.__v = { painted: [], frame: [] };
  const shown = () => [...document.querySelectorAll('video')].filter((v) => v.isConnected);
  addEventListener(
    'keydown',
    (e) => {
      if (e.key !== '1') return;
      const at = e.timeStamp;
      const before = new Map(shown().map((v) => [v, v.getAttribute('src')]));
      // The loop's own frame: the key taken and the next item rendered by the first animation frame after it.
      requestAnimationFrame(() => w.__v.frame.push(performance.now() - at));
      const look = () => {
        const now = shown().filter((v) => !before.has(v) || before.get(v) !== (v.getAttribute('src')));
        if (now.length >= 2 && now.every((v) => v.readyState >= 2)) requestAnimationFrame(() => w.__v.painted.push(performance.now() - at));
        else if (performance.now() - at < 10_000) requestAnimationFrame(look);
      };
      requestAnimationFrame(look);
    },
    { capture: true },
  );
}

async function pressAndWait(page) {
  const count = await page.evaluate(() => window.__v.painted.length);
  await page.keyboard.press('1');
  await page.waitForFunction((c) => window.__v.painted.length > c, count, { timeout: 10_000 });
  await page.waitForTimeout(PAUSE);
}

/**
 * Samples the two videos' times every 100 ms for `seconds`: the gaps' distribution (p50 / p90 / p99 / largest)
 * and the share within one frame (every 100 ms, a paused one's too), the share with one paused (held),
 * how many seconds of the clip the leader played; and what each element went through meanwhile: the seeks it was given
 * ('seeking' events), its stalls ('waiting': no decoded frame to show, its clock stopped), and the frames the
 * decoder dropped or was asked for (getVideoPlaybackQuality): the decode cost beside the sync.
 */
async function sampleSync(page, seconds) {
  return page.evaluate(
    ([s, fps]) =>
      new Promise((done) => {
        const [a, b] = [...document.querySelectorAll('video')];
        const gaps = [];
        const seen = [a, b].map((v) => {
          const n = { seeks: 0, stalls: 0, quality: v.getVideoPlaybackQuality() };
          v.addEventListener('seeking', () => n.seeks++);
          v.addEventListener('waiting', () => n.stalls++);
          return n;
        });
        const from = a.currentTime;
        let held = 0;
        // Every sample while the two play, held ones too (Arbiter's clock pauses one while the other cannot play).
        const timer = setInterval(() => {
          if (a.ended || b.ended) return;
          gaps.push(Math.abs(a.currentTime - b.currentTime));
          if (a.paused || b.paused) held++;
        }, 100);
        setTimeout(() => {
          clearInterval(timer);
          const sorted = [...gaps].sort((x, y) => x - y);
          const q = (p) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;
          const elements = [a, b].map((v, i) => {
            const now = v.getVideoPlaybackQuality();
            return { seeks: seen[i].seeks, stalls: seen[i].stalls, dropped: now.droppedVideoFrames - seen[i].quality.droppedVideoFrames, frames: now.totalVideoFrames - seen[i].quality.totalVideoFrames };
          });
          done({ samples: gaps.length, max: sorted.at(-1) ?? NaN, p50: q(0.5), p90: q(0.9), p99: q(0.99), within: gaps.filter((g) => g <= 1 / fps).length / gaps.length, held: held / gaps.length, played: a.currentTime - from, elements });
        }, s * 1000);
      }),
    [seconds, FPS],
  );
}

const browser = await launchChromium();
const { child, url } = await startHost(bin, dbPath, folder);
try {
  const origin = new URL(url).origin;
  const token = new URLSearchParams(new URL(url).hash.slice(1)).get('token');
  const api = async (name, input) => {
    const r = await (await fetch(`${origin}/api/${name}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-arbiter-token': token }, body: JSON.stringify(input) })).json();
    if (!r.ok) throw new Error(`${name}: ${r.error.message}`);
    return r.result;
  };
  // File order: the sync pair, then p0, p1, …: the first 500 hold every pair the keys reach (--keys ≤ 100).
  const { rows } = await api('listItems', { project: 'loop', limit: Math.min(N + 1, 500) });
  const ids = new Map(rows.map((r) => [r.externalId, r.id]));
  const addresses = async (external) => {
    const item = await api('getItem', { project: 'loop', itemId: ids.get(external), annotator: 'bench' });
    return Promise.all(item.responses.map((r) => api('videoAddress', { project: 'loop', sha256: r.content[0].content[0].video.sha256 }).then((a) => a.path)));
  };

  // Arbiter's Compare screen.
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  await context.addInitScript((name) => localStorage.setItem('arbiter.annotator', name), `bench-${Date.now()}`);
  await context.addInitScript(installProbe);
  const page = await context.newPage();
  await page.goto(url);
  await page.getByTestId('header').waitFor();
  await page.evaluate((id) => (location.hash = `#/p/loop/item/${id}`), ids.get('p0'));
  await page.locator(`[data-testid="compare"][data-item-id="${ids.get('p0')}"]`).waitFor();
  await page.waitForTimeout(800);
  const cdp = PROFILE ? await context.newCDPSession(page) : null;
  if (cdp) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
    await cdp.send('Profiler.start');
  }
  for (let i = 0; i < KEYS; i++) await pressAndWait(page);
  if (cdp) writeFileSync(PROFILE, JSON.stringify((await cdp.send('Profiler.stop')).profile));
  const arbiterPainted = await page.evaluate(() => window.__v.painted);
  const arbiterFrame = await page.evaluate(() => window.__v.frame);
  await page.evaluate((id) => (location.hash = `#/p/loop/item/${id}`), ids.get('sync'));
  await page.locator(`[data-testid="compare"][data-item-id="${ids.get('sync')}"]`).waitFor();
  await page.waitForFunction(() => [...document.querySelectorAll('video')].length === 2 && [...document.querySelectorAll('video')].every((v) => v.readyState >= 3), null, { timeout: 20_000 });
  await page.keyboard.press('Space');
  const arbiterSync = await sampleSync(page, SYNC - 1);
  await context.close();

  // The baseline: two plain <video> elements on a page of the same origin, src swapped on the key.
  const pairs = [];
  for (let i = 0; i <= KEYS; i++) pairs.push(await addresses(`p${i}`));
  const syncPair = await addresses('sync');
  const plain = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  await plain.addInitScript(installProbe);
  const base = await plain.newPage();
  await base.goto(`${origin}/`);
  await base.evaluate((first) => {
    document.documentElement.innerHTML = '<body style="display:flex;gap:8px;margin:0"><video muted preload="auto" style="width:50%"></video><video muted preload="auto" style="width:50%"></video></body>';
    const [a, b] = document.querySelectorAll('video');
    a.src = first[0];
    b.src = first[1];
  }, pairs[0]);
  await base.evaluate((all) => {
    let at = 0;
    addEventListener('keydown', (e) => {
      if (e.key !== '1') return;
      at++;
      const [a, b] = document.querySelectorAll('video');
      a.src = all[at][0];
      b.src = all[at][1];
    });
  }, pairs);
  await base.waitForTimeout(800);
  for (let i = 0; i < KEYS; i++) await pressAndWait(base);
  const plainPainted = await base.evaluate(() => window.__v.painted);
  const plainFrame = await base.evaluate(() => window.__v.frame);
  await base.evaluate((p) => {
    const [a, b] = document.querySelectorAll('video');
    a.src = p[0];
    b.src = p[1];
  }, syncPair);
  await base.waitForFunction(() => [...document.querySelectorAll('video')].every((v) => v.readyState >= 3), null, { timeout: 20_000 });
  await base.evaluate(() => document.querySelectorAll('video').forEach((v) => void v.play()));
  const plainSync = await sampleSync(base, SYNC - 1);
  await plain.close();

  const f = (v) => `p50 ${quantile(v, 0.5).toFixed(1)} ms, p95 ${quantile(v, 0.95).toFixed(1)} ms, max ${Math.max(...v).toFixed(1)} ms`;
  const ms = (v) => (v * 1000).toFixed(1);
  const el = (e) => `${e.seeks} seeks, ${e.stalls} stalls, ${e.dropped} of ${e.frames} frames dropped`;
  const s = (r) => `${(r.within * 100).toFixed(1)} % of ${r.samples} samples within one frame (${ms(1 / FPS)} ms), ${(r.held * 100).toFixed(1)} % with one held, ${r.played.toFixed(1)} s of the clip played; gap p50 ${ms(r.p50)} / p90 ${ms(r.p90)} / p99 ${ms(r.p99)} / largest ${ms(r.max)} ms; leader ${el(r.elements[0])}; follower ${el(r.elements[1])}`;
  console.log(`node ${process.version}, Chromium (--disable-gpu), 1400×900, ${KEYS} keys (1), ${PAUSE} ms between keys; ${W}×${H} ${CODEC} clips, ${FPS} fps`);
  console.log(`key → next pair's first frames painted: Arbiter ${f(arbiterPainted)}; plain <video> page ${f(plainPainted)}`);
  console.log(`key → the first animation frame after it (the loop's frame): Arbiter ${f(arbiterFrame)}; plain <video> page ${f(plainFrame)}`);
  console.log(`two ${SYNC} s clips played ${SYNC - 1} s:\n  Arbiter ${s(arbiterSync)}\n  plain <video> page ${s(plainSync)}`);
} finally {
  await stopHost(child);
  await browser.close();
}
