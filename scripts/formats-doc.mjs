#!/usr/bin/env node
// Writes what the format registry (electron/core/formats/registry.ts) gives the places that may not import
// core: shared/formatCatalog.ts and the formats table in docs/formats.md (electron/core/formats/catalog.ts
// says how). Run it after adding or changing a format; test/unit/format-registry.test.ts checks both.
import { build } from 'esbuild';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// Inside the project, so that the bundle finds the packages it leaves out.
const dir = join(root, 'node_modules/.cache/arbiter-formats-doc');
mkdirSync(dir, { recursive: true });
try {
  const outfile = join(dir, 'catalog.mjs');
  // The registry reads no store: its writers are loaded lazily, and never here.
  await build({ entryPoints: [join(root, 'electron/core/formats/catalog.ts')], bundle: true, platform: 'node', format: 'esm', outfile, logLevel: 'warning', external: ['better-sqlite3', 'sharp', 'onnxruntime-node', 'electron'], banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" } });
  const { catalogSource, withDocTable } = await import(pathToFileURL(outfile).href);
  writeFileSync(join(root, 'shared/formatCatalog.ts'), catalogSource());
  const doc = join(root, 'docs/formats.md');
  writeFileSync(doc, withDocTable(readFileSync(doc, 'utf8')));
  console.error('wrote shared/formatCatalog.ts and the table in docs/formats.md');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
