// Streaming import: one pass over the lines, inside one transaction. Every bad line is collected with its
// number and reason; without skipInvalid any bad line rolls the whole file back, with it the good lines
// are kept and the bad ones returned (and written beside the input by importFile).
import { writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { ImportSummary, LineError } from '../../../shared/domain';
import type { PreviewResult } from '../../../shared/api';
import type { ImportFormat } from '../../../shared/formatNames';
import { ArbiterError, InvalidFileError } from '../errors';
import { ensureAnnotator, SOURCE_ANNOTATOR } from '../store/annotators';
import type { Db } from '../store/db';
import { draftUid, itemInserter } from '../store/items';
import { labelAppender } from '../store/labels';
import { ensureProject, requireProject } from '../store/projects';
import { parseArbiter } from './arbiter';
import { displayText } from './content';
import { detectFormat } from './detect';
import { parseHhRlhf } from './hhRlhf';
import { hashFile, readLines } from './jsonl';
import { parseRewardbench } from './rewardbench';
import { parseTrl, parseTrlChat, parseTrlChatImplicit, parseTrlImplicit } from './trl';
import { RecordError, type RecordParser } from './types';

export const PARSERS: Record<ImportFormat, RecordParser> = {
  arbiter: parseArbiter,
  trl: parseTrl,
  'trl-implicit': parseTrlImplicit,
  'trl-chat': parseTrlChat,
  'trl-chat-implicit': parseTrlChatImplicit,
  'hh-rlhf': parseHhRlhf,
  rewardbench: parseRewardbench,
};

/**
 * SQLite page cache during an import, in KiB (SQLite's default is 2 MB). Pages are only allocated as
 * they are used, and the cache goes back to its old size when the import ends. With 64 MB, 500k pairs
 * took 60 s; with 256 MB, 45 s (random-order uid and label-id index inserts stop spilling to the WAL).
 */
const IMPORT_CACHE_KIB = 256 * 1024;

/** How many non-blank lines `auto` looks at before it decides. */
export const DETECT_RECORDS = 20;

function parseJson(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new RecordError(`invalid JSON: ${(error as Error).message}`);
  }
  if (value === null || typeof value !== 'object') throw new RecordError(`not a JSON object (a ${value === null ? 'null' : typeof value})`);
  if (Array.isArray(value)) throw new RecordError('not a JSON object (a list)');
  return value as Record<string, unknown>;
}

export interface ImportLinesOptions {
  project: string;
  /** Names the file in error messages (`FILE:LINE: reason`) and in the import_file record. */
  fileName: string;
  lines: AsyncIterable<string> | Iterable<string>;
  sha256: string;
  format: 'auto' | ImportFormat;
  skipInvalid: boolean;
  createProject?: boolean;
  onProgress?: (linesRead: number) => void;
}

export interface ImportLinesResult {
  summary: ImportSummary;
  errors: LineError[];
  /** The rejected lines, as they were in the file. */
  rejects: string[];
  /** Why this format: the detection's one-line reason, or that it was given. */
  formatReason: string;
}

export async function importLines(db: Db, opts: ImportLinesOptions): Promise<ImportLinesResult> {
  const errors: LineError[] = [];
  const rejects: string[] = [];
  let format: ImportFormat | null = opts.format === 'auto' ? null : opts.format;
  let formatReason = format ? `${format}: given` : '';
  let parse: RecordParser | null = format ? PARSERS[format] : null;
  let lineNo = 0;
  let records = 0;
  let items = 0;
  let duplicates = 0;
  let labels = 0;

  // A bigger page cache for the length of the import: the uid and label-id indexes take keys in random
  // order, and with SQLite's default 2 MB cache every insert into them would go back to disk.
  const cacheSize = db.pragma('cache_size', { simple: true }) as number;
  if (cacheSize > -IMPORT_CACHE_KIB && cacheSize < IMPORT_CACHE_KIB) db.pragma(`cache_size = -${IMPORT_CACHE_KIB}`);
  // Every id this import writes comes from a row it just inserted or looked up, so foreign keys hold by
  // construction; checking them per row would cost six index lookups per pair. The pragma cannot change
  // inside a transaction, hence here; the integration tests run foreign_key_check after imports.
  const foreignKeys = db.pragma('foreign_keys', { simple: true }) as number;
  db.pragma('foreign_keys = OFF');
  db.exec('BEGIN IMMEDIATE');
  try {
    const project = opts.createProject ? ensureProject(db, opts.project) : requireProject(db, opts.project);
    const inserter = itemInserter(db, project.id);
    const append = labelAppender(db);
    const createdAt = new Date().toISOString();
    let sourceId: string | null = null;
    const sourceHead = db.prepare(
      "SELECT 1 FROM label_head h JOIN annotator a ON a.id = h.annotator_id WHERE h.item_id = ? AND a.kind = 'source' AND h.choice IS NOT NULL",
    );
    const hasSourceLabel = (itemId: number) => sourceHead.get(itemId) !== undefined;
    // After the first bad line of an all-or-nothing import nothing will be kept: only validate.
    let validateOnly = false;

    const handle = (line: number, text: string, value?: Record<string, unknown> | RecordError) => {
      try {
        if (value instanceof RecordError) throw value;
        const parsed = parse!(value ?? parseJson(text));
        if (validateOnly) return;
        const uid = draftUid(parsed.draft);
        const { id, inserted } = inserter.insert(parsed.draft, uid);
        if (inserted) items++;
        else duplicates++;
        // The file's own preference becomes a revision of the `source` annotator, once per item: a
        // re-import finds the item and its source label already there and adds nothing.
        if (parsed.preference && (inserted || !hasSourceLabel(id))) {
          sourceId ??= ensureAnnotator(db, SOURCE_ANNOTATOR, 'source').id;
          const added = append({
            itemId: id,
            annotatorId: sourceId,
            createdAt,
            choice: parsed.preference,
            strength: null,
            shownOrder: null,
          });
          if (added !== null) labels++;
        }
      } catch (error) {
        if (!(error instanceof RecordError)) throw error;
        errors.push({ line, reason: error.message });
        rejects.push(text);
        if (!opts.skipInvalid) validateOnly = true;
      }
    };

    let pending: { line: number; text: string; value: Record<string, unknown> | RecordError }[] | null = format ? null : [];
    const settleFormat = () => {
      const values = pending!.filter((p) => !(p.value instanceof RecordError)).map((p) => p.value);
      const detected = detectFormat(values);
      if (!detected.format) {
        throw new ArbiterError('invalid_file', `Cannot tell the format of ${opts.fileName}: ${detected.reason}. Name it with --format.`, {
          reason: detected.reason,
        });
      }
      format = detected.format;
      formatReason = detected.reason;
      parse = PARSERS[format];
      const buffered = pending!;
      pending = null;
      for (const p of buffered) handle(p.line, p.text, p.value);
    };

    for await (const raw of opts.lines) {
      lineNo++;
      let text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
      if (lineNo === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      if (opts.onProgress && lineNo % 1000 === 0) opts.onProgress(lineNo);
      if (text.trim() === '') continue;
      records++;
      if (pending) {
        let value: Record<string, unknown> | RecordError;
        try {
          value = parseJson(text);
        } catch (error) {
          value = error as RecordError;
        }
        pending.push({ line: lineNo, text, value });
        if (pending.length >= DETECT_RECORDS) settleFormat();
        continue;
      }
      handle(lineNo, text);
    }
    if (records === 0) throw new ArbiterError('invalid_file', `${opts.fileName} has no records (it is empty or blank); nothing was imported.`);
    if (pending) settleFormat();
    if (errors.length && !opts.skipInvalid) throw new InvalidFileError(opts.fileName, errors);
    db.prepare(
      'INSERT INTO import_file (project_id, sha256, file_name, format, imported_at, items, labels) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ).run(project.id, opts.sha256, basename(opts.fileName), format!, createdAt, items, labels);
    db.exec('COMMIT');
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw error;
  } finally {
    db.pragma(`cache_size = ${cacheSize}`);
    db.pragma(`foreign_keys = ${foreignKeys}`);
  }
  opts.onProgress?.(lineNo);
  return {
    summary: {
      project: opts.project,
      format: format!,
      file: opts.fileName,
      lines: records,
      items,
      duplicates,
      labels,
      rejected: errors.length,
      rejectsFile: null,
    },
    errors,
    rejects,
    formatReason,
  };
}

export interface ImportFileOptions {
  path: string;
  project: string;
  format?: 'auto' | ImportFormat;
  skipInvalid?: boolean;
  createProject?: boolean;
  onProgress?: (linesRead: number) => void;
}

export function rejectsPath(path: string): string {
  return `${path}.rejects.jsonl`;
}

/** Imports a JSONL file; with skipInvalid, the rejected lines are written to `<path>.rejects.jsonl`. */
export async function importFile(db: Db, opts: ImportFileOptions): Promise<ImportSummary & { errors: LineError[]; formatReason: string }> {
  const sha256 = await hashFile(opts.path);
  const result = await importLines(db, {
    project: opts.project,
    fileName: opts.path,
    lines: readLines(opts.path),
    sha256,
    format: opts.format ?? 'auto',
    skipInvalid: opts.skipInvalid ?? false,
    createProject: opts.createProject ?? false,
    onProgress: opts.onProgress,
  });
  let rejectsFile: string | null = null;
  if (result.rejects.length) {
    rejectsFile = rejectsPath(opts.path);
    await writeFile(rejectsFile, `${result.rejects.join('\n')}\n`, 'utf8');
  }
  return { ...result.summary, rejectsFile, errors: result.errors, formatReason: result.formatReason };
}

/**
 * What the import dialog shows before importing: the detected format and why, the first records as
 * they will be stored, and every bad line in the head. A last line without its line end may have been
 * cut off by the caller; it is ignored unless it parses.
 */
export function previewHead(head: string, format: 'auto' | ImportFormat, maxRecords = 5): PreviewResult {
  const lines = head.split('\n');
  if (!head.endsWith('\n')) {
    const last = lines[lines.length - 1]!;
    try {
      JSON.parse(last);
    } catch {
      lines.pop();
    }
  } else lines.pop();
  const entries: { line: number; text: string; value: Record<string, unknown> | RecordError }[] = [];
  lines.forEach((raw, i) => {
    let text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (i === 0 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    if (text.trim() === '') return;
    let value: Record<string, unknown> | RecordError;
    try {
      value = parseJson(text);
    } catch (error) {
      value = error as RecordError;
    }
    entries.push({ line: i + 1, text, value });
  });
  const detection = detectFormat(
    entries
      .slice(0, DETECT_RECORDS)
      .filter((e) => !(e.value instanceof RecordError))
      .map((e) => e.value),
  );
  const chosen = format === 'auto' ? detection.format : format;
  const reason = format === 'auto' ? detection.reason : `${format}: given${detection.format && detection.format !== format ? ` (auto-detection says ${detection.reason})` : ''}`;
  const result: PreviewResult = { detected: detection.format, format: chosen, reason, records: [], errors: [], linesRead: lines.length };
  if (!chosen) return result;
  const parse = PARSERS[chosen];
  for (const entry of entries) {
    try {
      if (entry.value instanceof RecordError) throw entry.value;
      const parsed = parse(entry.value);
      if (result.records.length < maxRecords) {
        result.records.push({
          line: entry.line,
          prompt: displayText(parsed.draft.prompt),
          responses: parsed.draft.responses.map((r) => displayText(r.content)),
          choice: parsed.preference,
        });
      }
    } catch (error) {
      if (!(error instanceof RecordError)) throw error;
      result.errors.push({ line: entry.line, reason: error.message });
    }
  }
  return result;
}
