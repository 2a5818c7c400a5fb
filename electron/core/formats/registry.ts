// The one list of dataset formats. Each format is one module exporting one FormatDescriptor (its name,
// family, title, how to tell it, how to read it, how to write it, what it keeps and loses, its doc row);
// ./all.ts lists those modules, and everything else is derived from that list: the
// importer's parsers and groups (import/prepare.ts, import/group.ts), detection (import/detect.ts), the
// export dispatcher (export/exporter.ts), the names the CLI and the page offer (shared/formatCatalog.ts,
// generated), and docs/formats.md's table (generated).
//
// Adding a format:
//   1. Write `<family folder>/<name>.format.ts` exporting `const descriptor: FormatDescriptor` (see any
//      neighbour, e.g. pairs/rewardbench.format.ts): `parse` for reading (a RecordParser: store-free, the
//      import worker runs it), `detect` (why a record looks like it, or null), `write` for writing: it
//      picks one of the export passes (ExportPasses below, given by export/passes.ts) and hands it the
//      format's own encoder. A descriptor imports nothing that reads the store (the import worker loads
//      every descriptor; test/unit/formats/registry.test.ts checks its bundle).
//   2. Add it to ./all.ts (the order there is the order the dialog and the CLI list formats in; detection
//      goes by `detect.rank`).
//   3. Run `node scripts/formats-doc.mjs`: it regenerates shared/formatCatalog.ts (what the renderer and
//      the CLI see) and the table in docs/formats.md; test/unit/format-registry.test.ts fails until you do.
//   4. Add a fixture under test/fixtures/ and a round-trip test.
import type { ExportSummary } from '../../../shared/domain';
import type { FormatFamily } from '../../../shared/formatFamilies';
import type { Db } from '../store/db';
import type { ProjectRow } from '../store/projects';
import type { RecordWriter } from './jsonl';
import type { ExportNotes, ParsedRecord, RecordParser } from './types';
import type { ExportOptions } from './export/exporter';
import type { PairEncoder } from './pairs/pairExport';
import type { ChainEncoder } from './process/chainEncoders';
import type { TrajectoryEncoder } from './trajectories/exportPass';
import { ALL_FORMATS } from './all';

export type { FormatFamily };

/** Consecutive records of one item (HelpSteer2's rows of one prompt, an agent's runs of one task). */
export interface RecordGroup {
  /** What consecutive records share to be one item. */
  key(record: Record<string, unknown>): string;
  /** One item from a group's records, each already parsed on its own. */
  merge(rows: ParsedRecord[]): ParsedRecord;
  /**
   * Records of one key anywhere in the input are one item (τ-bench writes trial after trial): every group
   * stays open until the end of the input, so the input's items are held in memory until then.
   */
  anyOrder?: boolean;
}

/** What one export hands the format's writer: the project, the options, the open output, the summary. */
export interface ExportRun {
  db: Db;
  project: ProjectRow;
  format: string;
  opts: ExportOptions;
  writer: RecordWriter;
  notes: ExportNotes;
  summary: ExportSummary;
  /** Items (or revisions) read so far: the last progress report gives it. */
  read: number;
  checkCancelled(): void;
  /** Sets `read` and reports progress (after a page). */
  onPage(read: number): void;
  /** Throws the output away and starts it again, the skipped counts and notes new (notes in this mode). */
  restart(mode: ConstructorParameters<typeof ExportNotes>[0]): Promise<void>;
}

/** How a format is written (an export pass, with the format's encoder where the pass takes one). */
export interface FormatWriter {
  /** Opens the output (default: JSON Lines through JsonlWriter). */
  open?(db: Db, format: string, out: string): Promise<RecordWriter>;
  /** Writes the whole project through run.writer. */
  write(run: ExportRun): Promise<void>;
  /** After the output is committed: adds to the notes. */
  finish?(notes: ExportNotes, format: string, out: string): void;
}

/**
 * The export passes a format's writer is made of (export/passes.ts gives them; they read the store, so a
 * descriptor only names them): each walks the project and writes lines through the format's encoder.
 */
export interface ExportPasses {
  /** Items as stored (arbiter). */
  items: FormatWriter;
  /** Every label revision (labels). */
  labels: FormatWriter;
  /** The models' scores (scores). */
  scores: FormatWriter;
  /** People's pairwise labels with their consensus (consensus). */
  consensus: FormatWriter;
  /** Decided pairs, each through `encode`; `textPrompt`: the prompt is one string (one shape per file). */
  pairs(encode: PairEncoder, textPrompt: boolean): FormatWriter;
  /** Decided pairs with their images, beside the file or in Parquet (trl-vision, trl-vision-parquet). */
  trlVision: FormatWriter;
  /** Judged single responses (trl-unpaired). */
  unpaired: FormatWriter;
  /** Judged chains, each through `encode` (the step formats). */
  steps(encode: ChainEncoder): FormatWriter;
  /** Ratings, preferences and critiques (their codecs: ratings/judgedCodecs.ts). */
  judged: FormatWriter;
  /** Every item with an agent turn, through `encode`. */
  trajectories(encode: TrajectoryEncoder): FormatWriter;
  /** What agent-reward trainers read, from labeled trajectories (trajectories/turnExport.ts). */
  turns: FormatWriter;
  /** The vision benchmarks' own shapes (vision/benchExport.ts). */
  vision: FormatWriter;
}

export interface FormatDescriptor {
  /** The --format name. */
  name: string;
  /** Which group the export dialog shows it in (shared/formatFamilies.ts). */
  family: FormatFamily;
  /** One line, as the dialog and the CLI name it. */
  title: string;
  /**
   * Detection: why a record (a JSON object) looks like this format, or null. Formats are asked by rank,
   * lowest first, and the first to answer takes the record: a rule that a more general one would also
   * match (any "chosen" and "rejected" is TRL) needs a lower rank than it. The ranks today: arbiter 100,
   * agent trajectories 200–299, vision 300–399, ratings 400–499, pairs 500–599, steps and unpaired 600–699.
   */
  detect?: { rank: number; why(record: Record<string, unknown>): string | null };
  /** Reading one record; absent for export-only formats. Store-free: the import worker runs it. */
  parse?: RecordParser;
  /** Records that make one item together (absent: one record, one item). */
  group?: RecordGroup;
  /** Writing, by one of the export passes; absent for read-only formats. */
  write?(passes: ExportPasses): FormatWriter;
  /**
   * What the export carries of content: 'content' writes it as stored (chat messages with their typed
   * parts, images included) or in a shape with images; 'text' writes text only and refuses items with
   * images (or drops them, --images drop).
   */
  carries: 'text' | 'content';
  /** Its row in docs/formats.md: where the format comes from, what a round trip keeps and what it loses. */
  doc: { source: string; keeps: string; loses: string };
}

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
