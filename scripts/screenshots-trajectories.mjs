#!/usr/bin/env node
// Screenshots of agent trajectories for docs/screenshots/: the step screen with a coding agent's run
// (trajectory-light.png, trajectory-dark.png: turns rated up to a failing test run marked the first
// error), a long tool result folded with its size (trajectory-folded.png), a code edit as a red / green
// diff (trajectory-diff.png), and two runs of one task side by side on the compare screen
// (trajectory-compare.png). The trajectories come from scripts/lib/trajectories.mjs.
// Usage: node scripts/screenshots-trajectories.mjs   (after `npm run build`; CHROMIUM_PATH overrides /usr/bin/chromium)
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { agentRun, taskLine } from './lib/trajectories.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'docs', 'screenshots');
const home = mkdtempSync(join(tmpdir(), 'arbiter-shots-'));
const db = join(home, 'arbiter.db');
const env = { ...process.env, ARBITER_HOME: home, ARBITER_NO_DEMO: '1' };
const bin = join(root, 'bin', 'arbiter.mjs');
const PROJECT = 'agent runs';
mkdirSync(outDir, { recursive: true });

// One task run once (the step screen), and the same task run twice (the compare screen).
const file = join(home, 'runs.jsonl');
const lines = [
  taskLine('timedelta-rounding', [agentRun({ seed: 7, turns: 14, failAt: 6 })]),
  taskLine('timedelta-rounding-pair', [agentRun({ seed: 3, turns: 9, failAt: 5 }), agentRun({ seed: 11, turns: 8, failAt: 99 })]),
];
writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
const imported = spawnSync(process.execPath, [bin, 'import', file, '--project', PROJECT, '--db', db, '--format', 'arbiter-trajectory'], { env, encoding: 'utf8' });
if (imported.status !== 0) throw new Error(imported.stderr || imported.stdout);

const host = spawn(process.execPath, [bin, 'serve', '--db', db, '--port', '0'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
let output = '';
const url = await new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error(`no URL from the host:\n${output}`)), 60_000);
  const onData = (chunk) => {
    output += chunk.toString();
    const match = /(http:\/\/127\.0\.0\.1:\d+\/\S*)/.exec(output);
    if (match) {
      clearTimeout(timer);
      resolve(match[1]);
    }
  };
  host.stdout.on('data', onData);
  host.stderr.on('data', onData);
  host.once('exit', (code) => reject(new Error(`host exited with ${code}:\n${output}`)));
});

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--font-render-hinting=none'],
});
const written = [];

async function open(theme, hash) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, deviceScaleFactor: 1, colorScheme: theme });
  await context.addInitScript((t) => {
    localStorage.setItem('arbiter.annotator', 'maria');
    localStorage.setItem('arbiter.theme', t);
  }, theme);
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error('pageerror:', e.message));
  await page.goto(url);
  await page.getByTestId('header').waitFor();
  await page.evaluate((h) => (location.hash = h), hash);
  return { context, page };
}

async function shoot(page, name) {
  await page.evaluate(() => document.fonts.ready);
  // Let a smooth scroll and the virtual list's measuring settle.
  await page.waitForTimeout(400);
  const path = join(outDir, `${name}.png`);
  await page.screenshot({ path });
  written.push(`${name}.png (${Math.round(statSync(path).size / 1024)} KB)`);
}

const current = (page) => page.locator('[data-testid="step"][data-current="true"]').getAttribute('data-index').then(Number);
async function goTo(page, index) {
  while ((await current(page)) < index) await page.keyboard.press('j');
  while ((await current(page)) > index) await page.keyboard.press('k');
}

const origin = new URL(url).origin;
const token = new URLSearchParams(new URL(url).hash.slice(1)).get('token');
const api = async (name, input) => {
  const res = await fetch(`${origin}/api/${name}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-arbiter-token': token }, body: JSON.stringify(input) });
  const body = await res.json();
  if (!body.ok) throw new Error(`${name}: ${body.error?.message}`);
  return body.result;
};

try {
  const { rows } = await api('listItems', { project: PROJECT });
  const single = rows.find((r) => r.externalId === 'timedelta-rounding').id;
  // By its address: once rated, the screen would open on the next item without labels.
  const steps = `#/p/${encodeURIComponent(PROJECT)}/steps/item/${single}`;
  {
    const { context, page } = await open('light', steps);
    await page.getByTestId('turn-card').first().waitFor();
    // Turn 10 reads a file: its lines folded to the first six, with its size.
    await goTo(page, 9);
    await shoot(page, 'trajectory-folded');
    // Turn 5 edits code: old → new as a diff.
    await goTo(page, 4);
    await shoot(page, 'trajectory-diff');
    await context.close();
  }
  // The step screen: turns 1–6 rated +1 (one neutral), the failing test run (turn 7) the first error.
  for (const theme of ['light', 'dark']) {
    const { context, page } = await open(theme, steps);
    await page.getByTestId('turn-card').first().waitFor();
    if (theme === 'light') {
      for (const key of ['=', '=', '0', '=', '=', '=']) await page.keyboard.press(key);
      await page.keyboard.press('f');
      await page.getByTestId('status-text').filter({ hasText: 'saved' }).waitFor();
    }
    await goTo(page, 6);
    await shoot(page, `trajectory-${theme}`);
    await context.close();
  }
  {
    const { context, page } = await open('light', `#/p/${encodeURIComponent(PROJECT)}/compare`);
    await page.getByTestId('response-right').getByTestId('turn-card').first().waitFor();
    await shoot(page, 'trajectory-compare');
    await context.close();
  }
  console.log(`wrote to docs/screenshots/: ${written.join(', ')}`);
} finally {
  await browser.close();
  host.kill('SIGTERM');
  await new Promise((r) => host.once('exit', r));
  rmSync(home, { recursive: true, force: true });
}
