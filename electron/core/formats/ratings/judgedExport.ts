// The pass of the exports that write ratings, strengths and critiques: ultrafeedback, helpsteer2,
// helpsteer2-preference, helpsteer3, prometheus, critique. A page of items at a time, each item's current
// labels of the tasks its format reads (with their bodies), decided by ../base/resolveRatings.ts; each format's
// encoder turns an item into its lines, or says why it has none (counted in the summary).
import type { ItemRecord } from '../../../../shared/domain';
import { ITEM_RUBRIC, type Criterion } from '../../../../shared/rubric';
import type { Db } from '../../store/db';
import { headLoader, type HeadLabel } from '../../store/labels';
import { findRubric, itemRubricName, rubricVersion } from '../../store/rubrics';
import { forEachPage, itemPass, type ItemPass } from '../base/itemPass';
import type { FormatWriter } from '../descriptor';
import { JUDGED_CODECS, Tally, type ItemJudgements, type JudgedFormat } from './judgedCodecs';

const NONE: HeadLabel[] = [];

/** Rubric versions by name and number, read once per export (an item's own criteria are not kept: one per item). */
export function criteriaLoader(db: Db, projectId: number): (item: ItemRecord, rubric: string, version: number) => Criterion[] | null {
  const cache = new Map<string, Criterion[] | null>();
  return (item, rubric, version) => {
    const own = rubric === ITEM_RUBRIC;
    const name = own ? itemRubricName(item.uid) : rubric;
    const key = `${name}\u0000${version}`;
    if (!own && cache.has(key)) return cache.get(key)!;
    const found = findRubric(db, projectId, name);
    const criteria = found ? (rubricVersion(db, found.id, version)?.criteria ?? null) : null;
    if (!own) cache.set(key, criteria);
    return criteria;
  };
}

export interface JudgedPass extends ItemPass {
  format: JudgedFormat;
}

export async function writeJudged(db: Db, pass: JudgedPass): Promise<void> {
  const codec = JUDGED_CODECS[pass.format];
  const loaders = new Map(codec.tasks.map((task) => [task, headLoader(db, pass.projectId, undefined, task, true)] as const));
  const criteria = criteriaLoader(db, pass.projectId);
  const tally = new Tally();
  await forEachPage(db, pass, codec.tasks, async (items, from, to) => {
    const heads = new Map([...loaders].map(([task, load]) => [task, load(from, to)] as const));
    for (const item of items) {
      const judgements: ItemJudgements = {
        item,
        labels: (task) => heads.get(task)?.get(item.id) ?? NONE,
        annotator: pass.annotator,
        criteria: (rubric, version) => criteria(item, rubric, version),
      };
      const lines = codec.encode(judgements, tally);
      if (typeof lines === 'string') {
        pass.skipped[lines]++;
        continue;
      }
      for (const line of lines) {
        const pending = pass.writer.write(line);
        if (pending) await pending;
      }
    }
  });
  pass.notes.extra.push(...codec.notes(tally));
}

/** The rating and critique formats' writer (each format's codec: ./judgedCodecs.ts). */
export const judgedWriter: FormatWriter = {
  write: (run) => writeJudged(run.db, { ...itemPass(run), format: run.format as JudgedFormat }),
};
