// Uploads: a picked file arrives in pieces into the uploads folder beside the database, is previewed from
// its head, and is imported from disk by a task worker (streamed: .jsonl, .jsonl.gz, .json, .parquet, .csv).
// The id is the core's own random name; the original file name only chooses the ending and the name
// shown in messages. What a page may make this hold is bounded (core/base/limits.ts): the size of one upload,
// how many are open, the free disk they need, and how long one may sit idle before it is removed.
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, rmSync, statfsSync, statSync, utimesSync, writeSync } from 'node:fs';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { conflict, invalidInput, notFound } from '../base/errors';
import { previewHead } from '../formats/index';
import type { LabelsImportResult } from '../formats/exchange/labels';
import { headLines } from '../formats/sources/index';
import { formatBytes, formatLimit, limit } from '../base/limits';
import { runTask } from '../tasks/run';
import type { FeatureHandlers, ServiceContext } from './context';
import { runImportTask } from './importTask';
import { requireProject } from './guards';

type UploadOps = 'startUpload' | 'uploadChunk' | 'previewUpload' | 'importUpload' | 'importFolder' | 'mergeLabelsUpload' | 'discardUpload';

interface Upload {
  path: string;
  fileName: string;
  size: number;
  received: number;
  busy: boolean;
  /** When it last received a piece or was read (Date.now()). */
  touched: number;
}

/** Endings an upload keeps (how the importer knows what it reads); anything else is read as JSON Lines. */
const KNOWN_ENDINGS = ['.jsonl.gz', '.json.gz', '.ndjson.gz', '.jsonl', '.ndjson', '.json', '.parquet', '.gz', '.traj', '.csv'];
/** The sweeper runs at least this often (and at least four times per idle expiry). */
const SWEEP_EVERY_MS = 60_000;

function ending(fileName: string): string {
  const lower = fileName.toLowerCase();
  return KNOWN_ENDINGS.find((e) => lower.endsWith(e)) ?? '.jsonl';
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * The error with the upload's path on this machine replaced by the file's own name, in its sentence and
 * its details: the page chose the file, and it may not learn where the host keeps it.
 */
function inUserWords(error: unknown, upload: Upload): unknown {
  if (!(error instanceof Error)) return error;
  const swap = (text: string, from: string, to: string) => text.split(from).join(to);
  error.message = swap(error.message, upload.path, upload.fileName);
  const withDetails = error as { details?: unknown; file?: unknown };
  if (withDetails.details !== undefined) {
    const json = JSON.stringify(withDetails.details);
    const text = json && swap(json, JSON.stringify(upload.path).slice(1, -1), JSON.stringify(upload.fileName).slice(1, -1));
    if (text !== json) Object.assign(error, { details: JSON.parse(text) as unknown });
  }
  if (withDetails.file === upload.path) Object.assign(error, { file: upload.fileName });
  return error;
}

/** Bytes free to this user on the disk that holds `folder`, or null where the system cannot say. */
function freeBytes(folder: string): number | null {
  try {
    const stats = statfsSync(folder);
    return stats.bavail * stats.bsize;
  } catch {
    return null;
  }
}

export function uploadsHandlers(context: ServiceContext): FeatureHandlers<UploadOps> {
  const { db, jobs, options } = context;
  const folder = join(dirname(options.dbPath), 'uploads');
  const uploads = new Map<string, Upload>();
  const idleMs = () => limit('uploadIdleMs');
  const idleWords = () => formatLimit('duration', idleMs());

  const discard = (uploadId: string) => {
    const upload = uploads.get(uploadId);
    if (!upload) return false;
    uploads.delete(uploadId);
    rmSync(upload.path, { force: true });
    return true;
  };

  /**
   * Removes uploads idle past the expiry, and files in the folder no upload of this process owns that
   * were not touched for as long (left by a run that ended). Files of uploads being imported are touched
   * here, so another process sharing the folder sees them as alive.
   */
  const sweep = () => {
    const now = Date.now();
    const expiry = idleMs();
    const owned = new Set<string>();
    for (const [uploadId, upload] of uploads) {
      if (upload.busy) {
        upload.touched = now;
        try {
          utimesSync(upload.path, new Date(now), new Date(now));
        } catch {
          /* removed under us: the import reports it */
        }
      } else if (now - upload.touched > expiry) {
        discard(uploadId);
        continue;
      }
      owned.add(upload.path);
    }
    let names: string[];
    try {
      names = readdirSync(folder);
    } catch {
      return;
    }
    for (const name of names) {
      const path = join(folder, name);
      if (owned.has(path)) continue;
      try {
        if (now - statSync(path).mtimeMs > expiry) rmSync(path, { force: true });
      } catch {
        /* gone already */
      }
    }
  };
  sweep();
  // Unref'd: a sweeper alone never keeps the process alive.
  setInterval(sweep, Math.max(1000, Math.min(SWEEP_EVERY_MS, Math.floor(idleMs() / 4)))).unref();

  const find = (uploadId: string): Upload => {
    const upload = uploads.get(uploadId);
    if (!upload)
      throw notFound(`That upload is gone (it was imported or discarded, it sat idle for more than ${idleWords()}, or the app restarted). Choose the file again.`);
    upload.touched = Date.now();
    return upload;
  };
  const complete = (upload: Upload) => {
    if (upload.received !== upload.size) throw invalidInput(`The upload has ${upload.received} of ${upload.size} bytes; send the rest first.`);
  };

  /** Refuses an upload that is too large, one too many, or more than the disk can hold with its reserve. */
  const admit = (fileName: string, size: number) => {
    const max = limit('uploadMaxBytes');
    if (size > max)
      throw invalidInput(
        `${fileName} is ${formatBytes(size)}; an upload may be at most ${formatBytes(max)}. Import it with the command line (arbiter import FILE --project NAME), ` +
          `or start Arbiter with ARBITER_UPLOAD_MAX_BYTES set higher.`,
      );
    const open = limit('uploadsMaxOpen');
    if (uploads.size >= open)
      throw conflict(
        `${plural(uploads.size, 'upload is', 'uploads are')} open already (at most ${open}). Import or discard one first; an abandoned one is removed after ${idleWords()} idle.`,
      );
    const free = freeBytes(dirname(folder));
    if (free === null) return;
    const reserve = limit('diskReserveBytes');
    const arriving = [...uploads.values()].reduce((sum, u) => sum + (u.size - u.received), 0);
    if (size + arriving + reserve > free)
      throw invalidInput(
        `The disk that holds Arbiter's data has ${formatBytes(free)} free; ${fileName} needs ${formatBytes(size)}, and ${formatBytes(reserve)} is kept free` +
          (arriving ? ` (and ${formatBytes(arriving)} is reserved for uploads still arriving)` : '') +
          '. Free some space and try again, or import the file with the command line.',
      );
  };

  return {
    startUpload: ({ fileName, size }) => {
      sweep();
      admit(fileName, size);
      mkdirSync(folder, { recursive: true });
      const uploadId = randomBytes(16).toString('hex');
      const path = join(folder, `${uploadId}${ending(fileName)}`);
      closeSync(openSync(path, 'wx'));
      uploads.set(uploadId, { path, fileName, size, received: 0, busy: false, touched: Date.now() });
      return { uploadId };
    },
    uploadChunk: ({ uploadId, offset, data }) => {
      const upload = find(uploadId);
      if (offset !== upload.received) throw invalidInput(`Expected the piece at byte ${upload.received}, got one at ${offset}.`);
      const bytes = Buffer.from(data, 'base64');
      if (upload.received + bytes.length > upload.size) throw invalidInput(`The pieces add up to more than the ${upload.size} bytes announced.`);
      const fd = openSync(upload.path, 'r+');
      try {
        writeSync(fd, bytes, 0, bytes.length, offset);
      } catch (error) {
        closeSync(fd);
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
        discard(uploadId);
        throw invalidInput(`The disk that holds Arbiter's data is full; the upload of ${upload.fileName} was removed. Free some space and choose the file again.`);
      }
      closeSync(fd);
      upload.received += bytes.length;
      return { received: upload.received };
    },
    previewUpload: async ({ uploadId, format }) => {
      const upload = find(uploadId);
      complete(upload);
      try {
        const lines = await headLines(upload.path, 50, upload.fileName);
        return previewHead(lines.length ? `${lines.join('\n')}\n` : '', format);
      } catch (error) {
        throw inUserWords(error, upload);
      }
    },
    importUpload: async ({ uploadId, project, format, skipInvalid, createProject, imagesDir }) => {
      const upload = find(uploadId);
      complete(upload);
      if (upload.busy) throw conflict('This file is being imported already.');
      // A project to create is made by the import itself, hidden until it completes (store/imports.ts).
      if (!createProject) requireProject(db, project);
      upload.busy = true;
      const task = { kind: 'importFile' as const, project, path: upload.path, fileName: upload.fileName, format, skipInvalid, createProject, imagesDir };
      try {
        const summary = await runImportTask(context, task);
        discard(uploadId);
        return summary;
      } catch (error) {
        throw inUserWords(error, upload);
      } finally {
        // A failed or cancelled import keeps the upload: the user may try again (e.g. skipping invalid lines).
        upload.busy = false;
        upload.touched = Date.now();
      }
    },
    importFolder: async ({ project, path, format, createProject }) => {
      // Read where it is, never written into (no rejects file beside it: an episode refused is a failure).
      if (!isAbsolute(path)) throw invalidInput(`Name the dataset folder by its full path on this computer (such as /data/so101), not "${path}".`);
      if (!existsSync(join(path, 'meta', 'info.json')) || !statSync(path).isDirectory())
        throw invalidInput(`${path} is not a dataset folder Arbiter reads: a LeRobot dataset has meta/info.json in it.`);
      if (!createProject) requireProject(db, project);
      // The episodes' videos are read from the folder itself (imagesDir: an upload's media folder).
      const task = { kind: 'importFile' as const, project, path, fileName: basename(path), format, skipInvalid: false, createProject, imagesDir: path };
      return runImportTask(context, task);
    },
    mergeLabelsUpload: async ({ uploadId, project }) => {
      const upload = find(uploadId);
      complete(upload);
      requireProject(db, project);
      if (upload.busy) throw conflict('This file is being merged already.');
      upload.busy = true;
      const task = { kind: 'mergeLabels' as const, project, path: upload.path, fileName: upload.fileName };
      try {
        const merged = await jobs.runTask({ dbPath: options.dbPath, task, inline: (hooks) => runTask(db, task, hooks) as Promise<LabelsImportResult> });
        discard(uploadId);
        return { file: upload.fileName, ...merged };
      } catch (error) {
        throw inUserWords(error, upload);
      } finally {
        upload.busy = false;
        upload.touched = Date.now();
      }
    },
    discardUpload: ({ uploadId }) => ({ discarded: discard(uploadId) }),
  };
}
