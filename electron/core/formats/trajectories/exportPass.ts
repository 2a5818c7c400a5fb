// The export pass of the trajectory formats: every item with an agent turn, one or more lines each.
import type { Db } from '../../store/db';
import { SOURCE_ANNOTATOR, findAnnotator } from '../../store/annotators';
import { iterateItems } from '../../store/items';
import { currentLabel } from '../../store/labels';
import type { RecordWriter } from '../jsonl';
import { isPlainObject } from '../validate';
import { responseLetter } from '../../../../shared/letters';
import { hasTurns, type TrajectoryEncoder } from './common';

export type { TrajectoryEncoder };
import type { FormatWriter } from '../descriptor';
import { plural } from '../../../../shared/plural';

export interface TrajectoryPass {
  encode: TrajectoryEncoder;
  projectId: number;
  writer: RecordWriter;
  checkCancelled: () => void;
  onPage: (read: number) => void;
  /** Only these item ids (a view's export). */
  items?: ReadonlySet<number>;
  /** Items with no agent turn (not trajectories), left out. */
  skipped: { not_trajectory: number };
}

/** Writes every trajectory item of the project in `format`; returns how many items were left out. */
export async function writeTrajectories(db: Db, pass: TrajectoryPass): Promise<void> {
  const source = findAnnotator(db, SOURCE_ANNOTATOR);
  let read = 0;
  for (const item of iterateItems(db, pass.projectId, 1000, pass.items)) {
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
    for (const line of pass.encode(item, outcomes)) {
      const pending = pass.writer.write(line);
      if (pending) {
        await pending;
        pass.onPage(read);
      }
    }
  }
  pass.onPage(read);
}

/** A trajectory format's writer: every item with an agent turn, through the format's encoder. */
export function trajectoryWriter(encode: TrajectoryEncoder): FormatWriter {
  return {
    async write(run) {
      const skipped = { not_trajectory: 0 };
      await writeTrajectories(run.db, { encode, projectId: run.project.id, items: run.opts.items, writer: run.writer, checkCancelled: run.checkCancelled, onPage: run.onPage, skipped });
      if (skipped.not_trajectory)
        run.notes.extra.push(`${plural(skipped.not_trajectory, 'item has', 'items have')} no agent turn (no assistant message in a message list) and ${skipped.not_trajectory === 1 ? 'was' : 'were'} left out`);
    },
  };
}
