// Datasets: import (preview, run), the items table, export, project figures.
import { z } from 'zod';
import type { ExportSummary, ImportSummary, LineError } from '../domain';
import { EXPORT_FORMATS, IMPORT_FORMATS } from '../formatNames';
import { annotatorName, projectName } from './common';

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
    })
    .strict(),
  listItems: z
    .object({
      project: projectName,
      /** Keyset paging: rows after this position (seq); omitted means from the start. */
      afterSeq: z.number().int().min(-1).optional(),
      /** Offset paging, for jumping to a row by number (the table's scroll position). */
      offset: z.number().int().min(0).default(0),
      limit: z.number().int().min(1).max(1000).default(200),
      annotator: annotatorName.optional(),
    })
    .strict(),
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
} as const;

export interface PreviewResult {
  detected: string | null;
  format: string | null;
  reason: string;
  records: { line: number; prompt: string; responses: string[]; choice: string | null }[];
  errors: LineError[];
  linesRead: number;
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

export interface DatasetsOutputs {
  previewImport: PreviewResult;
  importContent: ImportSummary & { rejects: string | null; errors: LineError[] };
  listItems: { total: number; rows: ItemListRow[] };
  exportProject: ExportSummary;
  stats: ProjectStats;
}
