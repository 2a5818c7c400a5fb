#!/usr/bin/env node
// Entry point of the `arbiter` command: runs the built CLI, building the Node side first if needed.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { spawnSync } from 'node:child_process';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'out', 'node', 'cli.mjs');
if (!existsSync(cli)) {
  const built = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--node-only'], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
// `arbiter … | head` closes the pipe early; that is the reader's choice, not an error.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});
const { runCli } = await import(pathToFileURL(cli).href);
const code = await runCli(process.argv.slice(2));
process.exitCode = code;
