// Process supervision: the steps of an item's responses, and one revision per save holding every
// response's step judgement (docs/formats.md "Labels": steps, first_error, step_tags, corrections,
// segmentation, outcome, finish_reason, keyed by response letter). Splitting or merging a step makes a
// new segmentation version; the judgement is carried over and what changed is said.
import type { ResponseSegmentation, StepsView } from '../../../shared/api';
import { contentText } from '../../../shared/choices';
import { responseLetter } from '../../../shared/letters';
import type { Content, ItemRecord } from '../../../shared/domain';
import { readBody, type StepsBody } from '../../../shared/labelBodies';
import { afterMerge, afterSplit, mergeSteps, segment, shownSteps, splitStep, type ResponseSteps } from '../../../shared/segment';
import { invalidInput } from '../base/errors';
import { responseShape, stepExtrasProblems, stepsProblem } from '../base/labelRules';
import { offeredTags, type Attribution } from '../../../shared/stepJudgement';
import { isGuiTrajectory } from '../../../shared/guiActions';
import { trajectoryTurns } from '../../../shared/trajectory';
import { findAnnotator, SOURCE_ANNOTATOR } from '../store/annotators';
import type { Db } from '../store/db';
import { currentLabel, getRevision, labelAppender } from '../store/labels';
import { projectSettings, type ProjectRow } from '../store/projects';
import { addSegmentation, currentSegmentations, segmentationVersion } from '../store/segmentations';
import { writeNow } from '../store/write';
import type { FeatureHandlers, ServiceContext } from './context';
import { requireHumanAnnotator, requireItem, requireOwnRevisionId, requireProject } from './guards';

type StepOps = 'getSteps' | 'saveSteps' | 'resegment';

type PerResponse<T> = Record<string, T>;
type Outcome = NonNullable<StepsBody['outcome']>[string];

function responseText(item: ItemRecord, index: number): string {
  return contentText(item.responses[index]!.content);
}

/**
 * Each response's newest steps: stored versions first, else Arbiter's cut by the project's method
 * (shownSteps, the rule the scorer follows too, so a process model scores the steps shown here).
 */
function segmentationsOf(db: Db, project: ProjectRow, item: ItemRecord): ResponseSegmentation[] {
  const stored = currentSegmentations(db, item.id);
  const method = projectSettings(project).segmentation;
  return item.responses.map((_, index) => {
    const row = stored.get(index);
    const text = responseText(item, index);
    const steps = shownSteps(text, row?.steps ?? null, method);
    // A stored cut of Arbiter's own says which rule made it (the same rule on the same text gives it again).
    const how = !row || row.origin === 'auto' ? segment(text, method).method : row.origin;
    if (row) return { index, id: row.id, version: row.version, steps, origin: row.origin, method: how };
    return { index, id: null, version: 1, steps, origin: 'auto', method: how };
  });
}

/** One response's judgement out of a steps revision's body. */
type HeldJudgement = StepsView['judgements'][number];
function judgementOf(body: StepsBody, letter: string): HeldJudgement | null {
  const ratings = body.steps?.[letter];
  const version = body.segmentation?.[letter];
  if (!ratings || version === undefined) return null;
  return {
    version,
    ratings,
    firstError: body.first_error?.[letter] ?? null,
    tags: body.step_tags?.[letter],
    severity: body.step_severity?.[letter],
    toolVerdicts: body.tool_verdicts?.[letter],
    corrections: body.corrections?.[letter],
    outcome: body.outcome?.[letter],
    attribution: body.attribution?.[letter],
    // A file's own words, kept as they came (the codec takes any value there).
    finishReason: body.finish_reason?.[letter] as string | undefined,
    referenceMatch: body.reference_match?.[letter] as string | undefined,
  };
}

function setPer<T>(record: PerResponse<T> | undefined, letter: string, value: T | null | undefined): PerResponse<T> | undefined {
  const next = { ...(record ?? {}) };
  if (value === null || value === undefined) delete next[letter];
  else next[letter] = value;
  return Object.keys(next).length ? next : undefined;
}

/** A body with one response's judgement replaced, every other key kept. */
function withJudgement(body: StepsBody, letter: string, steps: ResponseSteps, extra: { outcome?: string | null; finishReason?: string | null; referenceMatch?: string | null; attribution?: Attribution | null }): StepsBody {
  const next: StepsBody = { ...body };
  next.steps = setPer(body.steps, letter, steps.ratings);
  next.first_error = setPer<number | null>(body.first_error, letter, steps.firstError);
  next.step_tags = setPer(body.step_tags, letter, steps.tags && Object.keys(steps.tags).length ? steps.tags : null);
  next.step_severity = setPer(body.step_severity, letter, steps.severity && Object.keys(steps.severity).length ? steps.severity : null);
  next.tool_verdicts = setPer(body.tool_verdicts, letter, steps.toolVerdicts && Object.keys(steps.toolVerdicts).length ? steps.toolVerdicts : null);
  next.corrections = setPer(body.corrections, letter, steps.corrections && Object.keys(steps.corrections).length ? steps.corrections : null);
  next.segmentation = setPer(body.segmentation, letter, steps.version);
  if (extra.outcome !== undefined) next.outcome = setPer(body.outcome, letter, extra.outcome as Outcome | null); // checked by checkJudgement
  if (extra.finishReason !== undefined) next.finish_reason = setPer<unknown>(body.finish_reason, letter, extra.finishReason);
  if (extra.referenceMatch !== undefined) next.reference_match = setPer<unknown>(body.reference_match, letter, extra.referenceMatch);
  if (extra.attribution !== undefined) next.attribution = setPer(body.attribution, letter, extra.attribution);
  for (const key of Object.keys(next) as (keyof StepsBody)[]) if (next[key] === undefined) delete next[key];
  return next;
}

/**
 * Ratings after the first error carry no label (PRM800K's protocol): they are cleared, not kept. Tags,
 * severities, tool call verdicts, corrections, the attribution and the outcome pass the checks a labels
 * file's do (labelRules.ts stepExtrasProblems), against the response's steps (a trajectory's turns).
 */
function checkJudgement(steps: ResponseSteps, count: number, content: Content, extra: { attribution?: Attribution | null; outcome?: string | null }): ResponseSteps {
  const why = stepsProblem(steps.ratings, steps.firstError, count);
  if (why) throw invalidInput(`${why.charAt(0).toUpperCase()}${why.slice(1)}.`);
  const ratings = steps.firstError !== null && steps.firstError >= 0 ? steps.ratings.map((r, i) => (i > steps.firstError! ? null : i === steps.firstError ? -1 : r)) : steps.ratings;
  const problems = stepExtrasProblems({ ...steps, attribution: extra.attribution, outcome: extra.outcome }, responseShape(content, count), (name) =>
    name === 'attribution' || name === 'outcome' ? name : `steps.${name}`,
  );
  if (problems.length) {
    const more = problems.length > 5 ? `; and ${problems.length - 5} more` : '';
    throw invalidInput(`Could not save the step label: ${problems.slice(0, 5).join('; ')}${more}.`, { problems });
  }
  return { ...steps, ratings };
}

export function stepsHandlers({ db, events }: ServiceContext): FeatureHandlers<StepOps> {
  const view = (project: ProjectRow, item: ItemRecord, annotator: string): StepsView => {
    const responses = segmentationsOf(db, project, item);
    const me = findAnnotator(db, annotator);
    const label = me ? currentLabel(db, item.id, me.id, 'steps') : null;
    const judgements: StepsView['judgements'] = {};
    const body = readBody('steps', label?.body);
    for (const response of responses) {
      const judgement = judgementOf(body, responseLetter(response.index));
      if (!judgement) continue;
      if (judgement.version === response.version) judgements[response.index] = judgement;
      else {
        // Rated on an older version (another annotator split or merged since): carry over the steps whose
        // text is unchanged, by position in the new list.
        const old = segmentationVersion(db, item.id, response.index, judgement.version);
        const byText = new Map(old?.steps.map((text, i) => [text, i]) ?? []);
        const ratings = response.steps.map((text) => {
          const i = byText.get(text);
          return i === undefined ? null : (judgement.ratings[i] ?? null);
        });
        judgements[response.index] = { ...judgement, version: response.version, ratings, firstError: null };
      }
    }
    // The file's own outcome (a τ-bench reward, a verifier's result): the source annotator's, shown as the file's.
    const source = annotator === SOURCE_ANNOTATOR ? label : (() => {
      const who = findAnnotator(db, SOURCE_ANNOTATOR);
      return who ? currentLabel(db, item.id, who.id, 'steps') : null;
    })();
    const fileOutcomes: StepsView['fileOutcomes'] = {};
    const outcomes = readBody('steps', source?.body).outcome ?? {};
    for (const response of responses) {
      const value = outcomes[responseLetter(response.index)];
      if (typeof value === 'string') fileOutcomes[response.index] = value;
    }
    // A GUI agent's trajectory is offered the GUI tags too (shared/stepJudgement.ts offeredTags).
    const gui = item.responses.some((r) => Array.isArray(r.content) && isGuiTrajectory(r.content, trajectoryTurns(r.content)));
    return { responses, label, judgements, tags: offeredTags(projectSettings(project).errorTags, gui), fileOutcomes };
  };

  /** The stored segmentation to rate on: Arbiter's own cut is stored as version 1 the first time it is rated. */
  const storedSegmentation = (project: ProjectRow, item: ItemRecord, index: number) => {
    const current = segmentationsOf(db, project, item)[index];
    if (!current) throw invalidInput(`Item ${item.id} has no response ${responseLetter(index)}.`);
    if (current.id !== null) return current;
    const row = addSegmentation(db, item.id, index, current.steps, 'auto');
    return { ...current, id: row.id, version: row.version };
  };

  return {
    getSteps: ({ project, annotator, itemId }) => {
      const row = requireProject(db, project);
      return view(row, requireItem(db, row, itemId), annotator);
    },
    saveSteps: (input) => {
      const project = requireProject(db, input.project);
      const item = requireItem(db, project, input.itemId);
      const letter = responseLetter(input.response);
      if (input.response >= item.responses.length) throw invalidInput(`Item ${item.id} has ${item.responses.length} responses; there is no response ${letter}.`);
      const saved = writeNow(db, () => {
        const annotator = requireHumanAnnotator(db, input.annotator);
        requireOwnRevisionId(db, input.id, { projectId: project.id, itemId: item.id, annotatorId: annotator.id, task: 'steps' });
        const segmentation = storedSegmentation(project, item, input.response);
        if (input.steps.version !== segmentation.version)
          throw invalidInput(`These ratings are for version ${input.steps.version} of response ${letter}'s steps; it is at version ${segmentation.version} now. Reload the item.`);
        const steps = checkJudgement(input.steps, segmentation.steps.length, item.responses[input.response]!.content, input);
        const current = currentLabel(db, item.id, annotator.id, 'steps');
        const body = withJudgement(readBody('steps', current?.body), letter, steps, input);
        if (input.timeMs !== undefined) body.time_ms = input.timeMs;
        if (input.prelabelVisible !== undefined) body.prelabel_visible = input.prelabelVisible;
        return labelAppender(db)({
          id: input.id,
          projectId: project.id,
          itemId: item.id,
          annotatorId: annotator.id,
          task: 'steps',
          choice: null,
          segmentationId: segmentation.id,
          body,
          done: Object.values(body.first_error ?? {}).some((v) => v !== null) || Object.values(body.steps ?? {}).some((list) => list.some((r) => r !== null)),
        }).id;
      });
      events.emit('event', { type: 'label', project: input.project, itemId: item.id, task: 'steps' });
      return getRevision(db, saved)!;
    },
    resegment: ({ project: name, annotator, itemId, response, op, fromVersion, step, at }) => {
      const project = requireProject(db, name);
      const item = requireItem(db, project, itemId);
      const notices = writeNow(db, () => {
        const me = requireHumanAnnotator(db, annotator);
        const current = storedSegmentation(project, item, response);
        if (current.version !== fromVersion)
          throw invalidInput(`Response ${responseLetter(response)}'s steps are at version ${current.version}, not ${fromVersion}: they changed since the screen showed them. Reload the item.`);
        const steps = op === 'split' ? (at === undefined ? null : splitStep(current.steps, step, at)) : mergeSteps(current.steps, step);
        if (!steps)
          throw invalidInput(op === 'split' ? `Step ${step + 1} cannot be split there: both halves need some text.` : `Step ${step + 1} has no next step to merge with.`);
        const next = addSegmentation(db, item.id, response, steps, 'annotator');
        const label = currentLabel(db, item.id, me.id, 'steps');
        const letter = responseLetter(response);
        const judgement = label ? judgementOf(readBody('steps', label.body), letter) : null;
        if (!label || !judgement || judgement.version !== current.version) return [];
        const remapped = op === 'split' ? afterSplit(judgement, step, next.version) : afterMerge(judgement, step, next.version);
        labelAppender(db)({
          projectId: project.id,
          itemId: item.id,
          annotatorId: me.id,
          task: 'steps',
          choice: null,
          segmentationId: next.id,
          body: { ...withJudgement(readBody('steps', label.body), letter, remapped.steps, {}), resegmented: { [letter]: { op, step, from: current.version, to: next.version } } },
          done: true,
        });
        return remapped.notices;
      });
      return { view: view(project, item, annotator), notices };
    },
  };
}

