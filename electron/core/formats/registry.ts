// The one list of dataset formats. Each format is one module exporting one FormatDescriptor (its name,
// family, title, how to tell it, how to read it, how to write it, what it keeps and loses, its doc row);
// ./all.ts lists those modules, and everything else is derived from that list: the
// importer's parsers and groups (import/prepare.ts, import/group.ts), detection (import/detect.ts), the
// export dispatcher (export/exporter.ts), the names the CLI and the page offer (shared/formatCatalog.ts,
// generated), and docs/formats.md's table (generated).
//
// Adding a format:
//   1. Write `<family folder>/<name>.format.ts` exporting `const descriptor: FormatDescriptor` (./descriptor.ts; see any
//      neighbour, e.g. pairs/rewardbench.format.ts): `parse` for reading (a RecordParser: store-free, the
//      import worker runs it), `detect` (why a record looks like it, or null), `write` for writing: it
//      picks one of the export passes (ExportPasses in ./descriptor.ts, given by export/passes.ts) and hands it the
//      format's own encoder. A descriptor imports nothing that reads the store (the import worker loads
//      every descriptor; test/unit/formats/registry.test.ts checks its bundle).
//   2. Add it to ./all.ts (the order there is the order the dialog and the CLI list formats in; detection
//      goes by `detect.rank`).
//   3. Run `node scripts/formats-doc.mjs`: it regenerates shared/formatCatalog.ts (what the renderer and
//      the CLI see) and the table in docs/formats.md; test/unit/format-registry.test.ts fails until you do.
//   4. Add a fixture under test/fixtures/ and a round-trip test.
import type { FormatDescriptor } from './descriptor';
import { ALL_FORMATS } from './all';

export type { ExportPasses, ExportRun, FormatDescriptor, FormatWriter, RecordGroup } from './descriptor';

const byName = new Map<string, FormatDescriptor>();
for (const descriptor of ALL_FORMATS) {
  if (byName.has(descriptor.name)) throw new Error(`format ${descriptor.name} is registered twice (formats/all.ts)`);
  byName.set(descriptor.name, descriptor);
}

/** Every format, in ./all.ts order (the order the dialog and the CLI list them in). */
export function formats(): readonly FormatDescriptor[] {
  return ALL_FORMATS;
}

const detecting = ALL_FORMATS.filter((f) => f.detect).sort((a, b) => a.detect!.rank - b.detect!.rank);

/** The formats that detection asks, in the order it asks them. */
export function detectionOrder(): readonly FormatDescriptor[] {
  return detecting;
}

/** The format of this name, or undefined. */
export function formatNamed(name: string): FormatDescriptor | undefined {
  return byName.get(name);
}

/** The format of this name; a programming error when there is none (names come from shared/formatCatalog.ts). */
export function requireFormat(name: string): FormatDescriptor {
  const found = byName.get(name);
  if (!found) throw new Error(`no format named ${name} (formats/all.ts)`);
  return found;
}
