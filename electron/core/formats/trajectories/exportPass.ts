// The export pass of the trajectory formats: every item with an agent turn, one or more lines each.
import type { Db } from '../../store/db';
import { SOURCE_ANNOTATOR, findAnnotator } from '../../store/annotators';
import { iterateItems } from '../../store/items';
import { currentLabel } from '../../store/labels';
import type { RecordWriter } from '../jsonl';
import { isPlainObject } from '../validate';
import type { TrajectoryFormat } from '../../../../shared/formatNames';
import { responseLetter } from '../../../../shared/letters';
import { hasTurns } from './common';
import { ENCODERS } from './registry';

export interface TrajectoryPass {
  format: TrajectoryFormat;
  projectId: number;
  writer: RecordWriter;
  checkCancelled: () => void;
  onPage: (read: number) => void;
  /** Items with no agent turn (not trajectories), left out. */
  skipped: { not_trajectory: number };
}

/** Writes every trajectory item of the project in `format`; returns how many items were left out. */
export async function writeTrajectories(db: Db, pass: TrajectoryPass): Promise<void> {
  const source = findAnnotator(db, SOURCE_ANNOTATOR);
  let read = 0;
  for (const item of iterateItems(db, pass.projectId, 1000)) {
    read++;
    pass.checkCancelled();
    if (!hasTurns(item)) {
      pass.skipped.not_trajectory++;
      continue;
    }
    // The file's own outcome of each run (the source's steps label), for the formats that write Arbiter's outcome.
    const body = source ? currentLabel(db, item.id, source.id, 'steps')?.body : undefined;
    const outcome = isPlainObject(body?.outcome) ? (body.outcome as Record<string, string>) : {};
    const outcomes = item.responses.map((_, i) => outcome[responseLetter(i)] ?? null);
    for (const line of ENCODERS[pass.format](item, outcomes)) {
      const pending = pass.writer.write(line);
      if (pending) {
        await pending;
        pass.onPage(read);
      }
    }
  }
  pass.onPage(read);
}
