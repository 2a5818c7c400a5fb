#!/usr/bin/env node
// A new user's first hour, in screenshots, light and dark: the project list with progress per task, the
// screen each kind of project opens on (the demo, a chain project, single answers), the empty screens, an
// unknown address and the Datasets screen. Starts the browser host on a fresh database with the demo.
// Usage: node scripts/screenshots-first-hour.mjs [--out DIR]   (after `npm run build`; default /tmp/arbiter-first-hour)
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outAt = process.argv.indexOf('--out');
const outDir = outAt > 0 ? process.argv[outAt + 1] : join(tmpdir(), 'arbiter-first-hour');
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
const importItems = (project, items) =>
  api('importContent', { project, fileName: `${project}.jsonl`, content: items.map((i) => JSON.stringify(i)).join('\n') + '\n', format: 'arbiter', createProject: true });

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--font-render-hinting=none'],
});
const written = [];

async function open(theme) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, deviceScaleFactor: 1, colorScheme: theme });
  await context.addInitScript(([t]) => {
    localStorage.setItem('arbiter.annotator', 'maria');
    localStorage.setItem('arbiter.theme', t);
  }, [theme]);
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error('pageerror:', e.message));
  await page.goto(url);
  await page.getByTestId('header').waitFor();
  return page;
}

async function shot(page, name, hash, testid) {
  await page.evaluate((h) => (location.hash = h), hash);
  await page.getByTestId(testid).first().waitFor();
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(250);
  const file = join(outDir, `${name}.png`);
  await page.screenshot({ path: file });
  written.push(file);
}

try {
  const demo = (await api('listProjects', {}))[0].name;
  const chain = (n) => ({ id: `gsm-${n}`, prompt: `Tom has ${n} boxes of 12 eggs and uses 5. How many are left?`, responses: [{ text: '', steps: [`${n} × 12 = ${12 * n} eggs.`, `${12 * n} − 5 = ${12 * n - 5}.`, `# Answer\n\n${12 * n - 5}`] }].map((r) => ({ ...r, text: r.steps.join('\n') })), reference: String(12 * n - 5) });
  await importItems('gsm8k chains', [2, 3, 4, 5, 6].map(chain));
  await importItems('kto answers', [1, 2, 3].map((n) => ({ id: `a${n}`, prompt: `Capital of country ${n}?`, responses: [{ text: `City ${n}.` }] })));
  await importItems('pairs only', [1, 2].map((n) => ({ id: `pair-${n}`, prompt: `Pair ${n}`, responses: [{ text: 'One answer.' }, { text: 'Another answer.' }] })));
  await api('createProject', { name: 'empty' });
  const p = (name, rest = '') => `#/p/${encodeURIComponent(name)}${rest}`;
  for (const theme of ['light', 'dark']) {
    const page = await open(theme);
    await shot(page, `projects-${theme}`, '#/', 'project-row');
    await shot(page, `demo-opens-${theme}`, p(demo), 'compare');
    await shot(page, `chains-open-${theme}`, p('gsm8k chains'), 'steps-screen');
    await shot(page, `answers-open-${theme}`, p('kto answers'), 'verdict-screen');
    await shot(page, `empty-compare-${theme}`, p('gsm8k chains', '/compare'), 'empty-state');
    await shot(page, `empty-rank-${theme}`, p('kto answers', '/rank'), 'empty-state');
    await shot(page, `empty-steps-${theme}`, p('pairs only', '/steps'), 'empty-state');
    await shot(page, `empty-project-${theme}`, p('empty', '/compare'), 'empty-state');
    await shot(page, `no-such-page-${theme}`, p(demo, '/nope'), 'no-such-page');
    await shot(page, `datasets-${theme}`, p(demo, '/datasets'), 'items-table');
    await page.context().close();
  }
  console.log(`wrote ${written.length} screenshots:\n${written.join('\n')}`);
} finally {
  await browser.close();
  host.kill();
  rmSync(home, { recursive: true, force: true });
}
