// What the Chromium benches share: the browser host started on a database (`arbiter serve`), Debian's
// Chromium launched as the tests launch it, and quantiles.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

/** `arbiter serve --db dbPath` on a free port; resolves with the child and the URL it printed. */
export function startHost(bin, dbPath, home) {
  const child = spawn(process.execPath, [bin, 'serve', '--db', dbPath, '--port', '0'], {
    env: { ...process.env, ARBITER_NO_DEMO: '1', ARBITER_HOME: join(home, 'home') },
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

export async function stopHost(child) {
  child.kill('SIGTERM');
  await once(child, 'exit');
}

export function launchChromium() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

export const quantile = (values, q) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))];
