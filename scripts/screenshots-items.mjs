#!/usr/bin/env node
// Screenshots of the items table for docs/screenshots/ (items-table-light.png, items-table-dark.png):
// the demo project with a few of maria's labels (two against the models' pre-label; a ranking, a chain's
// steps and a verdict) and a filter on.
// Separate from screenshots.mjs so the table can be shot alone, without the score job and the others.
// Usage: node scripts/screenshots-items.mjs   (after `npm run build`; CHROMIUM_PATH overrides /usr/bin/chromium)
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'docs', 'screenshots');
const home = mkdtempSync(join(tmpdir(), 'arbiter-shots-'));
const env = { ...process.env, ARBITER_HOME: home };
delete env.ARBITER_NO_DEMO;
mkdirSync(outDir, { recursive: true });

const host = spawn(process.execPath, [join(root, 'bin', 'arbiter.mjs'), 'serve', '--db', join(home, 'arbiter.db'), '--port', '0'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
let output = '';
const url = await new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error(`no URL from the host:\n${output}`)), 60_000);
  host.stdout.on('data', (chunk) => {
    output += chunk.toString();
    const match = /(http:\/\/127\.0\.0\.1:\d+\/\S*)/.exec(output);
    if (match) {
      clearTimeout(timer);
      resolve(match[1]);
    }
  });
  host.stderr.on('data', (c) => (output += c.toString()));
  host.once('exit', (code) => reject(new Error(`host exited with ${code}:\n${output}`)));
});
const origin = new URL(url).origin;
const token = new URLSearchParams(new URL(url).hash.slice(1)).get('token');
const api = async (name, input) => {
  const res = await fetch(`${origin}/api/${name}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-arbiter-token': token }, body: JSON.stringify(input) });
  const body = await res.json();
  if (!body.ok) throw new Error(`${name}: ${body.error?.message}`);
  return body.result;
};

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--font-render-hinting=none'],
});
const written = [];

async function shotTable({ theme, filter, name }) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, deviceScaleFactor: 1, colorScheme: theme });
  await context.addInitScript(([t, project, f]) => {
    localStorage.setItem('arbiter.annotator', 'maria');
    localStorage.setItem('arbiter.theme', t);
    sessionStorage.setItem(`arbiter.items.${project}`, JSON.stringify({ filter: f, order: 'first' }));
  }, [theme, demo, filter]);
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error('pageerror:', e.message));
  await page.goto(url);
  await page.getByTestId('header').waitFor();
  await page.evaluate((h) => (location.hash = h), `#/p/${encodeURIComponent(demo)}/datasets`);
  await page.getByTestId('item-row').first().waitFor();
  // The table's first rows fill the view; the cursor one row down shows the selection.
  await page.getByTestId('items-table').scrollIntoViewIfNeeded();
  await page.keyboard.press('j');
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(150);
  const file = join(outDir, `${name}.png`);
  await page.getByTestId('datasets').screenshot({ path: file });
  written.push(`${name}.png (${Math.round(statSync(file).size / 1024)} KB)`);
  await context.close();
}

let demo;
try {
  demo = (await api('listProjects', {}))[0]?.name;
  if (!demo) throw new Error('the host seeded no demo project');
  const { rows } = await api('listItems', { project: demo, limit: 40 });
  // maria labels every other item of the first twenty; two of them against the models.
  for (const row of rows.slice(0, 20).filter((_, i) => i % 2 === 0)) {
    const model = row.model?.vote;
    const against = row.seq === 4 || row.seq === 10;
    const choice = model === 'A' || model === 'B' ? (against ? (model === 'A' ? 'B' : 'A') : model) : 'tie';
    await api('saveLabel', { project: demo, annotator: 'maria', itemId: row.id, choice, strength: 2, shownOrder: [0, 1] });
  }
  for (const row of rows.slice(0, 6)) await api('saveLabel', { project: demo, annotator: 'lee', itemId: row.id, choice: 'A', shownOrder: [1, 0] });
  // And one judgement of every other task, so "labeled by you" shows a ranking, steps and a verdict too.
  const all = (await api('listItems', { project: demo, limit: 1000 })).rows;
  const id = (external) => all.find((r) => r.externalId === external).id;
  await api('saveRanking', { project: demo, annotator: 'maria', itemId: id('demo-rank-1'), ranking: [[2], [0, 1], [3]], shownOrder: [0, 1, 2, 3] });
  const chain = { project: demo, annotator: 'maria', itemId: id('demo-chain-1') };
  const { responses } = await api('getSteps', chain);
  const ratings = responses[0].steps.map((_, i) => (i < 2 ? 1 : i === 2 ? -1 : null));
  await api('saveSteps', { ...chain, response: 0, steps: { version: responses[0].version, ratings, firstError: 2 } });
  await api('saveVerdict', { project: demo, annotator: 'maria', itemId: id('demo-single-1'), verdict: 'good' });
  await shotTable({ theme: 'light', filter: 'labeled', name: 'items-table-light' });
  await shotTable({ theme: 'dark', filter: 'disagrees', name: 'items-table-dark' });
} finally {
  await browser.close();
  host.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 300));
  rmSync(home, { recursive: true, force: true });
}
console.log(`wrote to ${outDir}:\n  ${written.join('\n  ')}`);
