// Streaming export: items (or label revisions) are read a page at a time and written through a
// backpressure-aware stream to `<out>.partial`, renamed to `<out>` when complete. Memory stays constant
// whatever the size of the project.
import type { Content, ExportSummary, NamedCount } from '../../../../shared/domain';
import { IMAGE_EXPORT_FORMATS, type ExportFormat, type RankingPairs } from '../../../../shared/formatNames';
import { plural } from '../../../../shared/plural';
import { cancelledError, invalidInput, notFound } from '../../base/errors';
import { findAnnotator } from '../../store/annotators';
import type { Db } from '../../store/db';
import { iterateItems } from '../../store/items';
import { iterateRevisions } from '../../store/labels';
import { projectSettings, requireProject } from '../../store/projects';
import { imageCandidates } from '../../store/images';
import { encodeArbiter } from '../exchange/arbiter';
import { holdsImages } from '../content';
import { writeConsensus } from '../exchange/consensus';
import { isJudgedFormat } from '../ratings/judgedCodecs';
import { writeJudged } from '../ratings/judgedExport';
import { JsonlWriter, type RecordWriter } from '../jsonl';
import { encodeLabel } from '../exchange/labels';
import { writePairs, type PairFormat } from '../pairs/pairExport';
import { encodeScores } from '../exchange/scores';
import { listModels, prelabelsForItem } from '../../scorer/index';
import { isStepFormat, writeChains } from '../process/stepExport';
import { ExportNotes } from '../types';
import { writeUnpaired } from '../pairs/unpairedExport';
import { isTrajectoryFormat } from '../trajectories/registry';
import { writeTrajectories } from '../trajectories/exportPass';
import { isTurnExportFormat, writeTurnExport } from '../trajectories/turnExport';
import { isVisionExport, openVisionWriter, writeVision } from '../vision/benchExport';
import { trlVisionNote } from '../vision/trlVision';
import { isTrlVisionFormat, openTrlVisionWriter, trlVisionParquet } from '../vision/trlVisionExport';
import { imageStoreOf } from '../../images/store';

export { PAIR_ENCODERS } from '../pairs/pairExport';

const PAGE = 1000;
const noneSkipped = (): ExportSummary['skipped'] => ({ unlabeled: 0, tie: 0, both_bad: 0, conflict: 0, not_pairwise: 0, not_adjudicated: 0, low_agreement: 0 });

export interface ExportOptions {
  project: string;
  format: ExportFormat;
  out: string;
  /** Pairwise formats: only this annotator's current label decides. labels: only their revisions. */
  annotator?: string;
  /** trl-stepwise and math-shepherd: neutral (0) steps are true / "+" (default false: only +1 is). */
  neutral?: boolean;
  /** Pairwise formats: which pairs a ranking gives (default all). */
  rankingPairs?: RankingPairs;
  /**
   * Pairwise formats: an item with rubric ratings but no choice (or ranking) gives the pairs its weighted
   * rubric totals rank; equal totals are ties, left out and counted (default off).
   */
  fromRatings?: boolean;
  /** Only items a lead adjudicated (their adjudication decides). Not for the labels format. */
  adjudicatedOnly?: boolean;
  /** Only items whose people agree at least this much (0–1; adjudicated items always pass). Not for labels. */
  minAgreement?: number;
  /** Called after each page with the number of lines written and of items (or revisions) read. */
  onProgress?: (written: number, read: number) => void;
  /** Asked between items: true aborts the export (no file is left) with a 'cancelled' error. */
  isCancelled?: () => boolean;
  /**
   * Items holding images, in a format that can only carry text: 'refuse' (the default) stops the export
   * with their count; 'drop' writes them without their images, counted in the summary.
   */
  images?: 'refuse' | 'drop';
}

export async function exportProject(db: Db, opts: ExportOptions): Promise<ExportSummary> {
  const project = requireProject(db, opts.project);
  if (opts.annotator !== undefined && !findAnnotator(db, opts.annotator)) throw notFound(`No annotator named "${opts.annotator}".`);
  if ((opts.adjudicatedOnly || opts.minAgreement !== undefined) && (opts.format === 'labels' || opts.format === 'scores'))
    throw invalidInput(`--adjudicated-only and --min-agreement choose which items a dataset export decides; the ${opts.format} format writes every revision or score as it is.`);
  const summary: ExportSummary = {
    project: opts.project,
    format: opts.format,
    out: opts.out,
    written: 0,
    skipped: noneSkipped(),
    note: null,
    imagesDropped: { items: 0, examples: [] },
  };
  if (!KEEPS_IMAGES.has(opts.format)) {
    const held = itemsWithImages(db, project.id);
    if (held.items && opts.images !== 'drop')
      throw invalidInput(
        `${plural(held.items, 'item holds', 'items hold')} images (${held.examples.join(', ')}${held.items > held.examples.length ? ', …' : ''}), which the ${opts.format} format cannot carry (it writes text only); nothing was written. ` +
          `Export to trl-vision (JSON Lines with the images in a folder beside it) or trl-vision-parquet (Parquet with the Image feature) for TRL, to arbiter to keep everything, or export without them (--images drop on the command line).`,
      );
    summary.imagesDropped = held;
  }
  let notes = new ExportNotes();
  let writer: RecordWriter = isVisionExport(opts.format)
    ? await openVisionWriter(db, opts.format, opts.out)
    : isTrlVisionFormat(opts.format)
      ? await openTrlVisionWriter(imageStoreOf(db), opts.format, opts.out)
      : await JsonlWriter.open(opts.out);
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
    } else if (isTrajectoryFormat(opts.format)) {
      const skipped = { not_trajectory: 0 };
      await writeTrajectories(db, { format: opts.format, projectId: project.id, writer, checkCancelled, onPage: (n) => ((read = n), opts.onProgress?.(writer.lines, n)), skipped });
      if (skipped.not_trajectory) notes.extra.push(`${plural(skipped.not_trajectory, 'item has', 'items have')} no agent turn (no assistant message in a message list) and ${skipped.not_trajectory === 1 ? 'was' : 'were'} left out`);
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
      const onPage = (n: number) => {
        read = n;
        opts.onProgress?.(writer.lines, n);
      };
      const common = { projectId: project.id, annotator: opts.annotator, checkCancelled, onPage, filter: { adjudicatedOnly: opts.adjudicatedOnly, minAgreement: opts.minAgreement } };
      if (opts.format === 'consensus') {
        await writeConsensus(db, { ...common, writer, skipped: summary.skipped });
      } else if (isVisionExport(opts.format)) {
        await writeVision(db, { ...common, format: opts.format, rankingPairs: opts.rankingPairs ?? 'all', writer, skipped: summary.skipped, notes });
      } else if (isTurnExportFormat(opts.format)) {
        const segmentation = projectSettings(project).segmentation;
        await writeTurnExport(db, { ...common, format: opts.format, neutral: opts.neutral ?? false, rankingPairs: opts.rankingPairs ?? 'all', segmentation, writer, skipped: summary.skipped, notes });
      } else if (isJudgedFormat(opts.format)) {
        await writeJudged(db, { ...common, format: opts.format, writer, skipped: summary.skipped, notes });
      } else if (isStepFormat(opts.format)) {
        await writeChains(db, { ...common, format: opts.format, neutral: opts.neutral ?? false, segmentation: projectSettings(project).segmentation, writer, skipped: summary.skipped, notes });
      } else if (opts.format === 'trl-unpaired') {
        notes = new ExportNotes('text');
        if ((await writeUnpaired(db, { ...common, writer, skipped: summary.skipped, notes })) === 'needs-chat') {
          // A conversation came after text lines were written: write the file again, all conversational.
          await writer.abort();
          writer = await JsonlWriter.open(opts.out);
          summary.skipped = noneSkipped();
          notes = new ExportNotes('chat');
          await writeUnpaired(db, { ...common, writer, skipped: summary.skipped, notes });
        }
      } else {
        const pass = { ...common, format: opts.format as PairFormat, rankingPairs: opts.rankingPairs ?? 'all', fromRatings: opts.fromRatings ?? false };
        if ((await writePairs(db, { ...pass, writer, skipped: summary.skipped, notes })) === 'needs-transcripts') {
          // A conversation came after plain prompts were written: write the file again, all transcripts.
          await writer.abort();
          writer = await JsonlWriter.open(opts.out);
          summary.skipped = noneSkipped();
          notes = new ExportNotes('transcript');
          await writePairs(db, { ...pass, writer, skipped: summary.skipped, notes });
        }
      }
    }
    checkCancelled();
    await writer.commit();
  } catch (error) {
    await writer.abort();
    throw error;
  }
  opts.onProgress?.(writer.lines, read);
  summary.written = writer.lines;
  if (isTrlVisionFormat(opts.format)) trlVisionNote(notes, trlVisionParquet(opts.format, opts.out));
  summary.note = notes.text(opts.format);
  if (summary.imagesDropped.items) {
    const dropped = `${plural(summary.imagesDropped.items, 'item held', 'items held')} images, left out of the text (${summary.imagesDropped.examples.join(', ')}).`;
    summary.note = summary.note ? `${summary.note} ${dropped}` : dropped;
  }
  return summary;
}

/** Formats that write content as it is stored (chat messages with their typed parts), so images go with it. */
const KEEPS_IMAGES: ReadonlySet<string> = new Set(IMAGE_EXPORT_FORMATS);

const IMAGE_EXAMPLES = 5;

/** The project's items that hold images: how many, and the first few by external id (else their number). */
function itemsWithImages(db: Db, projectId: number): NamedCount {
  const held: NamedCount = { items: 0, examples: [] };
  for (const candidate of imageCandidates(db, projectId)) {
    if (!candidate.contents.some((json) => holdsImages(JSON.parse(json) as Content))) continue;
    if (held.items++ < IMAGE_EXAMPLES) held.examples.push(candidate.externalId ?? `#${candidate.seq + 1}`);
  }
  return held;
}
