// Team review: the report and the queues come from a job on a task worker (a whole-project read never
// runs on the host's thread), cached per project until a label or an adjudication changes; the
// adjudication view and the lead's resolution are short reads and one short write.
import type { ApiParsed } from '../../../shared/api';
import { MAX_SENT, type AdjudicationLabel, type AdjudicationView, type ReviewTask } from '../../../shared/api/review';
import type { Choice, Verdict } from '../../../shared/domain';
import { readLabelBody, type StepsBody } from '../../../shared/labelBodies';
import { invalidInput } from '../base/errors';
import { buildReview, withExternalIds, type Review } from '../review/report';
import type { Db } from '../store/db';
import { plural } from '../../../shared/plural';
import { CHAIN_OUTCOMES, TRAJECTORY_OUTCOMES } from '../../../shared/stepJudgement';
import { isTrajectory } from '../../../shared/trajectory';
import { getItem, responseCount } from '../store/items';
import { currentSegmentations } from '../store/segmentations';
import { itemCurrentLabels, itemModelRewards, latestAdjudication, recordAdjudication, reviewWatermark, sendItemsToReview } from '../store/review';
import { writeNow } from '../store/write';
import type { FeatureHandlers, ServiceContext } from './context';
import { requireHumanAnnotator, requireItem, requireProject } from './guards';

type ReviewOps = 'reviewReport' | 'reviewQueue' | 'adjudicationView' | 'adjudicate' | 'sendToReview';

const json = <T>(text: string | null): T | null => (text ? (JSON.parse(text) as T) : null);

export function reviewHandlers({ db, jobs, events, options }: ServiceContext): FeatureHandlers<ReviewOps> {
  const cache = new Map<number, { mark: string; review: Promise<Review> }>();
  // New model scores change the model figures: a finished scoring job drops the cached reviews.
  events.on('event', (event: { type?: string; job?: { kind: string; state: string } }) => {
    if (event.type === 'job' && event.job?.kind === 'score' && event.job.state !== 'running') cache.clear();
  });

  /** The project's review, computed again only when its labels or adjudications changed (or asked to). */
  const reviewOf = (name: string, refresh = false): Promise<Review> => {
    const project = requireProject(db, name);
    const mark = reviewWatermark(db, project.id);
    const cached = cache.get(project.id);
    if (cached && cached.mark === mark && !refresh) return cached.review;
    const task = { kind: 'review' as const, project: name };
    const review = jobs.runTask({ dbPath: options.dbPath, task, inline: async () => buildReview(db, project) });
    cache.set(project.id, { mark, review });
    review.catch(() => cache.delete(project.id));
    return review;
  };

  return {
    reviewReport: async ({ project, refresh }) => (await reviewOf(project, refresh)).report,
    reviewQueue: async ({ project, task, reason, includeAdjudicated, offset, limit }) => {
      const rows = (await reviewOf(project)).queues[task].filter((r) => (!reason || r.reasons.includes(reason)) && (includeAdjudicated || !r.adjudicated));
      return { rows: withExternalIds(db, rows.slice(offset, offset + limit)), total: rows.length };
    },
    adjudicationView: ({ project, itemId, task }) => {
      const row = requireProject(db, project);
      requireItem(db, row, itemId);
      const labels: AdjudicationLabel[] = itemCurrentLabels(db, itemId, task).map((l) => {
        const body = readLabelBody(l.body);
        return {
          annotator: l.annotator,
          kind: l.kind,
          choice: l.choice,
          strength: l.strength,
          ranking: json<number[][]>(l.ranking),
          rationale: typeof body.rationale === 'string' ? body.rationale : null,
          steps: body.steps ?? null,
          firstError: body.first_error ?? null,
          stepTags: body.step_tags ?? null,
          stepSeverity: body.step_severity ?? null,
          toolVerdicts: body.tool_verdicts ?? null,
          corrections: body.corrections ?? null,
          outcome: body.outcome ?? null,
          attribution: body.attribution ?? null,
          ratings: (body.ratings as AdjudicationLabel['ratings']) ?? null,
          regions: Array.isArray(body.regions) ? (body.regions as AdjudicationLabel['regions']) : null,
          moments: Array.isArray(body.moments) ? (body.moments as AdjudicationLabel['moments']) : null,
          firstFailure: body.first_failure ?? null,
          prelabelVisible: typeof body.prelabel_visible === 'boolean' ? body.prelabel_visible : null,
          timeMs: typeof body.time_ms === 'number' ? body.time_ms : null,
          createdAt: l.createdAt,
        };
      });
      const latest = latestAdjudication(db, itemId, task);
      const view: AdjudicationView = {
        itemId,
        task,
        labels,
        models: itemModelRewards(db, itemId).map((m) => ({
          model: m.model,
          rewards: m.rewards,
          pA: m.rewards[0] != null && m.rewards[1] != null ? 1 / (1 + Math.exp(-(m.rewards[0] - m.rewards[1]))) : null,
        })),
        adjudication: latest && {
          by: latest.by,
          note: latest.note,
          createdAt: latest.createdAt,
          choice: latest.choice,
          strength: latest.strength,
          ranking: json<number[][]>(latest.ranking),
          body: readLabelBody(latest.body),
        },
      };
      return view;
    },
    adjudicate: (input) => {
      const recorded = adjudicateItem(db, input);
      // A resolution is a revision like a save: a connected team hub sends it up (service/team.ts).
      events.emit('event', { type: 'adjudication', project: input.project, itemId: input.itemId, task: input.task });
      return recorded;
    },
    sendToReview: ({ project, annotator, itemIds }) => {
      const row = requireProject(db, project);
      const unique = [...new Set(itemIds)];
      return writeNow(db, () => {
        const result = sendItemsToReview(db, row.id, unique, requireHumanAnnotator(db, annotator).name, MAX_SENT);
        // Every item must be the project's: else nothing is sent (the write rolls back) and the first stray one is named.
        if (result.sent < unique.length) for (const id of unique) requireItem(db, row, id);
        return result;
      });
    },
  };
}

/** Records a lead's resolution of an item (the handler's work, and `arbiter adjudicate`'s). */
export function adjudicateItem(db: Db, input: ApiParsed<'adjudicate'>): { id: string; labelId: string } {
  const project = requireProject(db, input.project);
  requireItem(db, project, input.itemId);
  const draft = resolvedDraft(input.task, input, input.task === 'steps' ? stepShapes(db, project.id, input.itemId) : responseCount(db, project.id, input.itemId));
  return writeNow(db, () => {
    const lead = requireHumanAnnotator(db, input.annotator);
    return recordAdjudication(db, { projectId: project.id, itemId: input.itemId, annotatorId: lead.id, task: input.task, ...draft }, input.note);
  });
}

interface Resolution {
  choice?: Choice;
  strength?: 1 | 2 | 3 | null;
  verdict?: Verdict;
  ranking?: number[][];
  firstError?: Record<string, number>;
  outcome?: Record<string, string>;
  note: string;
}

/** Per response of an item: its steps (the newest segmentation's; null before one is stored) and whether it is a trajectory. */
function stepShapes(db: Db, projectId: number, itemId: number): { steps: number | null; trajectory: boolean }[] {
  const item = getItem(db, projectId, itemId);
  const segmented = currentSegmentations(db, itemId);
  return (item?.responses ?? []).map((r) => ({ steps: segmented.get(r.index)?.steps.length ?? r.steps?.length ?? null, trajectory: isTrajectory(r.content) }));
}

/** The resolved judgement as a revision draft, checked against the task and the item's responses. */
function resolvedDraft(task: ReviewTask, input: Resolution, shapes: number | { steps: number | null; trajectory: boolean }[]) {
  const body = { adjudicated: true, ...(input.note ? { rationale: input.note } : {}) };
  const responses = typeof shapes === 'number' ? shapes : shapes.length;
  if (task === 'pairwise') {
    if (!input.choice) throw invalidInput('A pairwise adjudication needs a choice: A, B, tie or both_bad.');
    if (responses !== 2) throw invalidInput(`The item has ${responses} responses; a pairwise choice needs exactly 2.`);
    return { choice: input.choice, strength: input.choice === 'A' || input.choice === 'B' ? (input.strength ?? null) : null, ranking: null, shownOrder: null, body, done: true };
  }
  if (task === 'verdict') {
    if (!input.verdict) throw invalidInput('A verdict adjudication needs a verdict: good or bad.');
    return { choice: input.verdict, strength: null, ranking: null, shownOrder: null, body, done: true };
  }
  if (task === 'ranking') {
    const ranking = input.ranking;
    const flat = ranking?.flat() ?? [];
    if (!ranking || flat.length !== responses || new Set(flat).size !== responses || flat.some((i) => i >= responses))
      throw invalidInput(`A ranking adjudication lists each of the item's ${responses} responses once (indexes 0–${responses - 1}).`);
    return { choice: null, strength: null, ranking, shownOrder: null, body, done: true };
  }
  const firstError = input.firstError ?? {};
  const outcome = input.outcome ?? {};
  const letters = [...new Set([...Object.keys(firstError), ...Object.keys(outcome)])];
  if (!letters.length) throw invalidInput('A steps adjudication gives the first wrong step (−1: no error) or the outcome of at least one response.');
  const bad = letters.find((l) => l.charCodeAt(0) - 65 >= responses);
  if (bad) throw invalidInput(`Response ${bad} is not in the item (it has ${plural(responses, 'response')}).`);
  for (const key of letters) {
    const shape = typeof shapes === 'number' ? null : shapes[key.charCodeAt(0) - 65]!;
    if (!shape) continue;
    const step = shape.trajectory ? 'turn' : 'step';
    const at = firstError[key];
    if (at !== undefined && shape.steps !== null && at >= shape.steps)
      throw invalidInput(`Response ${key}'s first error is ${step} ${at + 1}, but it has ${plural(shape.steps, step)}. Give a ${step} from 1 to ${shape.steps}, or −1 for no error.`);
    const value = outcome[key];
    const allowed: readonly string[] = shape.trajectory ? TRAJECTORY_OUTCOMES : CHAIN_OUTCOMES;
    if (value !== undefined && !allowed.includes(value))
      throw invalidInput(`Response ${key} is ${shape.trajectory ? 'a trajectory' : 'a chain'}: its outcome is ${allowed.slice(0, -1).join(', ')} or ${allowed.at(-1)}, not "${value}".`);
  }
  const resolved = { ...body, ...(Object.keys(firstError).length ? { first_error: firstError } : {}), ...(Object.keys(outcome).length ? { outcome: outcome as StepsBody['outcome'] } : {}) }; // each outcome checked against its shape's above
  return { choice: null, strength: null, ranking: null, shownOrder: null, body: resolved, done: true };
}
