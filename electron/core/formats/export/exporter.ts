// Streaming export: items (or label revisions) are read a page at a time and written through a
// backpressure-aware stream to `<out>.partial`, renamed to `<out>` when complete. Memory stays constant
// whatever the size of the project.
import type { Content, ExportSummary, NamedCount } from '../../../../shared/domain';
import { plural } from '../../../../shared/plural';
import { cancelledError, invalidInput, notFound } from '../../base/errors';
import { findAnnotator } from '../../store/annotators';
import type { Db } from '../../store/db';
import { requireProject } from '../../store/projects';
import { imageCandidates } from '../../store/images';
import { holdsImages } from '../content';
import { JsonlWriter } from '../jsonl';
import type { ExportOptions, ExportRun } from '../descriptor';
import { formatNamed } from '../registry';
import { EXPORT_PASSES } from './passes';
import { ExportNotes } from '../types';

const noneSkipped = (): ExportSummary['skipped'] => ({ unlabeled: 0, tie: 0, both_bad: 0, conflict: 0, not_pairwise: 0, not_adjudicated: 0, low_agreement: 0 });

export type { ExportOptions } from '../descriptor';

export async function exportProject(db: Db, opts: ExportOptions): Promise<ExportSummary> {
  const project = requireProject(db, opts.project);
  const descriptor = formatNamed(opts.format);
  if (!descriptor?.write) throw invalidInput(`Arbiter does not write the ${opts.format} format.`);
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
  if (descriptor.carries === 'text') {
    const held = itemsWithImages(db, project.id);
    if (held.items && opts.images !== 'drop')
      throw invalidInput(
        `${plural(held.items, 'item holds', 'items hold')} images (${held.examples.join(', ')}${held.items > held.examples.length ? ', …' : ''}), which the ${opts.format} format cannot carry (it writes text only); nothing was written. ` +
          `Export to trl-vision (JSON Lines with the images in a folder beside it) or trl-vision-parquet (Parquet with the Image feature) for TRL, to arbiter to keep everything, or export without them (--images drop on the command line).`,
      );
    summary.imagesDropped = held;
  }
  const formatWriter = descriptor.write(EXPORT_PASSES);
  const open = () => (formatWriter.open ? formatWriter.open(db, opts.format, opts.out) : JsonlWriter.open(opts.out));
  const run: ExportRun = {
    db,
    project,
    format: opts.format,
    opts,
    writer: await open(),
    notes: new ExportNotes(),
    summary,
    read: 0,
    checkCancelled: () => {
      if (opts.isCancelled?.()) throw cancelledError(`The export of "${opts.project}" was cancelled; no file was written.`);
    },
    onPage: (n) => {
      run.read = n;
      opts.onProgress?.(run.writer.lines, n);
    },
    restart: async (mode) => {
      await run.writer.abort();
      run.writer = await open();
      summary.skipped = noneSkipped();
      run.notes = new ExportNotes(mode);
    },
  };
  try {
    await formatWriter.write(run);
    run.checkCancelled();
    await run.writer.commit();
  } catch (error) {
    await run.writer.abort();
    throw error;
  }
  opts.onProgress?.(run.writer.lines, run.read);
  summary.written = run.writer.lines;
  formatWriter.finish?.(run.notes, opts.format, opts.out);
  summary.note = run.notes.text(opts.format);
  if (summary.imagesDropped.items) {
    const dropped = `${plural(summary.imagesDropped.items, 'item held', 'items held')} images, left out of the text (${summary.imagesDropped.examples.join(', ')}).`;
    summary.note = summary.note ? `${summary.note} ${dropped}` : dropped;
  }
  return summary;
}

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
