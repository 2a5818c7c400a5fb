#!/usr/bin/env node
// The labeling loop at scale, measured in Chromium: `npm run bench:loop`, or
//   node bench/labeling-loop.mjs [--n 1000000] [--base 1000] [--keys 150] [--screen compare|steps]
// --screen steps: the step screen over chains of one response with five "Step N:" steps (issue 8's bar:
// 100k chains), where → is the key that shows the next item.
// For a project of --n pairs and a baseline project of --base pairs (run the same way in the same
// process), it starts the browser host on the database, opens the app in Debian's Chromium and reports:
//  - open: from routing to the project to the first item painted (target ≤ 1 s at 1M items);
//  - key → next item: from the keydown of `1` to the animation frame that shows the next item, in the
//    page (target p95 ≤ 50 ms), with a short pause between items as an annotator reading would give;
//  - the header's progress after the last save (it must count every save, from counters).
// Databases are made once with `arbiter import` and kept in bench/.data/ (gitignored).
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = join(root, 'bench', '.data');
const argv = process.argv.slice(2);
const arg = (name, fallback) => {
  const i = argv.indexOf(name);
  return i >= 0 ? Number(argv[i + 1]) : fallback;
};
const N = arg('--n', 1_000_000);
const BASE = arg('--base', 1000);
const KEYS = arg('--keys', 150);
const SCREEN = argv.includes('--screen') ? argv[argv.indexOf('--screen') + 1] : 'compare';
const SCREENS = {
  compare: { route: '#/p/loop', selector: '[data-testid="compare"]', key: '1' },
  steps: { route: '#/p/loop/steps', selector: '[data-testid="steps-screen"]', key: 'ArrowRight' },
};
const screen = SCREENS[SCREEN];
if (!screen) throw new Error(`--screen is compare or steps, not ${SCREEN}`);
const bin = join(root, 'bin', 'arbiter.mjs');

if (spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], { stdio: ['ignore', 'ignore', 'inherit'] }).status !== 0) process.exit(1);
mkdirSync(dataDir, { recursive: true });

async function database(n) {
  const path = join(dataDir, `loop-${SCREEN}-${n}.db`);
  if (existsSync(path)) return path;
  const file = join(dataDir, `loop-${SCREEN}-${n}.jsonl`);
  const out = createWriteStream(file);
  for (let i = 0; i < n; i++) {
    const chain = Array.from({ length: 5 }, (_, k) => `Step ${k + 1}: from ${i + k} add ${k + 2} to get $${i + 2 * k + 2}$.`).join('\n');
    const line = SCREEN === 'steps' ? JSON.stringify({ id: `c${i}`, prompt: `Chain ${i}: count up from ${i}.`, responses: [{ text: chain }], reference: String(i + 10) }) : JSON.stringify({
      prompt: `Question ${i}: a customer asks how to reset a password after the account was locked for too many attempts. What should support say?`,
      chosen: ` Explain the lockout timer (${i % 60} minutes), then offer the reset link and how to verify identity.`,
      rejected: ` Tell them to make a new account ${i}.`,
    });
    if (!out.write(`${line}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  const started = performance.now();
  const partial = `${path}.partial`;
  const result = spawnSync(process.execPath, [bin, 'import', file, '--project', 'loop', '--db', partial, ...(SCREEN === 'steps' ? ['--format', 'arbiter'] : [])], { env: { ...process.env, ARBITER_NO_DEMO: '1' }, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(result.stderr);
  for (const suffix of ['-wal', '-shm']) rmSync(partial + suffix, { force: true });
  renameSync(partial, path);
  rmSync(file);
  console.log(`made ${n.toLocaleString()} items in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return path;
}

function startHost(dbPath) {
  const child = spawn(process.execPath, [bin, 'serve', '--db', dbPath, '--port', '0'], {
    env: { ...process.env, ARBITER_NO_DEMO: '1', ARBITER_HOME: join(dataDir, 'home') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolveUrl, reject) => {
    const onData = (chunk) => {
      output += chunk.toString();
      const match = /(http:\/\/127\.0\.0\.1:\d+\/\S*)/.exec(output);
      if (match) resolveUrl({ child, url: match[1] });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`host exited ${code}: ${output}`)));
  });
}

const quantile = (values, q) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))];

async function measure(browser, n) {
  const dbPath = await database(n);
  // A fresh annotator per run, so every item starts unlabeled for them.
  const annotator = `bench-${Date.now()}`;
  const { child, url } = await startHost(dbPath);
  try {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    await context.addInitScript((name) => localStorage.setItem('arbiter.annotator', name), annotator);
    // The key is heard before the app's own window/capture listeners (added when the page loads): a screen
    // that swaps the item inside its keydown handler has already changed data-item-id by the time a
    // listener added later runs, so `fromId` would be the new item and the next key's change be measured.
    await context.addInitScript(() => addEventListener('keydown', (e) => window.__loopOnKey?.(e), { capture: true }));
    const page = await context.newPage();
    await page.goto(url);
    await page.getByTestId('header').waitFor();
    // Open: route to the project, wait for the first item's frame.
    const openMs = await page.evaluate(
      ({ route, selector }) =>
        new Promise((done) => {
          const started = performance.now();
          const check = () => {
            const id = document.querySelector(selector)?.getAttribute('data-item-id');
            if (id) requestAnimationFrame(() => done(performance.now() - started));
            else requestAnimationFrame(check);
          };
          location.hash = route;
          check();
        }),
      screen,
    );
    // Key → next item painted, measured in the page.
    await page.evaluate(({ selector, key }) => {
      const w = window;
      const target = document.querySelector(selector);
      const idNow = () => target.getAttribute('data-item-id') ?? '';
      w.__loop = { pressedAt: 0, fromId: '', latencies: [] };
      w.__loopOnKey = (e) => {
        if (e.key !== key) return;
        w.__loop.pressedAt = e.timeStamp;
        w.__loop.fromId = idNow();
      };
      // The first change to another item after the key, then the frame that paints it.
      new MutationObserver(() => {
        const { pressedAt, fromId } = w.__loop;
        const id = idNow();
        if (!pressedAt || !id || id === fromId) return;
        w.__loop.pressedAt = 0;
        requestAnimationFrame(() => w.__loop.latencies.push(performance.now() - pressedAt));
      }).observe(target, { attributes: true, attributeFilter: ['data-item-id'] });
    }, screen);
    let ignored = 0;
    for (let i = 0; i < KEYS; i++) {
      const count = await page.evaluate(() => window.__loop.latencies.length);
      await page.keyboard.press(screen.key);
      // A key the screen did not act on (still busy with the last one) is counted, and pressed again.
      const moved = await page.waitForFunction((c) => window.__loop.latencies.length > c, count, { timeout: 3_000 }).then(() => true, () => false);
      if (!moved) {
        ignored++;
        i--;
        if (ignored > 20) throw new Error('the screen stopped answering the key');
        continue;
      }
      // An annotator reads before the next key; the next item is prefetched meanwhile.
      await page.waitForTimeout(60);
    }
    const latencies = await page.evaluate(() => window.__loop.latencies);
    await page.waitForTimeout(500);
    const header = await page.getByTestId('header').innerText();
    await context.close();
    return { n, openMs, latencies, ignored, header: header.replace(/\s+/g, ' ') };
  } finally {
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
try {
  const base = await measure(browser, BASE);
  const big = await measure(browser, N);
  const row = (r) =>
    `${r.n.toLocaleString().padStart(9)} items: open ${r.openMs.toFixed(0)} ms; key → next item p50 ${quantile(r.latencies, 0.5).toFixed(1)} ms, p95 ${quantile(r.latencies, 0.95).toFixed(1)} ms, max ${Math.max(...r.latencies).toFixed(1)} ms (${r.latencies.length} keys${r.ignored ? `, ${r.ignored} pressed again` : ''})`;
  console.log(`node ${process.version}, Chromium, ${SCREEN} screen, ${KEYS} keys (${screen.key}) per project`);
  console.log(row(base));
  console.log(row(big));
  console.log(`ratio ${N.toLocaleString()} / ${BASE.toLocaleString()} items: open ${(big.openMs / base.openMs).toFixed(2)}×, key p95 ${(quantile(big.latencies, 0.95) / quantile(base.latencies, 0.95)).toFixed(2)}×  (targets at 1M: open ≤ 1000 ms, key p95 ≤ 50 ms)`);
  console.log(`header after the last save (${N.toLocaleString()} items): ${big.header.slice(0, 160)}`);
} finally {
  await browser.close();
}
