#!/usr/bin/env node
// The Python environment for the trainer checks (test/python/): a virtualenv in .venv-trl/ (git-ignored;
// ARBITER_TRL_VENV names another place) holding TRL, torch, transformers, datasets, accelerate and Pillow (the vision checks decode
// images), installed once by pip as this machine's pip is set up (local wheel folders included) and reused while it is there.
//
// It never fails a run: where Python, venv or the packages cannot be had, `trlEnv()` returns the sentence
// that says why, and the tests that need it are skipped with that sentence.
//
//   node scripts/python-env.mjs          prepare it (or say why not); exits 0 either way
//   import { trlEnv } from '…/python-env.mjs'
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const VENV = process.env.ARBITER_TRL_VENV || join(root, '.venv-trl');
export const PACKAGES = ['trl', 'torch', 'transformers', 'datasets', 'accelerate', 'pillow'];
// Module to import, and the distribution whose version the ready mark records.
const MODULES = [['trl', 'trl'], ['torch', 'torch'], ['transformers', 'transformers'], ['datasets', 'datasets'], ['accelerate', 'accelerate'], ['tokenizers', 'tokenizers'], ['PIL', 'pillow']];
const READY = '.arbiter-ready';
const MIN_PYTHON = [3, 10]; // TRL 1.x needs 3.10 or later

const pythonIn = (dir) => (process.platform === 'win32' ? join(dir, 'Scripts', 'python.exe') : join(dir, 'bin', 'python'));

/** The last meaningful line a failed command printed (pip's ERROR line first), for the sentence that says why. */
function lastLine(result) {
  if (result.error) return result.error.code === 'ETIMEDOUT' ? 'it ran past its time limit' : result.error.code === 'ENOENT' ? 'not found on the PATH' : result.error.message;
  const lines = `${result.stderr ?? ''}\n${result.stdout ?? ''}`.split('\n').map((l) => l.trim()).filter(Boolean);
  return lines.find((l) => l.startsWith('ERROR:')) ?? lines.at(-1) ?? `exit code ${result.status}`;
}

function run(command, args, timeoutMs) {
  return spawnSync(command, args, { encoding: 'utf8', timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: '1' } });
}

/**
 * The venv's Python when it is ready: `{ python, versions }`; else `{ python: null, reason }`.
 * With `install` (the default) a missing venv is made first (about a minute from local wheels).
 */
export function trlEnv({ install = true, log = () => {} } = {}) {
  const python = pythonIn(VENV);
  if (existsSync(join(VENV, READY)) && existsSync(python)) {
    const versions = readFileSync(join(VENV, READY), 'utf8').trim();
    const missing = MODULES.filter(([, dist]) => !versions.split(' ').includes(dist));
    if (!missing.length || !install) return { python, versions };
    // A venv made before a package joined the list (Pillow, for the vision checks): add what it lacks.
    log(`Adding ${missing.map(([, dist]) => dist).join(', ')} to the Python environment in ${VENV}…`);
    const pip = run(python, ['-m', 'pip', 'install', '--quiet', '--retries', '0', '--timeout', '30', ...missing.map(([, dist]) => dist)], 10 * 60_000);
    if (pip.status !== 0) return { python, versions };
    const check = run(python, ['-c', checkScript()], 300_000);
    if (check.status === 0) writeFileSync(join(VENV, READY), `${check.stdout.trim()}\n`);
    return { python, versions: check.status === 0 ? check.stdout.trim() : versions };
  }
  if (!install) return { python: null, reason: `the Python environment for the TRL checks is not prepared (run node scripts/python-env.mjs)` };

  const base = process.env.ARBITER_PYTHON || (process.platform === 'win32' ? 'python' : 'python3');
  const probe = run(base, ['-c', 'import sys; print("%d.%d" % sys.version_info[:2])'], 30_000);
  if (probe.status !== 0) return { python: null, reason: `no Python was found (${base}: ${lastLine(probe)})` };
  const version = probe.stdout.trim();
  const [major, minor] = version.split('.').map(Number);
  if (major < MIN_PYTHON[0] || (major === MIN_PYTHON[0] && minor < MIN_PYTHON[1])) return { python: null, reason: `${base} is Python ${version}; TRL needs ${MIN_PYTHON.join('.')} or later` };

  // Built beside the final place and renamed when whole, so a run killed half-way leaves no half venv.
  const building = `${VENV}.building-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  const fail = (reason) => (rmSync(building, { recursive: true, force: true }), { python: null, reason });
  log(`Making the Python environment for the TRL checks in ${VENV} (Python ${version})…`);
  const venv = run(base, ['-m', 'venv', building], 120_000);
  if (venv.status !== 0) return fail(`${base} -m venv failed: ${lastLine(venv)}`);
  // --retries 0: a registry this machine cannot reach is given up at once, not retried for minutes per package.
  const pip = run(pythonIn(building), ['-m', 'pip', 'install', '--quiet', '--retries', '0', '--timeout', '30', ...PACKAGES], 20 * 60_000);
  if (pip.status !== 0) return fail(`pip could not install ${PACKAGES.join(', ')} for Python ${version}: ${lastLine(pip)}`);
  const check = run(pythonIn(building), ['-c', checkScript()], 300_000);
  if (check.status !== 0) return fail(`the installed packages do not import: ${lastLine(check)}`);
  writeFileSync(join(building, READY), `${check.stdout.trim()}\n`);
  if (existsSync(join(VENV, READY))) {
    rmSync(building, { recursive: true, force: true }); // another run made it meanwhile
  } else {
    rmSync(VENV, { recursive: true, force: true });
    renameSync(building, VENV);
  }
  return { python, versions: check.stdout.trim() };
}

/** Imports every module and prints "dist version" for each: the ready mark's line. */
function checkScript() {
  const dists = MODULES.map(([, dist]) => dist);
  return `import importlib.metadata as m; import ${MODULES.map(([module]) => module).join(', ')}; print(' '.join(p + ' ' + m.version(p) for p in ${JSON.stringify(dists)}))`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const started = Date.now();
  const env = trlEnv({ log: (line) => console.log(line) });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (env.python) console.log(`Python environment for the TRL checks: ${VENV} (${env.versions}; ${seconds} s)`);
  else console.log(`The TRL checks will be skipped: ${env.reason} (${seconds} s).`);
}
