// Uploads: a picked file arrives in pieces into the uploads folder beside the database, is previewed from
// its head, and is imported from disk by a task worker (streamed: .jsonl, .jsonl.gz, .json, .parquet).
// The id is the core's own random name; the original file name only chooses the ending and the name
// shown in messages.
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readdirSync, rmSync, statSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ApiOutputs } from '../../../shared/api';
import { conflict, invalidInput, notFound } from '../errors';
import { previewHead } from '../formats/index';
import type { LabelsImportResult } from '../formats/labels';
import { headLines } from '../formats/sources/index';
import * as projects from '../store/projects';
import { runTask } from '../tasks/run';
import type { FeatureHandlers, ServiceContext } from './context';
import { requireProject } from './guards';

type UploadOps = 'startUpload' | 'uploadChunk' | 'previewUpload' | 'importUpload' | 'mergeLabelsUpload' | 'discardUpload';

interface Upload {
  path: string;
  fileName: string;
  size: number;
  received: number;
  busy: boolean;
}

/** Endings an upload keeps (how the importer knows what it reads); anything else is read as JSON Lines. */
const KNOWN_ENDINGS = ['.jsonl.gz', '.json.gz', '.ndjson.gz', '.jsonl', '.ndjson', '.json', '.parquet', '.gz'];
/** Uploads nobody finished or imported are removed when the app starts, once older than this. */
const STALE_MS = 24 * 3600 * 1000;

function ending(fileName: string): string {
  const lower = fileName.toLowerCase();
  return KNOWN_ENDINGS.find((e) => lower.endsWith(e)) ?? '.jsonl';
}

export function uploadsHandlers({ db, jobs, events, options }: ServiceContext): FeatureHandlers<UploadOps> {
  const folder = join(dirname(options.dbPath), 'uploads');
  const uploads = new Map<string, Upload>();
  removeStale(folder);

  const find = (uploadId: string): Upload => {
    const upload = uploads.get(uploadId);
    if (!upload) throw notFound('That upload is gone (it was imported, discarded, or the app restarted). Choose the file again.');
    return upload;
  };
  const complete = (upload: Upload) => {
    if (upload.received !== upload.size) throw invalidInput(`The upload has ${upload.received} of ${upload.size} bytes; send the rest first.`);
  };
  const discard = (uploadId: string) => {
    const upload = uploads.get(uploadId);
    if (!upload) return false;
    uploads.delete(uploadId);
    rmSync(upload.path, { force: true });
    return true;
  };

  return {
    startUpload: ({ fileName, size }) => {
      mkdirSync(folder, { recursive: true });
      const uploadId = randomBytes(16).toString('hex');
      const path = join(folder, `${uploadId}${ending(fileName)}`);
      closeSync(openSync(path, 'wx'));
      uploads.set(uploadId, { path, fileName, size, received: 0, busy: false });
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
      } finally {
        closeSync(fd);
      }
      upload.received += bytes.length;
      return { received: upload.received };
    },
    previewUpload: async ({ uploadId, format }) => {
      const upload = find(uploadId);
      complete(upload);
      const lines = await headLines(upload.path);
      return previewHead(lines.length ? `${lines.join('\n')}\n` : '', format);
    },
    importUpload: async ({ uploadId, project, format, skipInvalid, createProject }) => {
      const upload = find(uploadId);
      complete(upload);
      if (upload.busy) throw conflict('This file is being imported already.');
      if (!createProject) requireProject(db, project);
      else if (!projects.findProject(db, project)) projects.ensureProject(db, project);
      upload.busy = true;
      const task = { kind: 'importFile' as const, project, path: upload.path, fileName: upload.fileName, format, skipInvalid, createProject };
      try {
        const summary = await jobs.runTask({
          dbPath: options.dbPath,
          task,
          inline: (hooks) => runTask(db, task, hooks) as Promise<ApiOutputs['importContent']>,
          onProgress: (progress) => {
            if ('linesRead' in progress) events.emit('event', { type: 'import', project, linesRead: progress.linesRead });
          },
        });
        discard(uploadId);
        return summary;
      } finally {
        // A failed or cancelled import keeps the upload: the user may try again (e.g. skipping invalid lines).
        upload.busy = false;
      }
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
      } finally {
        upload.busy = false;
      }
    },
    discardUpload: ({ uploadId }) => ({ discarded: discard(uploadId) }),
  };
}

function removeStale(folder: string): void {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return;
  }
  for (const name of names) {
    const path = join(folder, name);
    try {
      if (Date.now() - statSync(path).mtimeMs > STALE_MS) rmSync(path, { force: true });
    } catch {
      /* gone already */
    }
  }
}
