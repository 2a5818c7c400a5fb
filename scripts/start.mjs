#!/usr/bin/env node
// `npm start`: build if needed, open the Electron app; where Electron cannot start, say why and serve
// the same app to the browser on 127.0.0.1 instead.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const SOURCE_DIRS = ['shared', 'electron', 'renderer', 'migrations'];

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

function ensureBuilt() {
  const stamp = join(root, 'out', '.build-stamp');
  const built = existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
  const sources = Math.max(...SOURCE_DIRS.map((d) => newestMtime(join(root, d))));
  if (built >= sources) return;
  console.log('Building Arbiter…');
  const result = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** Returns the Electron binary path, or the reason there is none. */
function findElectron() {
  try {
    const path = require('electron');
    if (typeof path === 'string' && existsSync(path)) return { path };
    return { reason: 'the electron package is present but its binary is not' };
  } catch (error) {
    return { reason: `the Electron binary is not installed (${String(error.message).split('\n')[0]}); it downloads during npm install on machines with internet` };
  }
}

/**
 * better-sqlite3 is compiled for Node's ABI; Electron needs its own build. Keep a copy of the module
 * built for Electron under .cache/ so the CLI and tests keep using the Node build.
 */
function electronSqliteBinding(electronPath) {
  const version = spawnSync(electronPath, ['--version'], { encoding: 'utf8', env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' } }).stdout?.trim().replace(/^v/, '');
  if (!version) return { reason: 'Electron did not report its version (it may not run on this machine)' };
  const dir = join(root, '.cache', `electron-${version}`, 'better-sqlite3');
  const binding = join(dir, 'build', 'Release', 'better_sqlite3.node');
  if (existsSync(binding)) return { binding };
  cpSync(join(root, 'node_modules', 'better-sqlite3'), dir, { recursive: true });
  const prebuild = join(root, 'node_modules', '.bin', 'prebuild-install');
  const fetched = spawnSync(prebuild, ['--runtime', 'electron', '--target', version], { cwd: dir, stdio: 'inherit' });
  if (fetched.status === 0 && existsSync(binding)) return { binding };
  return { reason: `could not get better-sqlite3 built for Electron ${version} (prebuild-install failed; it needs internet once)` };
}

function serveInBrowser(reason) {
  console.log(`Electron cannot start here: ${reason}.`);
  console.log('Serving the same app in your browser instead.');
  const cli = spawn(process.execPath, [join(root, 'bin', 'arbiter.mjs'), 'serve', ...process.argv.slice(2)], { stdio: 'inherit' });
  cli.on('exit', (code) => process.exit(code ?? 0));
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => cli.kill(signal));
}

ensureBuilt();
// A first launch opens the demo project it makes, ready to label (electron/core/service/openApp.ts).
process.env.ARBITER_OPEN_DEMO ??= '1';
if (process.env.ARBITER_BROWSER === '1') serveInBrowser('ARBITER_BROWSER=1 asks for the browser host');
else {
  const electron = findElectron();
  if (!electron.path) serveInBrowser(electron.reason);
  else if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) serveInBrowser('there is no display (DISPLAY and WAYLAND_DISPLAY are unset)');
  else {
    const sqlite = electronSqliteBinding(electron.path);
    if (!sqlite.binding) serveInBrowser(sqlite.reason);
    else {
      const started = Date.now();
      const child = spawn(electron.path, [join(root, 'out', 'electron', 'main.cjs')], {
        stdio: 'inherit',
        env: { ...process.env, ARBITER_SQLITE_BINDING: sqlite.binding },
      });
      child.on('exit', (code) => {
        // A crash within seconds of launch means this machine cannot run Electron; fall back.
        if (code !== 0 && Date.now() - started < 5000) serveInBrowser(`Electron exited with code ${code} at start-up`);
        else process.exit(code ?? 0);
      });
    }
  }
}
