// Files the UI picks reach the core in pieces, never as one string: the renderer streams the file into
// an upload (startUpload, then uploadChunk after uploadChunk), previews its head, and imports it as a job.
// The upload lives in the app's data folder under an id the core made; no path crosses the API.
import { z } from 'zod';
import type { DatasetsOutputs, PreviewResult } from './datasets';
import { IMPORT_FORMATS } from '../formatNames';
import { projectName } from './common';

const uploadId = z.string().regex(/^[0-9a-f]{32}$/, 'not an upload id');
/** Base64 of at most 8 MiB. */
export const UPLOAD_CHUNK_BYTES = 4 * 1024 * 1024;

export const uploadsSchemas = {
  startUpload: z
    .object({
      /** The file's own name: its ending says how to read it (.jsonl, .jsonl.gz, .json, .parquet). */
      fileName: z.string().trim().min(1).max(1000),
      /** Bounded by the host's upload limit (ARBITER_UPLOAD_MAX_BYTES), which says so in a sentence. */
      size: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
    })
    .strict(),
  uploadChunk: z
    .object({ uploadId, offset: z.number().int().min(0), data: z.string().max(Math.ceil((UPLOAD_CHUNK_BYTES * 2 * 4) / 3) + 4) })
    .strict(),
  previewUpload: z.object({ uploadId, format: z.enum(['auto', ...IMPORT_FORMATS]).default('auto') }).strict(),
  importUpload: z
    .object({
      uploadId,
      project: projectName,
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
   * Imports a dataset that is a folder, not a file (a LeRobot dataset: meta/info.json, its Parquet files and
   * per-camera videos), named by its full path on this computer (the folder stays where it is; nothing is
   * written into it). A folder cannot be uploaded as one file, so, like `imagesDir`, the path is typed.
   */
  importFolder: z
    .object({
      project: projectName,
      path: z.string().trim().min(1).max(4000),
      format: z.enum(['auto', ...IMPORT_FORMATS]).default('auto'),
      createProject: z.boolean().default(false),
    })
    .strict(),
  /** Merges a teammate's labels file (format `labels`): idempotent, in any order; unknown items are reported. */
  mergeLabelsUpload: z.object({ uploadId, project: projectName }).strict(),
  discardUpload: z.object({ uploadId }).strict(),
} as const;

/** What a labels merge did: revisions added, already here, and those for items this project lacks. */
export interface LabelsMerged {
  file: string;
  lines: number;
  added: number;
  duplicates: number;
  unmatched: number;
  unmatchedItems: { line: number; item: string }[];
  /** Lines whose revision id is stored here for a different label: not merged, listed by line (the first 20). */
  reusedIds: number;
  reusedIdLines: { line: number; id: string }[];
}

export interface UploadsOutputs {
  startUpload: { uploadId: string };
  uploadChunk: { received: number };
  previewUpload: PreviewResult;
  importUpload: DatasetsOutputs['importContent'];
  importFolder: DatasetsOutputs['importContent'];
  mergeLabelsUpload: LabelsMerged;
  discardUpload: { discarded: boolean };
}
