// The API contract: every operation once, with a zod schema for its input and its output type.
// Electron IPC (electron/main), the browser host (electron/host) and the renderer's client are all
// built from this one table, so a transport can never accept a shape the other refuses.
import { z } from 'zod';
import type {
  ExportSummary,
  ImportSummary,
  ItemRecord,
  LabelRevision,
  LineError,
  ProjectSettings,
  ProjectSummary,
} from './domain';
import { EXPORT_FORMATS, IMPORT_FORMATS } from './formatNames';
import type { ItemPrelabels, ModelDescription, ModelInfo, ProviderStatus, ScoreJobResult, ScoreProgress } from './scoring';

const projectName = z
  .string()
  .trim()
  .min(1, 'project name is empty')
  .max(120, 'project name is longer than 120 characters')
  .regex(/^[^/\\\u0000-\u001f]+$/, 'project name has a slash or a control character');
const annotatorName = z.string().trim().min(1, 'annotator name is empty').max(80);
const choice = z.enum(['A', 'B', 'tie', 'both_bad']);
const strength = z.union([z.literal(1), z.literal(2), z.literal(3)]);

export const schemas = {
  listProjects: z.object({}).strict(),
  createProject: z.object({ name: projectName, guidelines: z.string().max(200_000).optional() }).strict(),
  getProject: z.object({ project: projectName }).strict(),
  updateProjectSettings: z
    .object({ project: projectName, settings: z.object({ prelabels: z.enum(['blind', 'assist']) }).partial().strict() })
    .strict(),
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
    })
    .strict(),
  listItems: z
    .object({
      project: projectName,
      offset: z.number().int().min(0).default(0),
      limit: z.number().int().min(1).max(1000).default(200),
      annotator: annotatorName.optional(),
    })
    .strict(),
  getItem: z
    .object({ project: projectName, annotator: annotatorName, itemId: z.number().int().positive().optional(), seq: z.number().int().min(0).optional() })
    .strict(),
  nextItem: z
    .object({
      project: projectName,
      annotator: annotatorName,
      /** Start looking after this item's position; omitted means from the start. */
      afterSeq: z.number().int().min(-1).optional(),
      direction: z.enum(['next', 'previous']).default('next'),
      unlabeledOnly: z.boolean().default(true),
    })
    .strict(),
  saveLabel: z
    .object({
      project: projectName,
      annotator: annotatorName,
      itemId: z.number().int().positive(),
      choice,
      strength: strength.nullable().default(null),
      shownOrder: z.array(z.number().int().min(0)).min(2),
      rationale: z.string().max(20_000).optional(),
      timeMs: z.number().int().min(0).optional(),
      prelabelVisible: z.boolean().optional(),
    })
    .strict(),
  saveRationale: z
    .object({ project: projectName, annotator: annotatorName, itemId: z.number().int().positive(), rationale: z.string().max(20_000) })
    .strict(),
  undoLabel: z.object({ project: projectName, annotator: annotatorName, itemId: z.number().int().positive() }).strict(),
  labelHistory: z.object({ project: projectName, itemId: z.number().int().positive() }).strict(),
  exportProject: z
    .object({
      project: projectName,
      format: z.enum(EXPORT_FORMATS),
      /** Where to write; omitted means the app's exports folder. */
      out: z.string().min(1).max(4000).optional(),
      annotator: annotatorName.optional(),
    })
    .strict(),
  stats: z.object({ project: projectName }).strict(),
  /** Cheap progress for the header: one annotator's labeled count and the project's size. */
  progress: z.object({ project: projectName, annotator: annotatorName }).strict(),
  appInfo: z.object({}).strict(),
  listModels: z.object({}).strict(),
  /** Reads a model folder and says what it found, without adding anything. */
  inspectModel: z.object({ dir: z.string().min(1).max(4000) }).strict(),
  addModel: z.object({ dir: z.string().min(1).max(4000), name: z.string().trim().min(1).max(120).optional() }).strict(),
  removeModel: z.object({ modelId: z.number().int().positive() }).strict(),
  providers: z.object({}).strict(),
  startScoring: z
    .object({
      project: projectName,
      /** Omitted: every added model. */
      modelIds: z.array(z.number().int().positive()).min(1).optional(),
      provider: z.enum(['auto', 'cpu', 'cuda', 'dml', 'coreml']).default('auto'),
      batchSize: z.number().int().min(1).max(1024).default(16),
    })
    .strict(),
  cancelJob: z.object({ jobId: z.string().min(1).max(100) }).strict(),
  listJobs: z.object({}).strict(),
  prelabels: z.object({ project: projectName, itemId: z.number().int().positive() }).strict(),
} as const;

export type ApiName = keyof typeof schemas;
export type ApiInput<N extends ApiName> = z.input<(typeof schemas)[N]>;
export type ApiParsed<N extends ApiName> = z.output<(typeof schemas)[N]>;

export interface PreviewResult {
  detected: string | null;
  format: string | null;
  reason: string;
  records: { line: number; prompt: string; responses: string[]; choice: string | null }[];
  errors: LineError[];
  linesRead: number;
}

export interface ItemView extends ItemRecord {
  total: number;
  shownOrder: number[];
  label: LabelRevision | null;
  /** Labels by other annotators of kind source (the file's own preference), shown as such. */
  sourceLabel: LabelRevision | null;
}

export interface ItemListRow {
  id: number;
  seq: number;
  externalId: string | null;
  prompt: string;
  responses: number;
  labels: number;
  myChoice: string | null;
  sourceChoice: string | null;
}

export interface ProjectStats {
  project: string;
  items: number;
  responses: number;
  labeled: number;
  progress: number;
  labels: { revisions: number; current: number; byChoice: Record<string, number> };
  annotators: { name: string; kind: string; labeled: number }[];
  source: { labeled: number };
}

export interface AppInfo {
  version: string;
  transport: 'ipc' | 'http';
  dbPath: string;
  defaultAnnotator: string;
  exportsDir: string;
}

export interface ApiOutputs {
  listProjects: ProjectSummary[];
  createProject: ProjectSummary;
  getProject: ProjectSummary;
  updateProjectSettings: ProjectSettings;
  previewImport: PreviewResult;
  importContent: ImportSummary & { rejects: string | null; errors: LineError[] };
  listItems: { total: number; rows: ItemListRow[] };
  getItem: ItemView | null;
  nextItem: ItemView | null;
  saveLabel: LabelRevision;
  saveRationale: LabelRevision | null;
  undoLabel: LabelRevision | null;
  labelHistory: LabelRevision[];
  exportProject: ExportSummary;
  stats: ProjectStats;
  progress: { total: number; labeledByMe: number; labeled: number };
  appInfo: AppInfo;
  listModels: ModelInfo[];
  inspectModel: ModelDescription;
  addModel: ModelInfo;
  removeModel: { removed: boolean };
  providers: ProviderStatus[];
  startScoring: JobInfo;
  cancelJob: JobInfo;
  listJobs: JobInfo[];
  prelabels: ItemPrelabels;
}

export interface JobInfo {
  id: string;
  /** score: startScoring; import, export: importContent and exportProject, whose calls await the job. */
  kind: 'score' | 'import' | 'export';
  project: string;
  state: 'running' | 'done' | 'failed' | 'cancelled';
  startedAt: string;
  finishedAt: string | null;
  /** Score jobs only. */
  progress: ScoreProgress | null;
  /** Score jobs only; an import's or export's result is the answer to the call that started it. */
  result: ScoreJobResult | null;
  error: string | null;
  /** Import and export jobs: lines read (import) or items/revisions read (export) so far. */
  done?: number;
  /** Import: the content's line count; export: null (not counted ahead). */
  total?: number | null;
  /** Export jobs: lines written so far. */
  written?: number;
}

export type ApiOutput<N extends ApiName> = ApiOutputs[N];

/** What a transport returns for an error: a sentence for people, a code for programs. */
export interface ApiErrorShape {
  code: 'invalid_input' | 'not_found' | 'conflict' | 'invalid_file' | 'internal' | 'unauthorized';
  message: string;
  details?: unknown;
}

export type ArbiterApi = { [N in ApiName]: (input: ApiInput<N>) => Promise<ApiOutput<N>> };

export const API_NAMES = Object.keys(schemas) as ApiName[];
