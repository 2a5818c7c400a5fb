// Datasets: import (preview, run), the items table, export, project figures.
import { z } from 'zod';
import type { Choice, ExportSummary, ImportSummary, LineError } from '../domain';
import { EXPORT_FORMATS, IMPORT_FORMATS, RANKING_PAIRS } from '../formatNames';
import type { Vote } from '../scoring';
import { annotatorName, projectName } from './common';
import type { TaskCount } from './projects';

/**
 * What the items table can show: every item; the annotator's unlabeled or labeled items (a judgement of
 * any task: a choice, a ranking, step labels, a verdict), or the pairs they gave one choice; pairs where
 * the models' pre-label picks the other response than the annotator's label (or, where they have none,
 * the label that decides the item on export).
 */
export const ITEM_FILTERS = ['all', 'unlabeled', 'labeled', 'A', 'B', 'tie', 'both_bad', 'disagrees'] as const;
export type ItemFilter = (typeof ITEM_FILTERS)[number];
/** File order, first or last first: the orders a million items page in without delay (the seq index). */
export const ITEM_ORDERS = ['first', 'last'] as const;
export type ItemOrder = (typeof ITEM_ORDERS)[number];

const EXPORT_TAKES_NO_PATH =
  'exportProject takes no output path ("out"): the file is written to Arbiter\'s exports folder, then downloaded (browser) or saved where you choose (desktop app). Use `arbiter export --out` to write elsewhere.';

/** An export file's base name as exportProject answers it (JSON Lines, Parquet, CSV, a LeRobot dataset folder); never a path. */
const exportFileName = z
  .string()
  .max(255)
  .regex(/^\w[\w.-]*\.(jsonl|parquet|csv)$|^\w[\w.-]*-lerobot-\w+-[0-9a-f]{6}$/, 'file must be the name of an export file (as exportProject answered it), not a path');

export const datasetsSchemas = {
  previewImport: z
    .object({
      fileName: z.string().min(1).max(1000),
      /** The first part of the file (the UI sends at most a few hundred KiB). */
      head: z.string().max(4_000_000),
      format: z.enum(['auto', ...IMPORT_FORMATS]).default('auto'),
    })
    .strict(),
  importContent: z
    .object({
      project: projectName,
      fileName: z.string().min(1).max(1000),
      content: z.string().max(1_500_000_000),
      format: z.enum(['auto', ...IMPORT_FORMATS]).default('auto'),
      skipInvalid: z.boolean().default(false),
      createProject: z.boolean().default(false),
      /**
       * The folder on this computer that holds the file's images, when it names them by relative paths
       * (an upload has no folder of its own). Read like a model folder typed in the browser host: only
       * image files under it, by the paths the file names.
       */
      imagesDir: z.string().trim().min(1).max(4000).optional(),
    })
    .strict(),
  /**
   * A page of the items table. Every filter and both orders walk the (project, seq) index: `all` pages by
   * row number or keyset; a filter goes on from `afterSeq` and answers after a bounded stretch of the
   * project even when few items match (`next` says where to go on), so no page costs a whole-project scan.
   */
  listItems: z
    .object({
      project: projectName,
      filter: z.enum(ITEM_FILTERS).default('all'),
      order: z.enum(ITEM_ORDERS).default('first'),
      /** Keyset paging: rows after this position (seq) in the chosen order; omitted means from the start. */
      afterSeq: z.number().int().min(-1).optional(),
      /** Offset paging (filter `all` only), for jumping to a row by number (the table's scroll position). */
      offset: z.number().int().min(0).default(0),
      limit: z.number().int().min(1).max(1000).default(200),
      /** Whose labels `unlabeled`, `labeled`, the choice filters and the "You" column mean. */
      annotator: annotatorName.optional(),
      /** An external id (exact or prefix, through an index: listed first) or a part of the prompt (a bounded walk, as a filter). */
      search: z.string().max(200).optional(),
    })
    .strict(),
  /**
   * Writes the export into the app's exports folder under a generated name and answers its base name.
   * No output path: the renderer is untrusted (docs/architecture.md, "What the API may touch"). The browser host
   * then offers the file through `downloadTicket`; Electron's main process through a save dialog.
   */
  exportProject: z
    .object(
      {
        project: projectName,
        format: z.enum(EXPORT_FORMATS),
        annotator: annotatorName.optional(),
        /** trl-stepwise, math-shepherd: neutral (0) steps are true / "+" (default: only +1 is). */
        neutral: z.boolean().optional(),
        /** Pairwise formats: which pairs a ranking gives (default all). */
        rankingPairs: z.enum(RANKING_PAIRS).optional(),
        /** Pairwise formats: items with rubric ratings but no choice give pairs by weighted rubric totals (ties left out). */
        fromRatings: z.boolean().optional(),
        /** Only items a lead adjudicated. */
        adjudicatedOnly: z.boolean().optional(),
        /** Only items whose people agree at least this much (the share giving the most common judgement). */
        minAgreement: z.number().min(0).max(1).optional(),
        /** Items holding images, in a text-only format: refuse (the default, with their count) or write them without the images. */
        images: z.enum(['refuse', 'drop']).optional(),
      },
      { error: (issue) => (issue.code === 'unrecognized_keys' && issue.keys.includes('out') ? EXPORT_TAKES_NO_PATH : undefined) },
    )
    .strict(),
  /** A one-time, short-lived ticket for GET /download/<ticket> on the browser host: one export file of this project. */
  downloadTicket: z.object({ project: projectName, file: exportFileName }).strict(),
  stats: z.object({ project: projectName }).strict(),
  /** Who has labeled the project's items (the export's "Labels from" list): from counters, at any size. */
  annotators: z.object({ project: projectName }).strict(),
} as const;

export type ListItemsRequest = z.output<typeof datasetsSchemas.listItems>;

export interface PreviewResult {
  detected: string | null;
  format: string | null;
  reason: string;
  records: { line: number; prompt: string; responses: string[]; choice: string | null }[];
  errors: LineError[];
  linesRead: number;
}

/** A current ranking, step judgement or verdict in words: "B > A = C", "first error at 3", "all good", "good". */
export interface JudgementWords {
  task: 'ranking' | 'steps' | 'verdict';
  text: string;
}

export interface ItemListRow {
  id: number;
  seq: number;
  externalId: string | null;
  prompt: string;
  responses: number;
  /** Human annotators with a current label. */
  labels: number;
  myChoice: string | null;
  sourceChoice: string | null;
  /** The human labels' majority (A / B in source order); 'split' when the top choices tie; null when no human labeled it. */
  consensus: Choice | 'split' | null;
  /** The models' pre-label, in source order: their majority vote (the mean decides an even split) and mean P(A better). */
  model: { vote: Vote; pA: number; models: number } | null;
  /** A lead adjudicated the item (its gold label on export). */
  adjudicated: boolean;
  /** The screen that judges it: a pair Compare, three or more responses Rank, a single response with steps Steps, else Verdict. */
  screen: 'compare' | 'rank' | 'steps' | 'verdict';
  /** The annotator's current rankings, step judgements and verdicts (the pairwise choice is `myChoice`). */
  mine: JudgementWords[];
  /** The people's, per task: the judgement they share, or "split", and how many gave one. */
  humans: (JudgementWords & { labels: number })[];
  /** The file's own (annotator "source"). */
  source: JudgementWords[];
  /** Three or more responses: the models' ranking by mean reward ("B > A > C"), where every response was scored. */
  modelRanking: string | null;
}

export interface ItemPage {
  /** Visible items in the project. */
  total: number;
  /** How many items the filter matches, where the counters know it (all, unlabeled, labeled); else null. */
  matching: number | null;
  rows: ItemListRow[];
  /** Pass as afterSeq to go on; null once the end of the project was reached. */
  next: number | null;
  /** Items looked through so far in this order, up to `next` (all of them once `next` is null). */
  scanned: number;
  /** The filters that fit the project's items: the choice filters and "model disagrees" only where it has pairs. */
  filters: ItemFilter[];
}

export interface ProjectStats {
  project: string;
  items: number;
  responses: number;
  /** Pairs with a current human label (the pairwise task; every task is in `tasks`). */
  labeled: number;
  /** `labeled` over the project's pairs. */
  progress: number;
  /** Each task's items with a current human judgement over the items its screen walks. */
  tasks: TaskCount[];
  labels: { revisions: number; current: number; byChoice: Record<string, number> };
  /** Per annotator and task: items with their current judgement. */
  annotators: { name: string; kind: string; task: string; labeled: number }[];
  source: { labeled: number };
}

/**
 * An export's summary as the API answers it: `out` is the file's base name in the exports folder, never
 * a path. `saved` is set by the desktop app after its save dialog: false when the dialog was cancelled.
 */
export type ExportedFile = ExportSummary & { saved?: boolean };

export interface DownloadTicket {
  ticket: string;
  /** Seconds until an unused ticket stops working; it works once in any case. */
  expiresInSeconds: number;
}

export interface DatasetsOutputs {
  previewImport: PreviewResult;
  importContent: ImportSummary & { rejects: string | null; errors: LineError[] };
  listItems: ItemPage;
  exportProject: ExportedFile;
  downloadTicket: DownloadTicket;
  stats: ProjectStats;
  annotators: ProjectStats['annotators'];
}
