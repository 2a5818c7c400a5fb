#!/usr/bin/env node
// The labeling loop with images, measured in Chromium (issue 15): `node bench/image-loop.mjs`
//   [--n 10000] [--base 1000] [--keys 100] [--edge 2048]
// A project of --n text-to-image pairs, each response one --edge × --edge JPEG (every image distinct:
// 16 drawn pictures, each copy made unique by a JPEG comment, so nothing is shared between items and
// every image is fetched and decoded), against a baseline project of --base text pairs, run the same
// way in the same process. On the Compare screen, `1` (A is better) is pressed --keys times with a
// reading pause between; reported per project, p50 / p95 / max:
//  - key → next item shown: from the keydown to the frame that shows the next item's id;
//  - key → images painted: from the keydown to the frame after every image of the next item is decoded
//    and shown (ImageView's data-state="shown").
// Databases are made once with `arbiter import` and kept in bench/.data/ (gitignored; the image set is
// about 20,000 files and its store as much again: several GB at 2048²).
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { launchChromium, quantile, startHost, stopHost } from './lib/browser.mjs';
import { uniqueJpeg } from './lib/images.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = join(root, 'bench', '.data');
const bin = join(root, 'bin', 'arbiter.mjs');
const argv = process.argv.slice(2);
const arg = (name, fallback) => {
  const i = argv.indexOf(name);
  return i >= 0 ? Number(argv[i + 1]) : fallback;
};
const N = arg('--n', 10_000);
const BASE = arg('--base', 1000);
const KEYS = arg('--keys', 100);
const EDGE = arg('--edge', 2048);

if (spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], { stdio: ['ignore', 'ignore', 'inherit'] }).status !== 0) process.exit(1);
mkdirSync(dataDir, { recursive: true });

/** 16 pictures: a gradient sky, a ground, and circles placed by the index. */
async function basePictures(edge) {
  const pictures = [];
  for (let k = 0; k < 16; k++) {
    const circles = Array.from({ length: 12 }, (_, j) => {
      const x = ((k * 97 + j * 181) % 100) / 100;
      const y = ((k * 53 + j * 67) % 100) / 100;
      return `<circle cx="${(x * edge).toFixed(0)}" cy="${(y * edge).toFixed(0)}" r="${(edge * (0.03 + ((j * 7 + k) % 10) / 100)).toFixed(0)}" fill="hsl(${(k * 23 + j * 31) % 360},70%,55%)" opacity="0.8"/>`;
    }).join('');
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${edge}" height="${edge}"><defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="hsl(${k * 22},60%,75%)"/><stop offset="1" stop-color="hsl(${k * 22 + 40},50%,35%)"/></linearGradient></defs><rect width="${edge}" height="${edge}" fill="url(#g)"/>${circles}</svg>`;
    pictures.push(await sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer());
  }
  return pictures;
}


async function database(kind, n) {
  const path = join(dataDir, `image-loop-${kind}-${n}${kind === 'images' ? `-${EDGE}` : ''}.db`);
  if (existsSync(path)) return path;
  const folder = join(dataDir, `image-loop-${kind}-${n}`);
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(join(folder, 'img'), { recursive: true });
  const file = join(folder, 'items.jsonl');
  const out = createWriteStream(file);
  const pictures = kind === 'images' ? await basePictures(EDGE) : [];
  const started = performance.now();
  for (let i = 0; i < n; i++) {
    const prompt = `Prompt ${i}: a quiet harbour at dusk, boats with coloured sails, seen from the hill.`;
    let line;
    if (kind === 'images') {
      const responses = [0, 1].map((side) => {
        const name = `img/${i}-${side}.jpg`;
        writeFileSync(join(folder, name), uniqueJpeg(pictures[(i * 2 + side) % pictures.length], `arbiter bench ${i}/${side}`));
        return { text: [{ role: 'assistant', content: [{ type: 'image', image: name }] }], model: side ? 'gen-b' : 'gen-a' };
      });
      line = JSON.stringify({ id: `t${i}`, prompt, responses });
    } else {
      line = JSON.stringify({ id: `t${i}`, prompt, responses: [{ text: `A harbour at dusk, answer ${i}, in words.`, model: 'a' }, { text: `Boats and sails, answer ${i}, in other words.`, model: 'b' }] });
    }
    if (!out.write(`${line}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  const partial = `${path}.partial`;
  const made = spawnSync(process.execPath, [bin, 'import', file, '--project', 'loop', '--format', 'arbiter', '--db', partial], { env: { ...process.env, ARBITER_NO_DEMO: '1' }, encoding: 'utf8' });
  if (made.status !== 0) throw new Error(made.stderr);
  for (const suffix of ['-wal', '-shm']) rmSync(partial + suffix, { force: true });
  if (existsSync(`${partial}.images`)) renameSync(`${partial}.images`, `${path}.images`);
  renameSync(partial, path);
  rmSync(folder, { recursive: true, force: true });
  console.log(`made ${n.toLocaleString()} ${kind === 'images' ? `image pairs (${EDGE}²)` : 'text pairs'} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return path;
}

async function measure(browser, kind, n) {
  const dbPath = await database(kind, n);
  const { child, url } = await startHost(bin, dbPath, dataDir);
  try {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    await context.addInitScript((name) => localStorage.setItem('arbiter.annotator', name), `bench-${Date.now()}`);
    await context.addInitScript(() => addEventListener('keydown', (e) => window.__loopOnKey?.(e), { capture: true }));
    const page = await context.newPage();
    await page.goto(url);
    await page.getByTestId('header').waitFor();
    await page.evaluate(() => (location.hash = '#/p/loop'));
    await page.locator('[data-testid="compare"][data-item-id]').waitFor();
    await page.evaluate(() => {
      const w = window;
      const target = document.querySelector('[data-testid="compare"]');
      const idNow = () => target.getAttribute('data-item-id') ?? '';
      const painted = () => [...target.querySelectorAll('[data-testid="image-view"]')].every((v) => v.getAttribute('data-state') === 'shown');
      w.__loop = { pending: null, shown: [], painted: [] };
      w.__loopOnKey = (e) => {
        if (e.key === '1') w.__loop.pending = { at: e.timeStamp, from: idNow(), shown: false };
      };
      new MutationObserver(() => {
        const p = w.__loop.pending;
        if (!p) return;
        const id = idNow();
        if (!id || id === p.from) return;
        if (!p.shown) {
          p.shown = true;
          requestAnimationFrame(() => w.__loop.shown.push(performance.now() - p.at));
        }
        if (painted()) {
          w.__loop.pending = null;
          requestAnimationFrame(() => w.__loop.painted.push(performance.now() - p.at));
        }
      }).observe(target, { attributes: true, subtree: true, attributeFilter: ['data-item-id', 'data-state'] });
    });
    let again = 0;
    for (let i = 0; i < KEYS; i++) {
      const count = await page.evaluate(() => window.__loop.painted.length);
      await page.keyboard.press('1');
      const moved = await page.waitForFunction((c) => window.__loop.painted.length > c, count, { timeout: 5_000 }).then(() => true, () => false);
      if (!moved) {
        if (++again > 20) throw new Error('the screen stopped answering the key');
        await page.evaluate(() => (window.__loop.pending = null));
        i--;
        continue;
      }
      // An annotator looks before the next key; the next item is prefetched meanwhile.
      await page.waitForTimeout(300);
    }
    const result = await page.evaluate(() => ({ shown: window.__loop.shown, painted: window.__loop.painted }));
    await context.close();
    return { kind, n, again, ...result };
  } finally {
    await stopHost(child);
  }
}

const browser = await launchChromium();
try {
  const base = await measure(browser, 'text', BASE);
  const images = await measure(browser, 'images', N);
  const f = (v) => `p50 ${quantile(v, 0.5).toFixed(1)} ms, p95 ${quantile(v, 0.95).toFixed(1)} ms, max ${Math.max(...v).toFixed(1)} ms`;
  console.log(`node ${process.version}, Chromium (--disable-gpu), Compare screen 1400×900, ${KEYS} keys (1) per project, 300 ms between keys`);
  console.log(`${BASE.toLocaleString().padStart(7)} text pairs:   key → next item shown ${f(base.shown)}${base.again ? ` (${base.again} pressed again)` : ''}`);
  console.log(`${N.toLocaleString().padStart(7)} image pairs (two ${EDGE}×${EDGE} JPEGs each): key → next item shown ${f(images.shown)}; key → both images painted ${f(images.painted)}${images.again ? ` (${images.again} pressed again)` : ''}`);
  console.log(`ratio image / text, p95 key → painted: ${(quantile(images.painted, 0.95) / quantile(base.shown, 0.95)).toFixed(2)}×`);
} finally {
  await browser.close();
}
