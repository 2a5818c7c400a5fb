#!/usr/bin/env node
// Screenshots of each screen for docs/screenshots/: starts the browser host on a fresh database with
// the demo project, drives Debian's Chromium with playwright-core, and writes one PNG per view.
// Usage: node scripts/screenshots.mjs [name…]   (after `npm run build`; CHROMIUM_PATH overrides
// /usr/bin/chromium). Names (compare-diff, models, …) write only those files and leave the others as they are.
import { spawn } from 'node:child_process';
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'docs', 'screenshots');
const home = mkdtempSync(join(tmpdir(), 'arbiter-shots-'));
const bin = process.env.ARBITER_E2E_BIN ?? join(root, 'bin', 'arbiter.mjs');
const env = { ...process.env, ARBITER_HOME: home };
delete env.ARBITER_NO_DEMO;

mkdirSync(outDir, { recursive: true });
const host = spawn(process.execPath, [bin, 'serve', '--db', join(home, 'arbiter.db'), '--port', '0'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
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
const only = new Set(process.argv.slice(2).map((name) => name.replace(/\.png$/, '')));
const wants = (...names) => only.size === 0 || names.some((name) => only.has(name));

async function open({ width = 1440, height = 900, theme = 'light', annotator = 'maria' } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: 1, colorScheme: theme });
  await context.addInitScript(([a, t]) => {
    localStorage.setItem('arbiter.annotator', a);
    localStorage.setItem('arbiter.theme', t);
  }, [annotator, theme]);
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error('pageerror:', e.message));
  await page.goto(url);
  await page.getByTestId('header').waitFor();
  return page;
}

async function shot(page, name) {
  if (!wants(name)) return;
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(150);
  const file = join(outDir, `${name}.png`);
  await page.screenshot({ path: file });
  written.push(`${name}.png (${Math.round(statSync(file).size / 1024)} KB)`);
}

const SUPPORT_ITEM = {
  id: 'ticket-4471',
  prompt: [
    { role: 'system', content: 'You are the support assistant for Northwind Internet. Be exact about plans, prices and fees.' },
    {
      role: 'user',
      content:
        'Hi, I moved house last month and my bill went up from $45 to $62. I was on Basic 100 for two years and nothing else changed. I booked the move on 3 March for 12 March, like the website said, and I was also charged a $60 moving fee.',
    },
    {
      role: 'assistant',
      content:
        'Sorry about the surprise on your bill. A move starts a new service address, and that can end a promotional price. I can see Basic 100 at your new address from 12 March, at the standard $62 a month, and a one-off moving fee of $60.',
    },
    { role: 'user', content: 'OK. So can I get the old price back, and do I really have to pay the moving fee?' },
  ],
  responses: [
    {
      text: 'Yes to both, most likely.\n\n**Price.** Customers with us for over two years keep the Basic 100 loyalty price of **$45 a month** after a move, but it is not applied automatically. Reply with your account number and I will request it.\n\n**Moving fee.** The $60 fee is waived when you move within our coverage area and book the transfer at least 7 days ahead. You booked on 3 March for 12 March, so it should not have been charged; I will ask billing to refund it.\n\n- Loyalty price: $45 a month, from your next bill\n- Moving fee: refunded within 5 working days',
      model: 'support-v7',
    },
    {
      text: 'Yes to the price, no to the fee.\n\n**Price.** Customers with us for over a year keep the Basic 100 loyalty price of **$45 a month** after a move, and it is applied automatically. Reply with your account number if it does not appear.\n\n**Moving fee.** The $60 fee is waived only when you move within our coverage area and book the transfer at least 14 days ahead. You booked on 3 March for 12 March, so the fee applies.\n\n- Loyalty price: $45 a month, from your next bill\n- Moving fee: $60, on this bill',
      model: 'support-v8',
    },
  ],
};

try {
  const projects = await api('listProjects', {});
  const demo = projects[0]?.name;
  if (!demo) throw new Error('the host seeded no demo project');
  const { rows } = await api('listItems', { project: demo, limit: 100 });
  const bySeq = (seq) => rows.find((r) => r.seq === seq).id;
  const compareUrl = (itemId) => `#/p/${encodeURIComponent(demo)}${itemId ? `/item/${itemId}` : ''}`;

  // Start screen.
  let page = await open();
  await page.getByTestId('project-row').first().waitFor();
  await shot(page, 'start');

  // Compare, light: label the first pair from the keyboard so the decision bar shows the saved label.
  await page.evaluate((h) => (location.hash = h), compareUrl());
  await page.getByTestId('response-body-left').waitFor();
  await page.keyboard.press('Shift+1');
  await page.getByTestId('status-text').and(page.locator('[data-state="saved"]')).waitFor();
  await page.getByText('def fib').first().waitFor();
  await shot(page, 'compare-light');

  // Shortcuts overlay over the compare screen.
  await page.keyboard.press('?');
  await page.getByTestId('shortcuts').waitFor();
  await shot(page, 'shortcuts');
  await page.close();

  // Compare, dark, on a longer item.
  page = await open({ theme: 'dark' });
  await page.evaluate((h) => (location.hash = h), compareUrl(bySeq(12)));
  await page.getByTestId('response-body-left').waitFor();
  await page.keyboard.press('s');
  await shot(page, 'compare-dark');
  await page.close();

  // Compare, narrow window: the columns stack; an item with math.
  page = await open({ width: 900, height: 1000 });
  await page.evaluate((h) => (location.hash = h), compareUrl(bySeq(5)));
  await page.locator('.katex').first().waitFor();
  await shot(page, 'compare-narrow');
  await page.close();

  // Datasets: import preview of a TRL file.
  page = await open();
  await page.evaluate((h) => (location.hash = h), `#/p/${encodeURIComponent(demo)}/datasets`);
  await page.getByTestId('import-panel').waitFor();
  const trl = join(home, 'helpfulness-batch-07.jsonl');
  const pairs = [
    ['How do I reverse a list in Python?', 'Use `my_list[::-1]` for a reversed copy, or `my_list.reverse()` to reverse it in place.', 'Call reversed(my_list).'],
    ['What is the boiling point of water at sea level?', '100 °C (212 °F) at standard atmospheric pressure.', 'About 90 °C.'],
    ['Suggest a name for a grey cat.', 'Ash, Smokey or Pebble.', 'Dog.'],
    ['Convert 5 km to miles.', '5 km ≈ 3.11 miles (1 km ≈ 0.621 mi).', '5 km is 8 miles.'],
    ['Give one tip for better sleep.', 'Keep a fixed wake-up time, even at weekends.', 'Drink coffee before bed.'],
  ];
  writeFileSync(trl, pairs.map(([prompt, chosen, rejected]) => JSON.stringify({ prompt, chosen, rejected })).join('\n') + '\n');
  await page.getByTestId('import-file').setInputFiles(trl);
  await page.getByTestId('import-preview').waitFor();
  await shot(page, 'import-preview');

  // Import it, then export: the summary with what was skipped and where the file went.
  await page.getByTestId('import-button').click();
  await page.getByTestId('import-result').waitFor();
  await page.getByTestId('export-format').selectOption('trl');
  await page.getByTestId('export-button').click();
  await page.getByTestId('export-summary').waitFor();
  await shot(page, 'export-summary');

  // A malformed file: every bad line named.
  const bad = join(home, 'batch-08.jsonl');
  writeFileSync(
    bad,
    [
      JSON.stringify({ prompt: 'Ok?', chosen: 'Yes.', rejected: 'No.' }),
      '{"prompt": "cut off", "chosen": ',
      JSON.stringify({ prompt: 'Missing rejected', chosen: 'Only one side.' }),
      JSON.stringify({ prompt: 'Fine', chosen: 'A', rejected: 'B' }),
      JSON.stringify({ prompt: '', chosen: 'A', rejected: 'B' }),
    ].join('\n') + '\n',
  );
  await page.getByTestId('import-file').setInputFiles(bad);
  await page.getByTestId('import-detected').getByText(/Detected|not recognised/).waitFor();
  await page.getByTestId('import-format').selectOption('trl');
  await page.getByTestId('import-button').click();
  await page.getByTestId('import-failure').waitFor();
  await shot(page, 'import-errors');
  await page.close();

  // Going back to a labeled item: the choice is highlighted and the file's own label is shown.
  page = await open();
  const imported = (await api('listItems', { project: demo, offset: 50, limit: 10 })).rows;
  await page.evaluate((h) => (location.hash = h), compareUrl(imported[0].id));
  await page.getByTestId('response-body-left').waitFor();
  await page.keyboard.press('2');
  await page.getByTestId('status-text').and(page.locator('[data-state="saved"]')).waitFor();
  await page.keyboard.press('ArrowLeft');
  await page.getByTestId('current-label').waitFor();
  await shot(page, 'compare-labeled');
  await page.close();

  // Blind mode: nothing from the models before the choice; right after it, what they said and
  // whether they agree.
  page = await open();
  await page.evaluate((h) => (location.hash = h), compareUrl(bySeq(3)));
  await page.getByTestId('response-body-left').waitFor();
  await page.keyboard.press('1');
  await page.getByTestId('prelabel-reveal').waitFor();
  await page.getByTestId('status-text').and(page.locator('[data-state="saved"]')).waitFor();
  await shot(page, 'compare-prelabel-revealed');
  await page.close();

  // Assist mode: the suggestion up front (accept with a), each model's vote, the ensemble, and the
  // process model's per-step scores on each response.
  page = await open();
  await page.evaluate((h) => (location.hash = h), compareUrl(bySeq(10)));
  await page.getByTestId('response-body-left').waitFor();
  await page.getByTestId('prelabels-assist').click();
  await page.getByTestId('prelabels-switch').click(); // the switch asks first: every annotator sees it
  await page.getByTestId('accept-suggestion').waitFor();
  await page.getByTestId('steps-left').waitFor();
  await shot(page, 'compare-assist');
  await api('updateProjectSettings', { project: demo, settings: { prelabels: 'blind' } });
  await page.close();

  // A support chat: the fold keeps the customer's last question in view and folds the earlier turns
  // into one line; then the diff view (w) marks what only one reply says.
  const support = 'Support replies';
  await api('importContent', { project: support, fileName: 'support-batch-03.jsonl', content: JSON.stringify(SUPPORT_ITEM) + '\n', format: 'arbiter', createProject: true });
  const supportHash = `#/p/${encodeURIComponent(support)}`;
  for (const theme of ['light', 'dark']) {
    if (!wants('compare-chat-fold', `compare-diff${theme === 'dark' ? '-dark' : ''}`)) continue;
    page = await open({ theme, height: 860 });
    await page.evaluate((h) => (location.hash = h), supportHash);
    await page.getByTestId('prompt-earlier-folded').waitFor();
    if (theme === 'light') await shot(page, 'compare-chat-fold');
    await page.keyboard.press('w');
    await page.getByTestId('diff-left').waitFor();
    await shot(page, theme === 'light' ? 'compare-diff' : 'compare-diff-dark');
    await page.close();
  }

  // The slow part (3,000 items scored): only when its pictures are wanted.
  if (wants('models', 'scoring-progress')) {
    // Models: the two demo models, and what inspecting a folder found.
    const folder = join(home, 'math-prm-onnx');
    cpSync(join(root, 'resources', 'models', 'demo-process'), folder, { recursive: true });
    appendFileSync(join(folder, 'config.json'), '\n'); // a different file set, so not "already added"
    page = await open({ height: 1100 });
    await page.evaluate((h) => (location.hash = h), `#/p/${encodeURIComponent(demo)}/models`);
    await page.getByTestId('model-row').first().waitFor();
    await page.getByTestId('model-dir').fill(folder);
    await page.getByTestId('model-dir').press('Enter');
    await page.getByTestId('inspection').waitFor();
    await page.getByTestId('provider').first().waitFor();
    await shot(page, 'models');

    // A score job running in the background: progress, rates, ETA, cancel.
    const bulk = 'Helpfulness batch 09';
    const topics = ['a sorting algorithm', 'the water cycle', 'compound interest', 'photosynthesis', 'TCP handshakes', 'the French revolution'];
    const lines = [];
    for (let i = 0; i < 3000; i++) {
      const topic = topics[i % topics.length];
      const step = (n) => `Step ${n}: consider ${topic} from angle ${n} and explain the consequence carefully. `;
      lines.push(JSON.stringify({ prompt: `Explain ${topic} (variant ${i}).`, chosen: [1, 2, 3, 4].map(step).join(''), rejected: [1, 2].map(step).join('') + 'So the answer is 42.' }));
    }
    await api('importContent', { project: bulk, fileName: 'batch-09.jsonl', content: lines.join('\n') + '\n', createProject: true });
    await page.evaluate((h) => (location.hash = h), `#/p/${encodeURIComponent(bulk)}/models`);
    await page.getByTestId('score-start').waitFor();
    await page.getByTestId('score-batch').fill('4');
    await page.getByTestId('score-start').click();
    await page.waitForFunction(() => {
      const text = document.querySelector('[data-testid="job-progress"]')?.textContent ?? '';
      const done = Number((/^([\d,]+)/.exec(text)?.[1] ?? '0').replace(/,/g, ''));
      return done > 300 && /ETA \d/.test(text);
    });
    await shot(page, 'scoring-progress');
    await page.getByTestId('job-cancel').click();
    await page.locator('[data-testid="job"][data-state="cancelled"]').waitFor();
    await page.close();
  }
  // The step screen: a chain rated up to its first error (tag, correction, result), the process model's
  // scores revealed beside the ratings (blind mode, after the first error); dark with the tag picker open.
  if (wants('steps-light', 'steps-dark')) {
    const chains = 'Math chains (PRM)';
    const steps = [
      'Step 1: The function is a parabola that opens upwards, since the coefficient of $x^2$ is positive.',
      'Step 2: Its vertex is at $x = -\\frac{b}{2a} = \\frac{6}{2} = 3$, which lies inside $[0, 4]$.',
      'Step 3: So the minimum on the interval is reached at the vertex, $x = 3$.',
      'Step 4: $f(3) = 3^2 - 6 \\cdot 3 + 5 = 9 - 18 + 5 = -3$.',
      'Step 5: Check the endpoints: $f(0) = 5$ and $f(4) = 16 - 24 + 5 = -3$.',
      'Step 6: Both endpoints are at least $-3$, so nothing on $[0, 4]$ is lower.',
      'Step 7: **Answer:** the minimum is $-3$, reached at $x = 3$ (and at $x = 4$).',
    ];
    const chain = {
      id: 'prm-quadratic-017',
      prompt: 'Let $f(x) = x^2 - 6x + 5$. Find the minimum value of $f$ on the interval $[0, 4]$, and every $x$ where it is reached.',
      responses: [{ text: steps.join('\n'), model: 'math-sft-7b' }],
      reference: 'The minimum is $-4$, reached only at $x = 3$.',
    };
    await api('importContent', { project: chains, fileName: 'prm-batch-02.jsonl', content: JSON.stringify(chain) + '\n', format: 'arbiter', createProject: true });
    const job = await api('startScoring', { project: chains });
    for (let i = 0; i < 600 && (await api('listJobs', {})).find((j) => j.id === job.id)?.state === 'running'; i++) await new Promise((r) => setTimeout(r, 100));
    const stepsHash = `#/p/${encodeURIComponent(chains)}/steps`;
    for (const theme of ['light', 'dark']) {
      if (!wants(`steps-${theme}`)) continue;
      page = await open({ theme, annotator: theme === 'light' ? 'maria' : 'jun' });
      await page.evaluate((h) => (location.hash = h), stepsHash);
      await page.getByTestId('step-list').waitFor();
      await page.locator('.katex').first().waitFor();
      for (const key of ['=', '=', '=', 'f', 't', 'Enter', 'Escape', 'c']) await page.keyboard.press(key);
      await page.getByTestId('correction-input').fill('$f(3) = 9 - 18 + 5 = -4$, so the minimum is $-4$.');
      await page.keyboard.press('Escape');
      for (const key of ['o', 'o', 'r', 'r']) await page.keyboard.press(key);
      await page.getByTestId('models-shown').waitFor();
      await page.getByTestId('status-text').and(page.locator('[data-state="saved"]')).waitFor();
      if (theme === 'dark') {
        await page.keyboard.press('t');
        await page.getByTestId('tag-picker').waitFor();
        await page.keyboard.press('ArrowDown');
      }
      await shot(page, `steps-${theme}`);
      await page.close();
    }
  }
} finally {
  await browser.close();
  host.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 300));
  rmSync(home, { recursive: true, force: true });
}
console.log(`wrote to ${outDir}:\n  ${written.join('\n  ')}`);
