// Streaming import: one pass over the lines, inside one transaction. Every bad line is collected with its
// number and reason; without skipInvalid any bad line rolls the whole file back, with it the good lines
// are kept and the bad ones returned (and written beside the input by importFile, ./file.ts).
//
// The input goes through in chunks (1 MiB of a file, or 2,000 given lines). Preparing a chunk (parse,
// validate, hash, stringify: ./prepare.ts) is pure; for a big input an import worker does it
// while this thread writes the chunks before it to SQLite, 64 rows per statement. Format detection and
// any chunk that comes before the worker has loaded are prepared here, as is everything of a small input.
import { statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import type { Choice, ImportSummary, LineError, NamedCount } from '../../../../shared/domain';
import { GUI_TRAJECTORY_FORMATS, TRAJECTORY_FORMATS, type ImportFormat } from '../../../../shared/formatNames';
import { agentErrorTags } from '../../../../shared/stepJudgement';
import { ArbiterError, cancelledError, InvalidFileError, UnknownFormatError } from '../../base/errors';
import { imageContext, type ImageSources, type RecordImages } from '../../images/resolve';
import { imageStoreOf } from '../../images/store';
import { ensureAnnotator, SOURCE_ANNOTATOR } from '../../store/annotators';
import type { Db } from '../../store/db';
import { projectImageAdder } from '../../store/images';
import { projectVideoAdder } from '../../store/videos';
import { beginImport, completeImport, dropImportProject, importProject, importSession, removeImport, sharedExternalIds, type PendingImport } from '../../store/imports';
import { itemBatchInserter } from '../../store/itemInsert';
import { currentLabel, hasSourceLabel, labelAppender, newItemLabels } from '../../store/labels';
import { findProject, requireProject } from '../../store/projects';
import { writeNow } from '../../store/write';
import { itemCriteriaText, setItemCriteria } from '../../store/rubrics';
import { DETECT_RECORDS, detectLines } from './detect';
import { GROUPS, Grouper, type Emitted } from './group';
import { judgeResolver, type Judged } from './judges';
import { lineChunks, PARALLEL_MIN_LINES, parallelByDefault } from './inputs';
import { ImportWorker } from './pool';
import { previewHead } from './preview';
import { chunkLines, IMAGES_FIELD, JUDGEMENT_FIELD, LINE_FIELD, originalLine, parseJson, recordBounds, PARSERS, PREFERENCE_FIELD, prepareLines, prepareRecord, RECORD_STRIDE, RESPONSE_COUNT_FIELD, RESPONSE_STRIDE, SEARCH_FIELD, type Chunk, type ChunkResult, type RecordExtras } from './prepare';
import { RecordError, type RecordParser } from '../types';

export { DETECT_RECORDS, PARSERS, previewHead };

/**
 * SQLite page cache during an import, in KiB (SQLite's default is 2 MB). Pages are only allocated as
 * they are used, and the cache goes back to its old size when the import ends. With 64 MB, 500k pairs
 * took 60 s; with 256 MB, 45 s (random-order uid and label-id index inserts stop spilling to the WAL).
 */
const IMPORT_CACHE_KIB = 256 * 1024;
/** Items per write batch: a few milliseconds of SQL, so the write lock changes hands often. */
const WRITE_BATCH = 256;

/** How many items a summary names (shared ids, images). */
const EXAMPLES = 5;

/** Chunks handed to the worker ahead of the one being written: enough to keep both threads busy. */
const IN_FLIGHT = 3;

export interface ImportLinesOptions extends ImageFolders {
  project: string;
  /** Names the file in error messages (`FILE:LINE: reason`) and in the import_file record. */
  fileName: string;
  lines: AsyncIterable<string> | Iterable<string>;
  sha256: string;
  format: 'auto' | ImportFormat;
  skipInvalid: boolean;
  createProject?: boolean;
  onProgress?: (linesRead: number) => void;
  /** Prepare records in a worker thread (the result is the same): by default for big inputs on 3+ cores. */
  parallel?: boolean;
  /** Asked between chunks: true rolls the import back and rejects with a 'cancelled' error. */
  isCancelled?: () => boolean;
}

/**
 * Where an import reads relative image paths (core/images/resolve.ts): the images folder the user gave
 * (--images-dir, the import panel's field), else the folder of the file being imported. An upload or
 * text sent by a page has no folder of its own: only the images folder applies.
 */
export interface ImageFolders {
  imagesDir?: string | null;
  fileDir?: string | null;
}

export interface ImportLinesResult {
  summary: ImportSummary;
  errors: LineError[];
  /** The rejected lines, as they were in the file. */
  rejects: string[];
  /** Why this format: the detection's one-line reason, or that it was given. */
  formatReason: string;
}

export interface ImportRun extends ImageFolders {
  project: string;
  fileName: string;
  format: 'auto' | ImportFormat;
  skipInvalid: boolean;
  createProject?: boolean;
  onProgress?: (linesRead: number) => void;
  isCancelled?: () => boolean;
  parallel: boolean;
  /** Asked for explicitly: wait for the worker rather than start on this thread (tests rely on it). */
  waitForWorker: boolean;
  chunks: AsyncIterable<Chunk>;
  /** Read once every chunk has been read. */
  sha256: () => string;
}

/** The import's image sources; an images folder that is not one is refused before anything is read. */
/** The error tags a project of this format's items starts with: the agent taxonomy for agent trajectories. */
function startingErrorTags(format: string): string[] | null {
  if ((GUI_TRAJECTORY_FORMATS as readonly string[]).includes(format)) return agentErrorTags(true);
  return (TRAJECTORY_FORMATS as readonly string[]).includes(format) ? agentErrorTags(false) : null;
}

function imageSources(db: Db, folders: ImageFolders): ImageSources {
  let imagesDir: string | null = null;
  if (folders.imagesDir) {
    imagesDir = resolve(folders.imagesDir);
    let isFolder = false;
    try {
      isFolder = statSync(imagesDir).isDirectory();
    } catch {
      throw new ArbiterError('invalid_input', `The images folder ${imagesDir} does not exist; nothing was imported. Give the folder that holds the file's images.`);
    }
    if (!isFolder) throw new ArbiterError('invalid_input', `The images folder ${imagesDir} is a file, not a folder; nothing was imported. Give the folder that holds the file's images.`);
  }
  return { store: imageStoreOf(db), imagesDir, fileDir: folders.fileDir ? resolve(folders.fileDir) : null };
}

export async function importLines(db: Db, opts: ImportLinesOptions): Promise<ImportLinesResult> {
  const big = Array.isArray(opts.lines) && opts.lines.length >= PARALLEL_MIN_LINES;
  return runImport(db, { ...opts, parallel: opts.parallel ?? parallelByDefault(big), waitForWorker: opts.parallel === true || process.env.ARBITER_IMPORT_WORKER === 'on', chunks: lineChunks(opts.lines), sha256: () => opts.sha256 });
}

/** An import of any input: chunks of lines, however they were read (importLines, import/file.ts importFile). */
export async function runImport(db: Db, opts: ImportRun): Promise<ImportLinesResult> {
  const errors: LineError[] = [];
  const rejects: string[] = [];
  let format: ImportFormat | null = opts.format === 'auto' ? null : opts.format;
  let formatReason = format ? `${format}: given` : '';
  let parse: RecordParser | null = format ? PARSERS[format] : null;
  // A format whose item spans consecutive records is read here, a line at a time (./group.ts).
  const grouperFor = (f: ImportFormat) => (GROUPS[f] ? new Grouper(PARSERS[f], GROUPS[f]) : null);
  let grouper: Grouper | null = format ? grouperFor(format) : null;
  let lineNo = 0;
  let nextProgress = 1000;
  let records = 0;
  let items = 0;
  let duplicates = 0;
  let labels = 0;
  // New items holding images, their distinct images (those this import added to the store), items with
  // images not available offline; whether any new item has an external id (then shared ones are looked for).
  const images: NamedCount = { items: 0, examples: [] };
  const imagesOffline: NamedCount = { items: 0, examples: [] };
  const itemImages = new Set<string>();
  const itemVideos = new Set<string>();
  const addedImages = new Set<string>();
  const sources = imageSources(db, opts);
  const imageCtx = imageContext(sources);
  let withIds = false;
  let sharedIds: NamedCount = { items: 0, examples: [] };
  // (Cast: TypeScript would otherwise take it for null ever after, not seeing the closures assign it.)
  let worker = null as ImportWorker | null;
  let workerTried = false;

  const session = importSession(db, IMPORT_CACHE_KIB);
  let running: PendingImport | null = null;
  let madeProject: number | null = null;
  try {
    // A project made for the import is part of it: hidden until the import completes, gone if it does not.
    if (opts.createProject && !findProject(db, opts.project)) madeProject = importProject(db, opts.project).id;
    const project = madeProject === null ? requireProject(db, opts.project) : { id: madeProject };
    running = beginImport(db, project.id, basename(opts.fileName), format ?? 'auto');
    const inserter = itemBatchInserter(db, project.id, running.firstSeq, SEARCH_FIELD);
    const addProjectImages = projectImageAdder(db, project.id, running.firstSeq);
    const addProjectVideos = projectVideoAdder(db, project.id, running.firstSeq);
    const createdAt = new Date().toISOString();
    let sourceId: number | null = null;
    let newLabels: ReturnType<typeof newItemLabels> | null = null;
    // Items that were there before and lack the file's preference get it when the import completes: they
    // are visible, so it must not show before the rest does.
    const laterLabels: { itemId: number; choice: Choice }[] = [];
    // The file's other judgements (steps, rankings, verdicts, ratings, critiques, its annotators'
    // preferences): written with their new items, without moving counters until the import completes
    // (`judged`, by annotator and task); for items that were there before, at completion.
    const judged = new Map<string, number>();
    const laterJudgements: Judged[] = [];
    let judgementAppender: ReturnType<typeof labelAppender> | null = null;
    const judges = judgeResolver(db, project.id);
    // After the first bad line of an all-or-nothing import nothing will be kept: only validate.
    const failed = () => errors.length > 0 && !opts.skipInvalid;
    const ids: number[] = [];
    const inserted: boolean[] = [];
    const bounds = recordBounds();

    const progress = () => {
      if (!opts.onProgress) return;
      for (; nextProgress <= lineNo; nextProgress += 1000) opts.onProgress(nextProgress);
    };

    /** Writes a prepared chunk whose line 1 is line `base + 1` of the input, in short transactions. */
    const apply = (result: ChunkResult, base: number) => {
      for (const e of result.errors) {
        errors.push({ line: base + e.line, reason: e.reason });
        rejects.push(originalLine(e.text));
      }
      if (failed()) return;
      const { rows, responses } = result;
      const n = rows.length / RECORD_STRIDE;
      for (let from = 0, r = 0; from < n; from += WRITE_BATCH) {
        const count = Math.min(WRITE_BATCH, n - from);
        const batchRows = rows.slice(from * RECORD_STRIDE, (from + count) * RECORD_STRIDE);
        let responseValues = 0;
        for (let i = 0; i < count; i++) responseValues += Number(batchRows[i * RECORD_STRIDE + RESPONSE_COUNT_FIELD]) * RESPONSE_STRIDE;
        const batchResponses = responses.slice(r, r + responseValues);
        r += responseValues;
        session.write(() => {
          inserter.insertMany(batchRows, batchResponses, count, RECORD_STRIDE, ids, inserted);
          for (let i = 0; i < count; i++) {
            const preference = batchRows[i * RECORD_STRIDE + PREFERENCE_FIELD] as Choice | null;
            if (inserted[i]) {
              items++;
              const externalId = batchRows[i * RECORD_STRIDE + 1];
              if (externalId !== null) withIds = true;
              const imagesJson = batchRows[i * RECORD_STRIDE + IMAGES_FIELD];
              if (imagesJson) {
                const name = externalId ?? `line ${base + Number(batchRows[i * RECORD_STRIDE + LINE_FIELD])}`;
                if (images.items++ < EXAMPLES) images.examples.push(name);
                const found = JSON.parse(imagesJson) as RecordImages;
                addProjectImages(found.stored);
                if (found.videos) {
                  addProjectVideos(found.videos);
                  for (const sha of found.videos) itemVideos.add(sha);
                }
                for (const sha of found.stored) itemImages.add(sha);
                if (found.unavailable && imagesOffline.items++ < EXAMPLES) imagesOffline.examples.push(name);
              }
            } else duplicates++;
            const imagesJson = batchRows[i * RECORD_STRIDE + IMAGES_FIELD];
            if (imagesJson) for (const sha of (JSON.parse(imagesJson) as RecordImages).added) addedImages.add(sha);
            const extrasJson = batchRows[i * RECORD_STRIDE + JUDGEMENT_FIELD];
            if (extrasJson) {
              const extras = JSON.parse(extrasJson) as RecordExtras;
              // An item's own criteria: a new item's, or one that had none (a later import does not change them).
              if (extras.criteria && (inserted[i] || itemCriteriaText(db, ids[i]!) === null)) setItemCriteria(db, ids[i]!, extras.criteria);
              for (const judgement of extras.judgements ?? []) {
                const draft = judges.draft(project.id, ids[i]!, judgement, createdAt);
                if (!inserted[i]) laterJudgements.push({ draft, judgement });
                else {
                  judgementAppender ??= labelAppender(db, { counters: false });
                  judgementAppender(draft);
                  labels++;
                  const key = `${draft.annotatorId}|${draft.task}`;
                  judged.set(key, (judged.get(key) ?? 0) + 1);
                }
              }
            }
            if (!preference) continue;
            // The file's own preference becomes a revision of the `source` annotator, once per item: a
            // re-import finds the item and its source label already there and adds nothing.
            sourceId ??= ensureAnnotator(db, SOURCE_ANNOTATOR, 'source').id;
            if (inserted[i]) {
              newLabels ??= newItemLabels(db, sourceId, createdAt);
              labels += newLabels.add(ids[i]!, preference);
            } else laterLabels.push({ itemId: ids[i]!, choice: preference });
          }
          if (newLabels) labels += newLabels.flush();
        });
      }
      // The next chunk may take a while to come (a worker, a slow disk): hold no lock meanwhile.
      session.release();
    };

    /** Writes the items a Grouper completed (their lines are numbered from the input's start). */
    const applyEmitted = (emitted: Emitted[]) => {
      if (!emitted.length) return;
      const result: ChunkResult = { lines: 0, records: 0, rows: [], responses: [], errors: [] };
      for (const e of emitted) {
        if ('error' in e) result.errors.push(e.error);
        else if (!failed()) {
          // An item of several lines that cannot be prepared (an image that cannot be stored): each of its lines is rejected with why.
          try {
            prepareRecord(e.parsed, result.rows, result.responses, e.lines[0]!.line, imageCtx);
          } catch (error) {
            if (!(error instanceof RecordError)) throw error;
            for (const l of e.lines) result.errors.push({ line: l.line, reason: error.message, text: originalLine(l.text) });
          }
        }
      }
      apply(result, 0);
    };

    /** Prepares and writes the lines of a chunk here, from index `from` on. */
    const applyHere = (lines: string[], from: number) => {
      if (grouper) {
        const emitted: Emitted[] = [];
        for (let j = from; j < lines.length; j++) {
          const text = lines[j]!;
          if (text.trim() === '') continue;
          records++;
          let value: Record<string, unknown> | RecordError;
          try {
            value = parseJson(text, bounds);
          } catch (error) {
            value = error as RecordError;
          }
          emitted.push(...grouper.add({ line: lineNo + (j - from) + 1, text }, value));
        }
        applyEmitted(emitted);
        lineNo += lines.length - from;
        progress();
        return;
      }
      const rest = from ? lines.slice(from) : lines;
      const result = prepareLines(parse!, rest, failed(), imageCtx);
      records += result.records;
      apply(result, lineNo);
      lineNo += result.lines;
      progress();
    };

    // Format detection: the first DETECT_RECORDS records wait here, parsed as JSON only.
    let pending: { line: number; text: string; value: Record<string, unknown> | RecordError }[] | null = format ? null : [];
    const settleFormat = () => {
      const detected = detectLines(pending!);
      if (!detected.format) throw new UnknownFormatError(opts.fileName, detected.reason, detected.jsonLines);
      format = detected.format;
      formatReason = detected.reason;
      parse = PARSERS[format];
      const buffered = pending!;
      pending = null;
      grouper = grouperFor(format);
      if (grouper) {
        applyEmitted(buffered.flatMap((p) => grouper!.add({ line: p.line, text: p.text }, p.value)));
        return;
      }
      const result: ChunkResult = { lines: 0, records: 0, rows: [], responses: [], errors: [] };
      for (const p of buffered) {
        try {
          if (p.value instanceof RecordError) throw p.value;
          const parsed = parse(p.value);
          if (!failed()) prepareRecord(parsed, result.rows, result.responses, p.line, imageCtx);
        } catch (error) {
          if (!(error instanceof RecordError)) throw error;
          result.errors.push({ line: p.line, reason: error.message, text: p.text });
        }
      }
      apply(result, 0);
    };
    /** Handles a chunk while the format is not known yet; returns where detection stopped. */
    const detectIn = (lines: string[]): number => {
      for (let i = 0; i < lines.length; i++) {
        if (!pending) return i;
        const text = lines[i]!;
        lineNo++;
        progress();
        if (text.trim() === '') continue;
        records++;
        let value: Record<string, unknown> | RecordError;
        try {
          value = parseJson(text, bounds);
        } catch (error) {
          value = error as RecordError;
        }
        pending.push({ line: lineNo, text, value });
        if (pending.length >= DETECT_RECORDS) settleFormat();
      }
      return lines.length;
    };

    type Settled = { result: ChunkResult } | { error: unknown };
    const inFlight: { chunk: Chunk; first: boolean; settled: Promise<Settled>; ready: boolean }[] = [];
    const startWorker = async () => {
      if (workerTried || !format || !opts.parallel || GROUPS[format]) return;
      workerTried = true;
      worker = ImportWorker.start(format, sources);
      if (worker && opts.waitForWorker) await worker.whenReady;
    };
    const post = (chunk: Chunk, isFirst: boolean) => {
      const settled = worker!.prepareChunk(chunk, isFirst, failed()).then(
        (result): Settled => ({ result }),
        (error: unknown): Settled => ({ error }),
      );
      const entry = { chunk, first: isFirst, settled, ready: false };
      void settled.then(() => (entry.ready = true));
      inFlight.push(entry);
    };
    const source = opts.chunks[Symbol.asyncIterator]();
    let first = true;
    let done = false;
    const nextChunk = async (): Promise<{ chunk: Chunk; first: boolean } | null> => {
      if (done) return null;
      const next = await source.next();
      if (next.done) {
        done = true;
        return null;
      }
      const isFirst = first;
      first = false;
      return { chunk: next.value, first: isFirst };
    };

    for (;;) {
      if (opts.isCancelled?.()) throw cancelledError(`The import of ${opts.fileName} was cancelled; nothing was imported.`);
      await startWorker();
      if (worker?.available) {
        while (inFlight.length < IN_FLIGHT) {
          const next = await nextChunk();
          if (!next) break;
          post(next.chunk, next.first);
        }
      }
      if (inFlight.length) {
        const head = inFlight.shift()!;
        // Waiting on the worker (its chunks are normally ready): let a waiting save in first.
        if (!head.ready) session.release();
        const settled = await head.settled;
        // A worker that failed leaves its chunks to this thread.
        if ('error' in settled) applyHere(chunkLines(head.chunk, head.first), 0);
        else {
          records += settled.result.records;
          apply(settled.result, lineNo);
          lineNo += settled.result.lines;
          progress();
        }
        continue;
      }
      // Reads do not go through the event loop: let the worker's "ready" in between chunks.
      if (worker) await new Promise(setImmediate);
      const next = await nextChunk();
      if (!next) break;
      const lines = chunkLines(next.chunk, next.first);
      const from = pending ? detectIn(lines) : 0;
      if (from === lines.length) continue;
      // The rest of the chunk that settled the format goes to the worker if it can take it.
      await startWorker();
      if (from > 0 && worker?.available) post({ lines: lines.slice(from), clean: true }, false);
      else applyHere(lines, from);
    }
    if (records === 0) throw new ArbiterError('invalid_file', `${opts.fileName} has no records (it is empty or blank); nothing was imported.`);
    if (pending) settleFormat();
    if (grouper) applyEmitted(grouper.flush());
    if (failed()) throw new InvalidFileError(opts.fileName, errors);
    // Items that share an external id are imported (ids are the file's, not Arbiter's), and said.
    if (withIds) {
      session.commitNow();
      sharedIds = sharedExternalIds(db, project.id, running.firstSeq, EXAMPLES);
    }
    const endSeq = inserter.nextSeq;
    const finished = running;
    session.finish(() => {
      const append = labelAppender(db);
      const labelsBy = new Map(judged);
      let judgedTotal = 0;
      for (const n of judged.values()) judgedTotal += n;
      if (sourceId !== null) {
        const key = `${sourceId}|pairwise`;
        labelsBy.set(key, (labelsBy.get(key) ?? 0) + labels - judgedTotal);
      }
      for (const { draft, judgement } of laterJudgements) {
        // Once per item, annotator and task: a re-import finds the file's judgement there and adds nothing.
        const there = judgement.annotator === undefined ? hasSourceLabel(db, draft.itemId, draft.task) : currentLabel(db, draft.itemId, draft.annotatorId, draft.task) !== null;
        if (!there && append(draft).inserted) labels++;
      }
      for (const { itemId, choice } of laterLabels) {
        if (hasSourceLabel(db, itemId)) continue;
        if (append({ projectId: project.id, itemId, annotatorId: sourceId!, createdAt, choice, strength: null, shownOrder: null }).inserted) labels++;
      }
      const errorTags = startingErrorTags(format!);
      completeImport(db, finished, { sha256: opts.sha256(), format: format!, endSeq, items, labels, labelsBy, projectName: madeProject === null ? undefined : opts.project, ...(errorTags ? { errorTags } : {}) });
    });
    running = null;
  } catch (error) {
    // Nothing of it was visible; now nothing of it is left either.
    session.end();
    if (running) await removeImport(db, running);
    if (madeProject !== null) writeNow(db, () => dropImportProject(db, madeProject!));
    throw error;
  } finally {
    worker?.close();
    session.end();
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
      sharedIds,
      images,
      imageFiles: { added: [...itemImages].filter((sha) => addedImages.has(sha)).length, kept: [...itemImages].filter((sha) => !addedImages.has(sha)).length },
      videoFiles: itemVideos.size,
      imagesOffline,
    },
    errors,
    rejects,
    formatReason,
  };
}
