// What one trace format is, in one module (issue 21, section 5): its name, how its first records are told
// apart (detect: why, or null), how a record is read, how records of one trace or task come together, and
// how an item is written back. ../registry.ts plugs each descriptor of ./index.ts into the importer's
// tables, detection and the exporter; adding a trace format is one module here, its entry in ./index.ts,
// its name in shared/formatNames.ts TRACE_FORMATS and a fixture in test/fixtures/formats/traces/.
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
