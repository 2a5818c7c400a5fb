// What one trace format is, in one module (issue 21, section 5): its name, how its first records are told
// apart (detect: why, or null), how a record is read, how records of one trace or task come together, and
// how an item is written back, its title and doc row. ../traceFormat.ts makes each descriptor of ./index.ts
// a FormatDescriptor of the format registry (formats/all.ts). Adding a trace format: one module here, its
// entry in ./index.ts, its name in shared/formatNames.ts TRACE_FORMATS (a project of it starts with the
// agent error tags), `node scripts/formats-doc.mjs` (the catalog and docs/formats.md's row), and a fixture in
// test/fixtures/formats/traces/ with its round trip in test/integration/trace-formats.test.ts.
import type { ItemRecord } from '../../../../../shared/domain';
import type { TraceFormat } from '../../../../../shared/formatNames';
import type { ParsedRecord } from '../../types';
import type { Json } from '../common';

export interface TraceDescriptor {
  name: TraceFormat;
  /** One line, as the export dialog and the CLI name it. */
  title: string;
  /** Its row in docs/formats.md: where the format comes from, what a round trip keeps and what it loses. */
  doc: { source: string; keeps: string; loses: string };
  /** Why a record is this format, or null. */
  detect(record: Json): string | null;
  parse(record: Json): ParsedRecord;
  /** Records with one key are one item (a session's events, an eval sample's epochs). */
  group?: { key(record: Json): string; merge(rows: ParsedRecord[]): ParsedRecord; anyOrder?: boolean };
  /** The item back as the format's records. */
  encode(item: ItemRecord): Json[];
}
