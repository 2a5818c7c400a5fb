// Importing a file on disk (.jsonl, .jsonl.gz, .json, .parquet, .csv, read by ./sources), or a LeRobot
// dataset folder (one record per episode: ../sources/lerobot.ts): its chunks, its hash, and with
// skipInvalid the rejected lines written beside it.
import { createHash } from 'node:crypto';
import { stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { ImportSummary, LineError } from '../../../../shared/domain';
import type { ImportFormat } from '../../../../shared/formatNames';
import type { Db } from '../../store/db';
import { runImport } from './importer';
import { fileChunks } from '../sources/index';
import { isLeRobotFolder, leRobotChunks } from '../sources/lerobot';
import { PARALLEL_MIN_BYTES, parallelByDefault } from './inputs';

export interface ImportFileOptions {
  path: string;
  /** How error messages name the file (FILE:LINE): its path unless given (an upload's original name). */
  displayName?: string;
  project: string;
  format?: 'auto' | ImportFormat;
  skipInvalid?: boolean;
  createProject?: boolean;
  onProgress?: (linesRead: number) => void;
  /** Asked between chunks: true removes what the import wrote and rejects with a 'cancelled' error. */
  isCancelled?: () => boolean;
  /** Prepare records in a worker thread (the result is the same): by default for big files on 3+ cores. */
  parallel?: boolean;
  /** The folder the file's relative image paths are read from, when the user gave one (--images-dir). */
  imagesDir?: string | null;
  /**
   * The file's own folder, where relative image paths are read without an images folder: the folder of
   * `path` unless given; null for an upload, whose copy in the uploads folder has no images beside it.
   */
  fileDir?: string | null;
}

export function rejectsPath(path: string): string {
  return `${path}.rejects.jsonl`;
}

/** Imports a JSONL file; with skipInvalid, the rejected lines are written to `<path>.rejects.jsonl`. */
export async function importFile(db: Db, opts: ImportFileOptions): Promise<ImportSummary & { errors: LineError[]; formatReason: string }> {
  const hash = createHash('sha256');
  let sha256: string | null = null;
  // A LeRobot folder: its episodes' videos are read from inside it.
  const lerobot = isLeRobotFolder(opts.path);
  const result = await runImport(db, {
    project: opts.project,
    fileName: opts.displayName ?? opts.path,
    format: opts.format ?? 'auto',
    skipInvalid: opts.skipInvalid ?? false,
    createProject: opts.createProject ?? false,
    onProgress: opts.onProgress,
    isCancelled: opts.isCancelled,
    parallel: opts.parallel ?? (!lerobot && parallelByDefault((await stat(opts.path)).size >= PARALLEL_MIN_BYTES)),
    waitForWorker: opts.parallel === true || process.env.ARBITER_IMPORT_WORKER === 'on',
    chunks: lerobot ? leRobotChunks(opts.path, hash, opts.displayName ?? opts.path) : fileChunks(opts.path, hash, opts.displayName ?? opts.path),
    sha256: () => (sha256 ??= hash.digest('hex')),
    imagesDir: opts.imagesDir ?? null,
    fileDir: opts.fileDir === undefined ? (lerobot ? opts.path : dirname(opts.path)) : opts.fileDir,
  });
  let rejectsFile: string | null = null;
  if (result.rejects.length) {
    rejectsFile = rejectsPath(opts.path);
    await writeFile(rejectsFile, `${result.rejects.join('\n')}\n`, 'utf8');
  }
  return { ...result.summary, rejectsFile, errors: result.errors, formatReason: result.formatReason };
}
