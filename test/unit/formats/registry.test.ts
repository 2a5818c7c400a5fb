// The format registry is the one list of formats (electron/core/formats/registry.ts): what the renderer,
// the CLI and docs/formats.md say of formats is generated from it and must not drift, and reading a
// format never loads the store (its writer is a lazy import).
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogSource, docTable } from '../../../electron/core/formats/catalog';
import { detectionOrder, formats } from '../../../electron/core/formats/registry';
import { GROUPS } from '../../../electron/core/formats/import/group';
import { PARSERS } from '../../../electron/core/formats/import/prepare';
import { FORMAT_CATALOG } from '../../../shared/formatCatalog';
import { FORMAT_FAMILIES } from '../../../shared/formatFamilies';
import { EXPORT_FORMATS, FORMAT_TITLES, IMAGE_EXPORT_FORMATS, IMPORT_FORMATS } from '../../../shared/formatNames';

const root = join(__dirname, '../../..');
const regenerate = 'run `node scripts/formats-doc.mjs` after changing a format';

describe('the format registry', () => {
  it('names each format once, in a family, with a parser or a writer, and detection ranks that never tie', () => {
    const names = formats().map((f) => f.name);
    expect(new Set(names).size).toBe(names.length);
    for (const f of formats()) {
      expect(FORMAT_FAMILIES).toContain(f.family);
      expect(Boolean(f.parse) || Boolean(f.write), f.name).toBe(true);
      if (f.detect) expect(f.parse, `${f.name} is detected but cannot be read`).toBeDefined();
      expect(f.title && f.doc.source && f.doc.keeps && f.doc.loses, f.name).toBeTruthy();
    }
    const ranks = detectionOrder().map((f) => f.detect!.rank);
    expect(new Set(ranks).size, 'two formats share a detection rank').toBe(ranks.length);
  });

  it('is what the importer reads and groups by', () => {
    expect(Object.keys(PARSERS).sort()).toEqual(formats().filter((f) => f.parse).map((f) => f.name).sort());
    expect(Object.keys(GROUPS).sort()).toEqual(formats().filter((f) => f.group).map((f) => f.name).sort());
  });

  it('is what shared/formatCatalog.ts says, and so what the CLI and the page offer', () => {
    expect(readFileSync(join(root, 'shared/formatCatalog.ts'), 'utf8'), regenerate).toBe(catalogSource());
    expect(FORMAT_CATALOG.map((f) => f.name)).toEqual(formats().map((f) => f.name));
    // The same formats; Arbiter's own items head the import list (the one a file of no known format is told to take).
    expect([...IMPORT_FORMATS].sort()).toEqual(formats().filter((f) => f.parse).map((f) => f.name).sort());
    expect(IMPORT_FORMATS[0]).toBe('arbiter');
    expect([...EXPORT_FORMATS]).toEqual(formats().filter((f) => f.write).map((f) => f.name));
    expect([...IMAGE_EXPORT_FORMATS]).toEqual(formats().filter((f) => f.write && f.carries === 'content').map((f) => f.name));
    for (const f of formats()) expect(FORMAT_TITLES[f.name]).toBe(f.title);
  });

  it("is docs/formats.md's table", () => {
    expect(readFileSync(join(root, 'docs/formats.md'), 'utf8'), regenerate).toContain(docTable());
  });

  it('reads without the store: the import worker bundle loads no database, no image or model library', async () => {
    const result = await build({
      entryPoints: [join(root, 'electron/core/formats/import/worker.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      write: false,
      metafile: true,
      logLevel: 'silent',
      external: ['better-sqlite3', 'sharp', 'onnxruntime-node', 'electron'],
      outfile: 'import-worker.mjs',
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.some((p) => p.includes('formats/registry.ts'))).toBe(true);
    expect(inputs).not.toContain('electron/core/store/db.ts');
    expect(inputs).not.toContain('electron/core/formats/export/exporter.ts');
    // Only Node's own modules: a writer named in a descriptor would bring better-sqlite3 (and sharp) here.
    const packages = Object.values(result.metafile.outputs).flatMap((o) => o.imports.filter((i) => i.external && !i.path.startsWith('node:')).map((i) => i.path));
    expect(packages).toEqual([]);
  });
});
