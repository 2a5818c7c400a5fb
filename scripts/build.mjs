#!/usr/bin/env node
// Builds Arbiter: the renderer with Vite, the Node side (CLI, host, Electron main and preload, workers)
// with esbuild. `--node-only` skips the renderer (the CLI needs no UI).
import { build } from 'esbuild';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const nodeOnly = process.argv.includes('--node-only');
// Native modules load their own binaries (sharp: libvips, in @img/sharp-<platform>): never bundled.
const external = ['electron', 'better-sqlite3', 'onnxruntime-node', 'sharp', 'node-llama-cpp'];
const common = { bundle: true, platform: 'node', target: 'node20', sourcemap: true, external, logLevel: 'warning', absWorkingDir: root };
// ESM bundles still meet CommonJS code that calls require(); give them one.
const esmBanner = { js: "import { createRequire as __arbiterCreateRequire } from 'node:module'; const require = __arbiterCreateRequire(import.meta.url);" };
// CommonJS bundles (Electron main and preload) have no import.meta.url; derive it from __filename.
const cjsOptions = {
  format: 'cjs',
  define: { 'import.meta.url': '__arbiterImportMetaUrl' },
  banner: { js: "const __arbiterImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
};

const started = Date.now();
// Worker threads sit beside each bundle that may start them (out/node for the CLI and host,
// out/electron for the Electron main process).
const workers = {
  'scorer-worker': 'electron/core/scorer/worker.ts',
  'import-worker': 'electron/core/formats/import/worker.ts',
  'task-worker': 'electron/core/tasks/worker.ts',
  'backup-worker': 'electron/core/store/backupWorker.ts',
};
const jobs = [
  // The CLI in chunks beside cli.mjs (same folder: import.meta.url finds the workers as before): a command
  // loads the modules it imports only (`arbiter stats` neither the formats nor the scorer nor the service).
  build({ ...common, format: 'esm', banner: esmBanner, splitting: true, metafile: true, chunkNames: 'cli-chunk-[hash]', entryPoints: { cli: 'electron/cli/index.ts' }, outdir: 'out/node', outExtension: { '.js': '.mjs' } }),
  build({ ...common, format: 'esm', banner: esmBanner, entryPoints: { core: 'electron/core/service/lib.ts' }, outdir: 'out/node', outExtension: { '.js': '.mjs' } }),
  build({ ...common, ...cjsOptions, entryPoints: { main: 'electron/main/index.ts' }, outdir: 'out/electron', outExtension: { '.js': '.cjs' } }),
  build({ ...common, ...cjsOptions, entryPoints: { preload: 'electron/preload/index.ts' }, outdir: 'out/electron', outExtension: { '.js': '.cjs' } }),
];
for (const outdir of ['out/node', 'out/electron'])
  jobs.push(build({ ...common, format: 'esm', banner: esmBanner, entryPoints: workers, outdir, outExtension: { '.js': '.mjs' } }));
const [cliBuild] = await Promise.all(jobs);
// Chunks of earlier builds go; the graph of this one (which chunk imports which, statically or when asked)
// is kept for test/integration/cli-chunks.test.ts.
const chunks = new Set(Object.keys(cliBuild.metafile.outputs).map((path) => path.split('/').pop()));
for (const name of readdirSync(join(root, 'out/node'))) if (/^cli-chunk-.*\.mjs(\.map)?$/.test(name) && !chunks.has(name)) rmSync(join(root, 'out/node', name), { force: true });
writeFileSync(join(root, 'out/node/cli-meta.json'), JSON.stringify(cliBuild.metafile));
mkdirSync(join(root, 'out'), { recursive: true });
// Each output folder says its module kind, whatever the root package.json says.
writeFileSync(join(root, 'out/node/package.json'), '{"type":"module"}\n');
writeFileSync(join(root, 'out/electron/package.json'), '{"type":"commonjs"}\n');
console.error(`node side built in ${Date.now() - started} ms`);

if (!nodeOnly) {
  const vite = spawnSync(process.execPath, [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'renderer/vite.config.ts', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (vite.status !== 0) process.exit(vite.status ?? 1);
  writeFileSync(join(root, 'out/.build-stamp'), new Date().toISOString() + '\n');
  console.error(`built in ${Date.now() - started} ms`);
}
