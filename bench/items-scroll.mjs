#!/usr/bin/env node
// The items explorer's table scrolled in Chromium at scale (issue 22 §7, "the table scrolls at one frame"):
//   node bench/items-scroll.mjs [--db bench/.data/items-10000000.db] [--project bench] [--frames 300]
// The database is one bench/items-scale.mjs made (`--keep` keeps it). It starts the browser host on it,
// opens the project's items table in Debian's Chromium, waits until the host has read the project's facts
// (its CPU idle for 5 s), and scrolls the table by a fixed distance each animation frame: 3 rows a frame
// (reading as it goes), then a screen's worth a frame (the rows arrive from the host as pages while it
// runs). Each frame's interval is recorded. The plain baseline, in the same browser: a page of 2,000 plain
// rows of the same height scrolled the same way (the floor of the machine's frames). Prints p50 / p95 /
// max of the intervals and the share of frames over 16.7 ms.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium, quantile, startHost, stopHost } from './lib/browser.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const arg = (name, fallback) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : fallback;
};
const dbPath = resolve(arg('--db', join(root, 'bench', '.data', 'items-10000000.db')));
const PROJECT = arg('--project', 'bench');
const FRAMES = Number(arg('--frames', '300'));
const ROW = 44;
if (!existsSync(dbPath)) {
  console.error(`No database at ${dbPath}: make one with node bench/items-scale.mjs --items N --keep.`);
  process.exit(1);
}

/** The child's CPU seconds so far (utime + stime from /proc). */
const cpuOf = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};

/** Waits until the process has used under 0.2 s of CPU in each of 5 one-second windows in a row (at most `limitS`). */
async function idle(pid, limitS) {
  const started = Date.now();
  let quiet = 0;
  let before = cpuOf(pid);
  while (quiet < 5 && Date.now() - started < limitS * 1000) {
    await new Promise((done) => setTimeout(done, 1000));
    const now = cpuOf(pid);
    quiet = now - before < 0.2 ? quiet + 1 : 0;
    before = now;
  }
  return (Date.now() - started) / 1000;
}

/** Scrolls the element `selector` by `step` px each animation frame for `frames` frames; the frames' intervals. */
const scrollFrames = (page, selector, step, frames) =>
  page.evaluate(
    ({ selector, step, frames }) =>
      new Promise((done) => {
        const el = document.querySelector(selector);
        const intervals = [];
        let last = 0;
        const tick = (now) => {
          intervals.push(now - last);
          last = now;
          el.scrollTop = el.scrollTop + step >= el.scrollHeight - el.clientHeight ? 0 : el.scrollTop + step;
          if (intervals.length < frames) requestAnimationFrame(tick);
          else done(intervals);
        };
        requestAnimationFrame((now) => {
          last = now;
          el.scrollTop += step;
          requestAnimationFrame(tick);
        });
      }),
    { selector, step, frames },
  );

const describe = (intervals) => {
  const over = intervals.filter((ms) => ms > 16.7 + 1).length;
  return `p50 ${quantile(intervals, 0.5).toFixed(1)} ms, p95 ${quantile(intervals, 0.95).toFixed(1)} ms, max ${Math.max(...intervals).toFixed(1)} ms, ${((100 * over) / intervals.length).toFixed(1)} % over a frame`;
};

const browser = await launchChromium();
const { child, url } = await startHost(join(root, 'bin', 'arbiter.mjs'), dbPath, dirname(dbPath));
try {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  await page.goto(url);
  await page.getByTestId('header').waitFor();
  let started = performance.now();
  await page.evaluate((h) => (location.hash = h), `#/p/${encodeURIComponent(PROJECT)}/items`);
  await page.getByTestId('explorer-row').first().waitFor({ timeout: 900_000 });
  console.log(`the items table's first rows (a first open reads the project's facts first): ${(performance.now() - started).toFixed(0)} ms`);
  started = performance.now();
  const waited = await idle(child.pid, 900);
  const count = await page.getByTestId('explorer-count').innerText();
  console.log(`the host idle after ${waited.toFixed(0)} s (the project's facts read); the table says "${count.replace(/\s+/g, ' ')}"`);
  const scroller = '[data-testid="explorer-scroller"]';
  const reading = await scrollFrames(page, scroller, 3 * ROW, FRAMES);
  const flinging = await scrollFrames(page, scroller, 20 * ROW, FRAMES);
  const pending = await page.getByTestId('explorer-row-pending').count();

  const plain = await context.newPage();
  await plain.setContent(
    `<div id="list" style="height:800px;overflow:auto;font:13px sans-serif">${Array.from({ length: 2000 }, (_, i) => `<div style="height:${ROW}px;display:flex;gap:12px;align-items:center;border-bottom:1px solid #ddd"><span>${i}</span><span>row ${i} of the plain list, a line of text as long as a prompt's first line</span></div>`).join('')}</div>`,
  );
  const plainReading = await scrollFrames(plain, '#list', 3 * ROW, FRAMES);
  const plainFlinging = await scrollFrames(plain, '#list', 20 * ROW, FRAMES);

  console.log(`scrolled 3 rows a frame, ${FRAMES} frames: the items table ${describe(reading)}`);
  console.log(`   plain list: ${describe(plainReading)}`);
  console.log(`scrolled 20 rows a frame, ${FRAMES} frames: the items table ${describe(flinging)} (rows still waiting for their page at the end: ${pending})`);
  console.log(`   plain list: ${describe(plainFlinging)}`);
} finally {
  await browser.close();
  await stopHost(child);
}
