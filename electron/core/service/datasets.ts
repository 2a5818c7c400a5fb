// Datasets: import (preview, run as a job), the items table, export (as a job), project figures.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { ApiOutputs, ApiParsed, DownloadTicket } from '../../../shared/api';
import { notFound } from '../base/errors';
import { previewHead } from '../formats/index';
import { listItemsTable } from './itemsTable';
import { exportsDir } from '../base/paths';
import { imagesFolderOf } from '../formats/vision/imagesBeside';
import type { Db } from '../store/db';
import * as projects from '../store/projects';
import { projectAnnotators, projectStats } from '../store/stats';
import { runTask } from '../tasks/run';
import type { FeatureHandlers, ServiceContext } from './context';
import { requireProject } from './guards';
import { runImportTask } from './importTask';
import { screenTotals } from './screenTotals';

type DatasetOps = 'previewImport' | 'importContent' | 'listItems' | 'exportProject' | 'downloadTicket' | 'stats' | 'annotators';

export function datasetsHandlers(context: ServiceContext): FeatureHandlers<DatasetOps> {
  const { db } = context;
  const totals = screenTotals(context);
  return {
    previewImport: ({ head, format }) => previewHead(head, format),
    importContent: async ({ project, fileName, content, format, skipInvalid, createProject, imagesDir }) => {
      // A project to create is made by the import itself, hidden until it completes (store/imports.ts).
      if (!createProject || projects.findProject(db, project)) requireProject(db, project);
      const sha256 = createHash('sha256').update(content).digest('hex');
      // A worker with its own connection does the work; this thread only awaits it.
      const task = { kind: 'import' as const, project, fileName, content, sha256, format, skipInvalid, createProject: createProject ?? false, imagesDir };
      return runImportTask(context, task);
    },
    listItems: (request) => {
      const row = requireProject(db, request.project);
      // The shapes as counted (a large project's once its worker has counted them: until then every filter).
      return listItemsTable(db, row.id, request, totals.shapes(row));
    },
    exportProject: (input) => exportToFolder(context, input),
    downloadTicket: ({ project, file }) => downloadsOf(db).issue(requireProject(db, project), file),
    stats: ({ project }) => projectStats(db, requireProject(db, project)),
    annotators: ({ project }) => projectAnnotators(db, requireProject(db, project).id),
  };
}

/**
 * An export into the app's exports folder, as a job, remembered for a download ticket; `items`: only these
 * item ids (the items explorer's selection or view: ./items.ts).
 */
export async function exportToFolder(context: ServiceContext, { project, format, annotator, neutral, rankingPairs, fromRatings, adjudicatedOnly, minAgreement, images }: ApiParsed<'exportProject'>, items?: number[]): Promise<ApiOutputs['exportProject']> {
  const { db, jobs, options } = context;
  const row = requireProject(db, project);
  const target = join(exportsDir(options.dbPath), exportFileName(project, format));
  const task = { kind: 'export' as const, project, format, out: target, annotator, neutral, rankingPairs, fromRatings, adjudicatedOnly, minAgreement, images, items };
  const summary = await jobs.runTask({
    dbPath: options.dbPath,
    task,
    inline: (hooks) => runTask(db, task, hooks) as Promise<ApiOutputs['exportProject']>,
  });
  downloadsOf(db).remember(row.id, target);
  // The browser host sends a file with its images folder as one zip (host/downloads.ts): say so.
  const folder = imagesFolderOf(target);
  if (options.transport === 'http' && format === 'lerobot') {
    const zip = `The download is ${basename(target)}.zip: the dataset folder ${basename(target)}/ (unpack it and import the folder).`;
    summary.note = summary.note ? `${summary.note} ${zip}` : zip;
  } else if (options.transport === 'http' && existsSync(folder)) {
    const zip = `The download is ${basename(target).replace(/\.[^.]+$/, '')}.zip: ${basename(target)} and its folder ${basename(folder)}/ (unpack it and load the file where it is).`;
    summary.note = summary.note ? `${summary.note} ${zip}` : zip;
  }
  // The page is untrusted: it learns the file's name, never where the data folder is.
  return { ...summary, out: basename(target) };
}

/**
 * `<project>-<format>-<UTC time>-<random>.jsonl` (`.parquet` for a Parquet format): safe on every file
 * system, unique, readable in a downloads folder. A trl-vision export has its images in
 * `<same name>_images/` beside it (formats/vision/imagesBeside.ts), which goes and comes with the file.
 */
function exportFileName(project: string, format: string): string {
  const slug = project.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'project';
  const time = new Date().toISOString().replace(/\.\d+Z$/, 'Z').replace(/[-:]/g, '');
  return `${slug}-${format}-${time}-${randomBytes(3).toString('hex')}${format.endsWith('-parquet') ? '.parquet' : (EXTENSIONS[format] ?? '.jsonl')}`;
}

/** Formats whose output is not JSON Lines: VideoAlign's CSV, a LeRobot dataset (a folder: no extension). */
const EXTENSIONS: Record<string, string> = { videoalign: '.csv', lerobot: '' };

const TICKET_LIFETIME_MS = 60_000;

/**
 * The export files this service wrote, by project id, and one-time download tickets for them. A ticket
 * is the only capability the browser host's GET /download/<ticket> accepts (a link cannot carry the
 * token in a header), so it names one file, works once and expires soon. A file given a ticket leaves
 * the exports folder a minute after its latest ticket was issued, downloaded or not ("Download again"
 * within that minute gets a new ticket for it).
 */
class ExportDownloads {
  private readonly files = new Map<number, Map<string, string>>();
  private readonly tickets = new Map<string, { path: string; file: string; expiresAt: number }>();
  /** Files given a ticket, and when they go. */
  private readonly keepUntil = new Map<string, number>();
  /** Files being sent as a zip that opens them one by one (an export with its images beside it): kept until sent. */
  private readonly sending = new Map<string, number>();

  remember(projectId: number, path: string): void {
    const files = this.files.get(projectId) ?? new Map<string, string>();
    files.set(basename(path), path);
    this.files.set(projectId, files);
  }

  issue(project: projects.ProjectRow, file: string): DownloadTicket {
    const now = Date.now();
    this.sweep(now);
    const path = this.files.get(project.id)?.get(file);
    if (!path || !existsSync(path))
      throw notFound(
        `Project "${project.name}" has no export named ${file} from this session (an export is kept for a minute after its download). Export it again, then download it.`,
      );
    const ticket = randomBytes(32).toString('base64url');
    this.tickets.set(ticket, { path, file, expiresAt: now + TICKET_LIFETIME_MS });
    this.keepUntil.set(path, now + TICKET_LIFETIME_MS);
    // Unref'd: a pending removal never keeps the process alive.
    setTimeout(() => this.sweep(Date.now()), TICKET_LIFETIME_MS + 1000).unref();
    return { ticket, expiresInSeconds: TICKET_LIFETIME_MS / 1000 };
  }

  /** The file a ticket stands for, once: the ticket is spent whether or not it was still valid. */
  redeem(ticket: string): { path: string; file: string } | null {
    const now = Date.now();
    const entry = this.tickets.get(ticket);
    this.tickets.delete(ticket);
    this.sweep(now);
    return entry && entry.expiresAt > now ? { path: entry.path, file: entry.file } : null;
  }

  /** Keeps a file (and its images folder) while it is sent; the returned function lets it go a minute later. */
  hold(path: string): () => void {
    this.sending.set(path, (this.sending.get(path) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.sending.get(path) ?? 1) - 1;
      if (left > 0) this.sending.set(path, left);
      else this.sending.delete(path);
      this.keepUntil.set(path, Date.now() + TICKET_LIFETIME_MS);
      setTimeout(() => this.sweep(Date.now()), TICKET_LIFETIME_MS + 1000).unref();
    };
  }

  /** Expired tickets go, and the files whose latest ticket has expired (unless they are being sent). */
  private sweep(now: number): void {
    for (const [ticket, entry] of this.tickets) if (entry.expiresAt <= now) this.tickets.delete(ticket);
    for (const [path, until] of this.keepUntil)
      if (until <= now && !this.sending.has(path)) {
        this.keepUntil.delete(path);
        try {
          rmSync(path, { recursive: true, force: true }); // a LeRobot export is a folder
          rmSync(imagesFolderOf(path), { recursive: true, force: true });
        } catch {
          /* still being sent (Windows): the next sweep does not see it again, the folder's owner may */
        }
      }
  }
}

// One registry per service (keyed by its connection), so services in one process never share tickets.
const downloadsByDb = new WeakMap<Db, ExportDownloads>();

function downloadsOf(db: Db): ExportDownloads {
  let downloads = downloadsByDb.get(db);
  if (!downloads) downloadsByDb.set(db, (downloads = new ExportDownloads()));
  return downloads;
}

/** For the browser host's GET /download/<ticket>: the export file the ticket stands for, once, or null. */
export function redeemDownloadTicket(db: Db, ticket: string): { path: string; file: string } | null {
  return downloadsOf(db).redeem(ticket);
}

/** For a download that reads the export's files as it goes (a zip of a file and its images): keeps them until it calls the answer. */
export function holdDownload(db: Db, path: string): () => void {
  return downloadsOf(db).hold(path);
}
