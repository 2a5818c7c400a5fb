// Streaming export: items (or label revisions) are read a page at a time and written through a
// backpressure-aware stream to `<out>.partial`, renamed to `<out>` when complete. Memory stays constant
// whatever the size of the project.
import type { ExportSummary, ItemRecord } from '../../../shared/domain';
import type { ExportFormat } from '../../../shared/formatNames';
import { cancelledError, notFound } from '../errors';
import { findAnnotator } from '../store/annotators';
import type { Db } from '../store/db';
import { iterateItems } from '../store/items';
import { iterateRevisions } from '../store/labels';
import { requireProject } from '../store/projects';
import { encodeArbiter } from './arbiter';
import { encodeHhRlhf } from './hhRlhf';
import { JsonlWriter } from './jsonl';
import { encodeLabel } from './labels';
import { encodeOpenrlhf } from './openrlhf';
import { headLoader, type HeadLabel } from '../store/labels';
import { decide } from './resolve';
import { encodeRewardbench } from './rewardbench';
import { encodeScores } from './scores';
import { listModels, prelabelsForItem } from '../scorer/index';
import { encodeTrl, encodeTrlChat, encodeTrlChatImplicit, encodeTrlImplicit } from './trl';
import { ExportNotes, type DecidedPair } from './types';

type PairEncoder = (pair: DecidedPair, notes: ExportNotes) => unknown;

export const PAIR_ENCODERS: Record<Exclude<ExportFormat, 'labels' | 'arbiter' | 'scores'>, PairEncoder> = {
  trl: encodeTrl,
  'trl-implicit': encodeTrlImplicit,
  'trl-chat': encodeTrlChat,
  'trl-chat-implicit': encodeTrlChatImplicit,
  openrlhf: encodeOpenrlhf,
  'hh-rlhf': encodeHhRlhf,
  rewardbench: encodeRewardbench,
};

const PAGE = 1000;
const NO_LABELS: HeadLabel[] = [];

export interface ExportOptions {
  project: string;
  format: ExportFormat;
  out: string;
  /** Pairwise formats: only this annotator's current label decides. labels: only their revisions. */
  annotator?: string;
  /** Called after each page with the number of lines written and of items (or revisions) read. */
  onProgress?: (written: number, read: number) => void;
  /** Asked between items: true aborts the export (no file is left) with a 'cancelled' error. */
  isCancelled?: () => boolean;
}

export async function exportProject(db: Db, opts: ExportOptions): Promise<ExportSummary> {
  const project = requireProject(db, opts.project);
  if (opts.annotator !== undefined && !findAnnotator(db, opts.annotator)) throw notFound(`No annotator named "${opts.annotator}".`);
  const summary: ExportSummary = {
    project: opts.project,
    format: opts.format,
    out: opts.out,
    written: 0,
    skipped: { unlabeled: 0, tie: 0, both_bad: 0, conflict: 0, not_pairwise: 0 },
    note: null,
  };
  const notes = new ExportNotes();
  const writer = await JsonlWriter.open(opts.out);
  let read = 0;
  const checkCancelled = () => {
    if (opts.isCancelled?.()) throw cancelledError(`The export of "${opts.project}" was cancelled; no file was written.`);
  };
  try {
    if (opts.format === 'labels') {
      for (const revision of iterateRevisions(db, project.id)) {
        read++;
        checkCancelled();
        if (opts.annotator !== undefined && revision.annotator !== opts.annotator) continue;
        const pending = writer.write(encodeLabel(revision));
        if (pending) {
          await pending;
          opts.onProgress?.(writer.lines, read);
        }
      }
    } else if (opts.format === 'arbiter') {
      for (const item of iterateItems(db, project.id, PAGE)) {
        read++;
        checkCancelled();
        const pending = writer.write(encodeArbiter(item));
        if (pending) {
          await pending;
          opts.onProgress?.(writer.lines, read);
        }
      }
    } else if (opts.format === 'scores') {
      const hashes = new Map(listModels(db).map((m) => [m.id, m.hash]));
      for (const item of iterateItems(db, project.id, PAGE)) {
        read++;
        checkCancelled();
        for (const line of encodeScores(item, prelabelsForItem(db, project.id, item.id), hashes)) {
          const pending = writer.write(line);
          if (pending) {
            await pending;
            opts.onProgress?.(writer.lines, read);
          }
        }
      }
    } else {
      const encode = PAIR_ENCODERS[opts.format];
      const loadHeads = headLoader(db, project.id, opts.annotator);
      let page: ItemRecord[] = [];
      const flush = async () => {
        checkCancelled();
        const heads = loadHeads(page[0]!.seq, page[page.length - 1]!.seq);
        for (const item of page) {
          const decision = decide(item.responses.length, heads.get(item.id) ?? NO_LABELS, opts.annotator);
          if (decision.skip) {
            summary.skipped[decision.skip]++;
            continue;
          }
          const pair: DecidedPair = {
            item,
            prompt: item.prompt,
            chosen: item.responses[decision.winner]!,
            rejected: item.responses[1 - decision.winner]!,
            margin: decision.margin,
          };
          const pending = writer.write(encode(pair, notes));
          if (pending) await pending;
        }
        read += page.length;
        page = [];
        opts.onProgress?.(writer.lines, read);
      };
      for (const item of iterateItems(db, project.id, PAGE)) {
        page.push(item);
        if (page.length >= PAGE) await flush();
      }
      if (page.length) await flush();
    }
    checkCancelled();
    await writer.commit();
  } catch (error) {
    await writer.abort();
    throw error;
  }
  opts.onProgress?.(writer.lines, read);
  summary.written = writer.lines;
  summary.note = notes.text(opts.format);
  return summary;
}
