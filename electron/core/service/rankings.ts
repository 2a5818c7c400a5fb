// Rankings (items with three or more responses: groups of tied responses, best first) and verdicts
// (items with one response: good or bad). Each is a revision of its own task.
import type { LabelRevision } from '../../../shared/domain';
import type { RegionMark } from '../../../shared/regions';
import { invalidInput } from '../base/errors';
import { rankingProblem, requireRegionsFit, shownOrderProblem } from '../base/labelRules';
import { getRevision, labelAppender, type RevisionDraft } from '../store/labels';
import { writeNow } from '../store/write';
import type { FeatureHandlers, ServiceContext } from './context';
import { requireHumanAnnotator, requireItem, requireOwnRevisionId, requireProject } from './guards';
import { keptMoments } from './videos';
import { plural } from '../../../shared/plural';

export function rankingsHandlers({ db, events }: ServiceContext): FeatureHandlers<'saveRanking' | 'saveVerdict'> {
  const save = (project: string, annotator: string, draft: Omit<RevisionDraft, 'annotatorId'>): LabelRevision => {
    const id = writeNow(db, () => {
      const annotatorId = requireHumanAnnotator(db, annotator).id;
      requireOwnRevisionId(db, draft.id, { ...draft, annotatorId, task: draft.task ?? 'pairwise' });
      // A changed ranking or verdict keeps the judgement's marks in time (service/videos.ts).
      const task = draft.task === 'ranking' || draft.task === 'verdict' ? draft.task : 'pairwise';
      return labelAppender(db)({ ...draft, annotatorId, body: { ...draft.body, ...keptMoments(db, draft.itemId, annotatorId, task) } }).id;
    });
    events.emit('event', { type: 'label', project, itemId: draft.itemId, task: draft.task });
    return getRevision(db, id)!;
  };
  const body = (input: { rationale?: string; timeMs?: number; prelabelVisible?: boolean; regions?: RegionMark[] }) => ({
    ...(input.rationale ? { rationale: input.rationale } : {}),
    ...(input.timeMs !== undefined ? { time_ms: input.timeMs } : {}),
    ...(input.prelabelVisible !== undefined ? { prelabel_visible: input.prelabelVisible } : {}),
    ...(input.regions?.length ? { regions: input.regions } : {}),
  });

  return {
    saveRanking: (input) => {
      const project = requireProject(db, input.project);
      const item = requireItem(db, project, input.itemId);
      const n = item.responses.length;
      if (n < 2) throw invalidInput(`Item ${item.id} has one response; give it a verdict instead of a ranking.`);
      const badRanking = rankingProblem(input.ranking, n);
      if (badRanking) throw invalidInput(`The ranking ${badRanking}.`);
      const order = input.shownOrder;
      const badOrder = shownOrderProblem(order, n);
      if (badOrder) throw invalidInput(`shownOrder ${badOrder}.`);
      requireRegionsFit(item, input.regions);
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
      requireRegionsFit(item, input.regions);
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
