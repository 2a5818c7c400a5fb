// What the export passes that walk the items (pairs, unpaired, steps, judged) share: the fields every pass
// is given, and the walk itself: the project's items a page at a time, a cancel checked before each page,
// the items the export filter (--adjudicated-only, --min-agreement) leaves out counted in the summary, and
// the items read so far reported after each page.
import type { ExportSummary, ItemRecord, Task } from '../../../../shared/domain';
import { exportGate, type ExportFilter } from '../../store/exportGate';
import type { Db } from '../../store/db';
import { iterateItems } from '../../store/items';
import type { RecordWriter } from '../jsonl';
import type { ExportNotes } from '../types';
import type { ExportRun } from '../descriptor';

const PAGE = 1000;

export interface ItemPass {
  projectId: number;
  annotator?: string;
  writer: RecordWriter;
  skipped: ExportSummary['skipped'];
  notes: ExportNotes;
  checkCancelled(): void;
  /** Items read so far (for progress). */
  onPage(read: number): void;
  /** --adjudicated-only, --min-agreement. */
  filter?: ExportFilter;
}

/** The fields every item pass is given, from an export's run (its writer, notes and summary as they are now). */
export function itemPass(run: ExportRun): ItemPass {
  const { opts } = run;
  return {
    projectId: run.project.id,
    annotator: opts.annotator,
    writer: run.writer,
    skipped: run.summary.skipped,
    notes: run.notes,
    checkCancelled: run.checkCancelled,
    onPage: run.onPage,
    filter: { adjudicatedOnly: opts.adjudicatedOnly, minAgreement: opts.minAgreement, items: opts.items },
  };
}

/**
 * Hands `write` each page of items: its seq range [from, to] and the items the filter keeps, in order.
 * `write` returning false stops the walk there (before the page is reported), and so does this: false;
 * true once every page is written.
 */
export async function forEachPage(
  db: Db,
  pass: ItemPass,
  tasks: readonly Task[],
  write: (items: ItemRecord[], from: number, to: number) => Promise<boolean | void>,
): Promise<boolean> {
  const gate = exportGate(db, pass.projectId, pass.filter ?? {}, tasks);
  let read = 0;
  let page: ItemRecord[] = [];
  const flush = async (): Promise<boolean> => {
    pass.checkCancelled();
    const from = page[0]!.seq;
    const to = page[page.length - 1]!.seq;
    const gated = gate(from, to);
    const kept: ItemRecord[] = [];
    for (const item of page) {
      const left = gated.get(item.id);
      if (left) pass.skipped[left]++;
      else kept.push(item);
    }
    if ((await write(kept, from, to)) === false) return false;
    read += page.length;
    page = [];
    pass.onPage(read);
    return true;
  };
  for (const item of iterateItems(db, pass.projectId, PAGE, pass.filter?.items)) {
    page.push(item);
    if (page.length >= PAGE && !(await flush())) return false;
  }
  return !page.length || flush();
}
