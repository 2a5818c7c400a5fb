// Gold: a lead marks a file's own labels as gold (per import or per selection, one task or all) and takes
// the mark back; the summary counts the project's gold per task. Marks are append-only events (store/
// gold.ts); a connected team hub carries a lead's marks to every desktop (core/hub/gold.ts).
import type { ApiParsed } from '../../../shared/api';
import { TASKS } from '../../../shared/domain';
import type { GoldMarkResult, GoldSummary } from '../../../shared/api/gold';
import { uuidv7 } from '../../../shared/ids';
import { pluralWord } from '../../../shared/plural';
import { invalidInput, notFound } from '../base/errors';
import { goldOf } from '../review/gold';
import type { Db } from '../store/db';
import { appendGoldMarks, countWithSourceLabels, importItemIds, importRanges, projectItemIds } from '../store/gold';
import { writeNow } from '../store/write';
import type { FeatureHandlers, ServiceContext } from './context';
import { requireHumanAnnotator, requireProject } from './guards';

type GoldOps = 'markGold' | 'unmarkGold' | 'goldSummary';

export function goldHandlers({ db, events, options }: ServiceContext): FeatureHandlers<GoldOps> {
  const mark = (input: ApiParsed<'markGold'>, gold: boolean) => {
    const result = markItemsGold(db, { ...input, annotator: input.annotator ?? options.defaultAnnotator }, gold);
    // A mark is sent up like a revision when the project is linked to a hub (service/team.ts listens).
    events.emit('event', { type: 'gold', project: input.project });
    return result;
  };
  return {
    markGold: (input) => mark(input, true),
    unmarkGold: (input) => mark(input, false),
    goldSummary: (input) => goldSummary(db, input.project),
  };
}

/** Marks (or unmarks) the items of an import or a selection: the handler's work, and `arbiter gold`'s. */
export function markItemsGold(db: Db, input: ApiParsed<'markGold'> & { annotator: string }, gold: boolean): GoldMarkResult {
  const project = requireProject(db, input.project);
  let itemIds: number[];
  if (input.importId !== undefined) {
    const found = importItemIds(db, project.id, input.importId);
    if (!found) throw notFound(`The project “${project.name}” has no import ${input.importId}.`);
    itemIds = found;
  } else {
    const asked = [...new Set(input.itemIds ?? [])];
    itemIds = projectItemIds(db, project.id, asked);
    const found = new Set(itemIds);
    const missing = asked.filter((id) => !found.has(id));
    if (missing.length) throw notFound(`The project “${project.name}” has no ${pluralWord(missing.length, 'item')} ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', …' : ''}; nothing was marked.`);
  }
  if (!itemIds.length) throw invalidInput(`Import ${input.importId} added no items to “${project.name}”; nothing was marked.`);
  return writeNow(db, () => {
    const lead = requireHumanAnnotator(db, input.annotator);
    const createdAt = new Date().toISOString();
    appendGoldMarks(
      db,
      itemIds.map((itemId) => ({ id: uuidv7(), itemId, task: input.task ?? '*', gold, annotatorId: lead.id, createdAt })),
    );
    return { items: itemIds.length, withFileLabels: countWithSourceLabels(db, itemIds, input.task) };
  });
}

export function goldSummary(db: Db, projectName: string): GoldSummary {
  const project = requireProject(db, projectName);
  const gold = goldOf(db, project.id);
  return {
    project: project.name,
    tasks: TASKS.map((task) => {
      const list = [...(gold.get(task)?.values() ?? [])];
      const adjudicated = list.filter((g) => g.origin === 'adjudication').length;
      return { task, adjudicated, marked: list.length - adjudicated, total: list.length };
    }),
    imports: importRanges(db, project.id).map((r) => ({ id: r.id, file: r.fileName, items: r.endSeq - r.firstSeq })),
  };
}
