// What a dataset format is, as one module says it (./registry.ts holds the list and says how to add a
// format): the descriptor type and the export pass types its writer is made of. Types only, so that any
// format module may import it without a circle.
import type { ExportSummary } from '../../../shared/domain';
import type { FormatFamily } from '../../../shared/formatFamilies';
import type { Db } from '../store/db';
import type { ProjectRow } from '../store/projects';
import type { RecordWriter } from './jsonl';
import type { ExportNotes, ParsedRecord, RecordParser } from './types';
import type { ExportFormat, RankingPairs } from '../../../shared/formatNames';
import type { PairEncoder } from './pairs/pair';
import type { ChainEncoder } from './process/chainEncoders';
import type { TrajectoryEncoder } from './trajectories/common';

export type { FormatFamily };

export interface ExportOptions {
  project: string;
  format: ExportFormat;
  out: string;
  /** Pairwise formats: only this annotator's current label decides. labels: only their revisions. */
  annotator?: string;
  /** trl-stepwise and math-shepherd: neutral (0) steps are true / "+" (default false: only +1 is). */
  neutral?: boolean;
  /** Pairwise formats: which pairs a ranking gives (default all). */
  rankingPairs?: RankingPairs;
  /**
   * Pairwise formats: an item with rubric ratings but no choice (or ranking) gives the pairs its weighted
   * rubric totals rank; equal totals are ties, left out and counted (default off).
   */
  fromRatings?: boolean;
  /** Only items a lead adjudicated (their adjudication decides). Not for the labels format. */
  adjudicatedOnly?: boolean;
  /** Only items whose people agree at least this much (0–1; adjudicated items always pass). Not for labels. */
  minAgreement?: number;
  /** Only these item ids (`arbiter export --view`, a selection's export): every format writes just them. */
  items?: ReadonlySet<number>;
  /** Called after each page with the number of lines written and of items (or revisions) read. */
  onProgress?: (written: number, read: number) => void;
  /** Asked between items: true aborts the export (no file is left) with a 'cancelled' error. */
  isCancelled?: () => boolean;
  /**
   * Items holding images, in a format that can only carry text: 'refuse' (the default) stops the export
   * with their count; 'drop' writes them without their images, counted in the summary.
   */
  images?: 'refuse' | 'drop';
}

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

