// Rankings (items with three or more responses: groups of tied responses, best first) and verdicts
// (items with one response: good or bad). Each is a revision of its own task.
import type { LabelRevision } from '../../../shared/domain';
import { invalidInput } from '../errors';
import { getRevision, labelAppender, type RevisionDraft } from '../store/labels';
import { writeNow } from '../store/write';
import type { FeatureHandlers, ServiceContext } from './context';
import { requireHumanAnnotator, requireItem, requireProject } from './guards';
import { plural } from '../../../shared/plural';

export function rankingsHandlers({ db, events }: ServiceContext): FeatureHandlers<'saveRanking' | 'saveVerdict'> {
  const save = (project: string, annotator: string, draft: Omit<RevisionDraft, 'annotatorId'>): LabelRevision => {
    const id = writeNow(db, () => labelAppender(db)({ ...draft, annotatorId: requireHumanAnnotator(db, annotator).id }).id);
    events.emit('event', { type: 'label', project, itemId: draft.itemId, task: draft.task });
    return getRevision(db, id)!;
  };
  const body = (input: { rationale?: string; timeMs?: number; prelabelVisible?: boolean }) => ({
    ...(input.rationale ? { rationale: input.rationale } : {}),
    ...(input.timeMs !== undefined ? { time_ms: input.timeMs } : {}),
    ...(input.prelabelVisible !== undefined ? { prelabel_visible: input.prelabelVisible } : {}),
  });

  return {
    saveRanking: (input) => {
      const project = requireProject(db, input.project);
      const item = requireItem(db, project, input.itemId);
      const n = item.responses.length;
      if (n < 2) throw invalidInput(`Item ${item.id} has one response; give it a verdict instead of a ranking.`);
      const seen = input.ranking.flat();
      const complete = seen.length === n && new Set(seen).size === n && seen.every((i) => i < n);
      if (!complete) throw invalidInput(`A ranking puts each of the item's ${n} responses in exactly one place.`);
      const order = input.shownOrder;
      if (order.length !== n || new Set(order).size !== n || order.some((i) => i >= n)) throw invalidInput(`shownOrder must list each of the item's ${n} response indexes once.`);
      return save(input.project, input.annotator, {
        id: input.id,
        projectId: project.id,
        itemId: item.id,
        task: 'ranking',
        choice: null,
        ranking: input.ranking,
        shownOrder: order,
        body: body(input),
      });
    },
    saveVerdict: (input) => {
      const project = requireProject(db, input.project);
      const item = requireItem(db, project, input.itemId);
      if (item.responses.length !== 1) throw invalidInput(`Item ${item.id} has ${plural(item.responses.length, 'response')}; a verdict is for an item with one.`);
      return save(input.project, input.annotator, {
        id: input.id,
        projectId: project.id,
        itemId: item.id,
        task: 'verdict',
        choice: input.verdict,
        body: body(input),
      });
    },
  };
}
