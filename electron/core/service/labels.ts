// The labeling loop: items in order, the annotator's label on each, saves, rationale edits, undo, history,
// and the header's progress (from counters, never a scan).
import type { ItemView, PairwiseRevision } from '../../../shared/api';
import type { ItemRecord, LabelRevision, Task } from '../../../shared/domain';
import { shownOrder } from '../../../shared/order';
import { invalidInput } from '../base/errors';
import { requireRegionsFit, shownOrderProblem } from '../base/labelRules';
import { canonicalJson } from '../../../shared/rubric';
import { labelRubricVersion } from '../store/rubrics';
import { ensureAnnotator, findAnnotator, SOURCE_ANNOTATOR } from '../store/annotators';
import type { Db } from '../store/db';
import { getItemBySeq, visibleSeqOf } from '../store/items';
import { neighbourItem, walkItem } from '../store/nextItem';
import { currentLabel, currentLabelsOfKind, getRevision, history, labelAppender, progressCounts, type RevisionDraft } from '../store/labels';
import { projectSettings, type ProjectRow } from '../store/projects';
import { writeNow } from '../store/write';
import type { FeatureHandlers, ServiceContext } from './context';
import { goldQueue } from './goldRules';
import { requireItem, requireOwnRevisionId, requireProject } from './guards';
import { viewWalkOrder } from './itemsViews';
import { labelingOrder } from './labelingOrder';
import { screenTotals } from './screenTotals';
import { keptMoments } from './videos';

/** Pairwise revisions hold a source-order choice by construction (the schema refuses anything else). */
const pairwise = (revision: LabelRevision | null) => revision as PairwiseRevision | null;

type LabelOps = 'getItem' | 'nextItem' | 'saveLabel' | 'saveRationale' | 'saveRegions' | 'undoLabel' | 'labelHistory' | 'progress';

export function labelsHandlers(context: ServiceContext): FeatureHandlers<LabelOps> {
  const { db, events } = context;
  const walkFor = labelingOrder(context);
  const gold = goldQueue(context);
  const totalFor = screenTotals(context);
  const itemView = (project: ProjectRow, item: ItemRecord, annotator: string, task?: Task): ItemView => {
    const me = findAnnotator(db, annotator);
    const label = me ? currentLabel(db, item.id, me.id) : null;
    return {
      ...item,
      ...totalFor.place(project, { seq: item.seq, responses: item.responses.length }, task),
      // Shuffled per annotator and item, deterministically: reopening never flips sides.
      shownOrder: shownOrder(annotator, item.uid, item.responses.length),
      label: label && label.choice !== null ? pairwise(label) : null,
      // A gold item in someone's queue looks like any other: the file's label on it (the gold) stays hidden.
      sourceLabel: gold.hidesGold(project, task ?? 'pairwise', item.id) ? null : pairwise(currentLabelsOfKind(db, item.id, 'source')[0] ?? null),
    };
  };
  /** Appends one revision in a short write that goes ahead of any bulk work; an id seen before adds nothing. */
  const append = (draft: RevisionDraft): PairwiseRevision => {
    const { id } = writeNow(db, () => {
      requireOwnRevisionId(db, draft.id, { ...draft, task: draft.task ?? 'pairwise' });
      return labelAppender(db)(draft);
    });
    return pairwise(getRevision(db, id))!;
  };

  return {
    getItem: ({ project, annotator, itemId, seq, task }) => {
      const row = requireProject(db, project);
      if (itemId === undefined && seq === undefined) throw invalidInput('getItem needs itemId or seq.');
      const item = itemId !== undefined ? requireItem(db, row, itemId) : getItemBySeq(db, row.id, seq!);
      return item ? itemView(row, item, annotator, task) : null;
    },
    nextItem: ({ project, annotator, afterSeq, direction, unlabeledOnly, task, viewId }) => {
      const row = requireProject(db, project);
      const me = findAnnotator(db, annotator);
      let start = afterSeq ?? (direction === 'next' ? -1 : Number.MAX_SAFE_INTEGER);
      let walk = walkFor(row, annotator, visibleSeqOf(db, row.id));
      // A saved view as the queue: its items in its order (service/itemsViews.ts), still this annotator's share.
      if (viewId !== undefined) walk = { ...walk, order: viewWalkOrder(db, row, viewId) };
      const unlabeledBy = unlabeledOnly && me ? me.id : null;
      // Gold first (a qualification, a honeypot's slot), else the walk skipping gold (service/goldRules.ts).
      const turn = gold.turn(row, annotator, task, { direction, unlabeledOnly, afterSeq: start });
      if (turn.kind === 'held') return null;
      if (turn.kind === 'serve') return itemView(row, requireItem(db, row, turn.itemId), annotator, task);
      if (turn.kind === 'walk') {
        const { assigned } = walk;
        walk = { ...walk, assigned: (uid) => !turn.skip.has(uid) && assigned(uid) };
        if (turn.restart) start = direction === 'next' ? -1 : Number.MAX_SAFE_INTEGER;
      }
      const plain = turn.kind === 'none' && walk.order.kind === 'source' && projectSettings(row).overlap === 0 && viewId === undefined;
      let item = plain ? neighbourItem(db, row.id, start, direction, unlabeledBy, task) : walkItem(db, row.id, start, direction, unlabeledBy, task, walk);
      // The walk is done: the honeypots not yet served come now rather than never.
      if (!item && turn.kind === 'walk' && turn.rest !== null) item = requireItem(db, row, turn.rest);
      return item ? itemView(row, item, annotator, task) : null;
    },
    saveLabel: (input) => {
      const row = requireProject(db, input.project);
      const item = requireItem(db, row, input.itemId);
      if (input.annotator === SOURCE_ANNOTATOR) throw invalidInput(`"${SOURCE_ANNOTATOR}" is reserved for preferences a file carried.`);
      if (item.responses.length !== 2 && (input.choice === 'A' || input.choice === 'B'))
        throw invalidInput(`Item ${input.itemId} has ${item.responses.length} responses; a Left/Right choice needs exactly 2.`);
      const order = input.shownOrder;
      const badOrder = shownOrderProblem(order, item.responses.length);
      if (badOrder) throw invalidInput(`shownOrder ${badOrder}.`);
      requireRegionsFit(item, input.regions);
      const strength = input.choice === 'A' || input.choice === 'B' ? (input.strength ?? 2) : null;
      const annotator = findAnnotator(db, input.annotator) ?? writeNow(db, () => ensureAnnotator(db, input.annotator, 'human'));
      if (annotator.kind !== 'human') throw invalidInput(`"${input.annotator}" is a ${annotator.kind} annotator; labels from the app are a person's.`);
      const saved = append({
        id: input.id,
        projectId: row.id,
        itemId: item.id,
        annotatorId: annotator.id,
        choice: input.choice,
        strength,
        shownOrder: order,
        body: {
          ...(input.rationale ? { rationale: input.rationale } : {}),
          ...(input.timeMs !== undefined ? { time_ms: input.timeMs } : {}),
          ...(input.prelabelVisible !== undefined ? { prelabel_visible: input.prelabelVisible } : {}),
          ...(input.regions?.length ? { regions: input.regions } : {}),
          ...keptMoments(db, item.id, annotator.id, 'pairwise'),
        },
      });
      events.emit('event', { type: 'label', project: input.project, itemId: item.id });
      return saved;
    },
    saveRationale: ({ project, annotator, itemId, rationale }) => {
      const row = requireProject(db, project);
      requireItem(db, row, itemId);
      const me = findAnnotator(db, annotator);
      const current = me ? currentLabel(db, itemId, me.id) : null;
      if (!me || !current || current.choice === null) return null;
      if ((current.body.rationale ?? '') === rationale) return pairwise(current);
      // A rationale edit is a new revision too: same choice, new text.
      return append({
        projectId: row.id,
        itemId,
        annotatorId: me.id,
        choice: current.choice,
        strength: current.strength,
        ranking: current.ranking,
        shownOrder: current.shownOrder,
        body: { ...current.body, rationale },
      });
    },
    saveRegions: ({ project, annotator, itemId, task, regions }) => {
      const row = requireProject(db, project);
      const item = requireItem(db, row, itemId);
      requireRegionsFit(item, regions);
      const me = findAnnotator(db, annotator);
      const current = me ? currentLabel(db, itemId, me.id, task) : null;
      const judged = current && (task === 'ranking' ? current.ranking !== null : task === 'rubric' ? current.body.ratings !== undefined : current.choice !== null);
      if (!me || !current || !judged) return null;
      if (canonicalJson(current.body.regions ?? []) === canonicalJson(regions)) return current;
      // Marks changed after the decision: a new revision of the same judgement (as a rationale edit is).
      const { undo_of: _undone, regions: _before, ...body } = current.body;
      const { id } = writeNow(db, () =>
        labelAppender(db)({
          projectId: row.id,
          itemId,
          annotatorId: me.id,
          task,
          choice: current.choice,
          strength: current.strength,
          ranking: current.ranking,
          shownOrder: current.shownOrder,
          rubricVersionId: task === 'rubric' ? (labelRubricVersion(db, current.id)?.id ?? null) : null,
          body: regions.length ? { ...body, regions } : body,
          done: true,
        }),
      );
      events.emit('event', { type: 'label', project, itemId, task });
      return getRevision(db, id);
    },
    undoLabel: ({ project, annotator, itemId, task }) => {
      const row = requireProject(db, project);
      requireItem(db, row, itemId);
      const me = findAnnotator(db, annotator);
      return me ? undo(db, row.id, itemId, me.id, task) : null;
    },
    labelHistory: ({ project, itemId }) => {
      const row = requireProject(db, project);
      requireItem(db, row, itemId);
      return history(db, itemId);
    },
    progress: ({ project, annotator, task }) => {
      const row = requireProject(db, project);
      const me = findAnnotator(db, annotator);
      const { mine, labeled } = progressCounts(db, row.id, me?.id ?? null, task);
      return { total: totalFor(row, task), labeledByMe: mine, labeled };
    },
  };
}

/**
 * Undo appends a revision equal to the one before the current one (or a clearing revision), so the
 * history keeps every step and undo itself can be undone by labeling again.
 */
function undo(db: Db, projectId: number, itemId: number, annotatorId: number, task: Task): LabelRevision | null {
  const id = writeNow(db, () => {
    const revisions = history(db, itemId, annotatorId, task);
    const current = revisions[revisions.length - 1];
    if (!current) return null;
    const previous = findReplacedState(revisions);
    return labelAppender(db)({
      projectId,
      itemId,
      annotatorId,
      task,
      rubricVersionId: null,
      choice: previous?.choice ?? null,
      strength: previous?.strength ?? null,
      ranking: previous?.ranking ?? null,
      shownOrder: previous?.shownOrder ?? current.shownOrder,
      body: { ...(previous?.body ?? {}), undo_of: current.id },
      // A step or rubric judgement lives in its body: restoring one restores a judgement.
      done: previous === null ? false : task === 'steps' || task === 'rubric' || task === 'critique' ? true : undefined,
    }).id;
  });
  return id ? getRevision(db, id) : null;
}

/**
 * Revisions form a stack where an undo revision pops: replaying the list with a stack gives the
 * state the current revision replaced.
 */
function findReplacedState(revisions: LabelRevision[]): LabelRevision | null {
  const stack: LabelRevision[] = [];
  for (const revision of revisions) {
    if (typeof revision.body.undo_of === 'string') stack.pop();
    else stack.push(revision);
  }
  // The stack's top is the current state; the one under it is what undo restores.
  return stack.length >= 2 ? stack[stack.length - 2]! : null;
}
