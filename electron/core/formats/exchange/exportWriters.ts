// The writers of Arbiter's own files (loaded only by an export: they read the store): items as they are
// stored (arbiter), every label revision (labels), the models' scores (scores), and the consensus of
// people's pairwise labels (consensus, ./consensus.ts).
import { iterateItems } from '../../store/items';
import { iterateRevisions } from '../../store/labels';
import { listModels, prelabelsForItem } from '../../scorer/index';
import type { ExportRun, FormatWriter } from '../descriptor';
import { encodeArbiter } from './arbiter';
import { writeConsensus } from './consensus';
import { encodeLabel } from './labels';
import { encodeScores } from './scores';

const PAGE = 1000;

/** Writes each line; reports progress whenever the writer asks to wait. */
async function writeAll(run: ExportRun, lines: Iterable<unknown>): Promise<void> {
  for (const line of lines) {
    const pending = run.writer.write(line);
    if (pending) {
      await pending;
      run.opts.onProgress?.(run.writer.lines, run.read);
    }
  }
}

export const arbiterWriter: FormatWriter = {
  async write(run) {
    for (const item of iterateItems(run.db, run.project.id, PAGE, run.opts.items)) {
      run.read++;
      run.checkCancelled();
      await writeAll(run, [encodeArbiter(item)]);
    }
  },
};

export const labelsWriter: FormatWriter = {
  async write(run) {
    for (const revision of iterateRevisions(run.db, run.project.id)) {
      run.read++;
      run.checkCancelled();
      if (run.opts.annotator !== undefined && revision.annotator !== run.opts.annotator) continue;
      if (run.opts.items && !run.opts.items.has(revision.itemId)) continue;
      await writeAll(run, [encodeLabel(revision)]);
    }
  },
};

export const scoresWriter: FormatWriter = {
  async write(run) {
    const hashes = new Map(listModels(run.db).map((m) => [m.id, m.hash]));
    for (const item of iterateItems(run.db, run.project.id, PAGE, run.opts.items)) {
      run.read++;
      run.checkCancelled();
      await writeAll(run, encodeScores(item, prelabelsForItem(run.db, run.project.id, item.id), hashes));
    }
  },
};

export const consensusWriter: FormatWriter = {
  write: (run) =>
    writeConsensus(run.db, {
      projectId: run.project.id,
      writer: run.writer,
      skipped: run.summary.skipped,
      checkCancelled: run.checkCancelled,
      onPage: run.onPage,
      filter: { adjudicatedOnly: run.opts.adjudicatedOnly, minAgreement: run.opts.minAgreement, items: run.opts.items },
    }),
};
