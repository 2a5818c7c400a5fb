// Rubrics and rubric ratings (shared/api/rubrics.ts). Versioning is the point: saving changed criteria
// adds a version and never touches the old one, and a rating revision names the version it was made
// under (label.rubric_version_id, and `rubric` + `rubric_version` in its body, docs/formats.md "Labels"), so
// an old label keeps meaning what it meant. An item's own criteria (item.criteria) are rated the same
// way under the name "item"; they become a version of their own the first time they are rated or saved,
// and a change to them is the next version.
import type { MyRatings, RatingSheet, RubricLabelBody, RubricSaved, RubricSummary, RubricView } from '../../../shared/api';
import { readBody } from '../../../shared/labelBodies';
import type { ItemRecord } from '../../../shared/domain';
import { canonicalJson, checkCriteria, ITEM_RUBRIC, problemText, type Criterion } from '../../../shared/rubric';
import { invalidInput, notFound } from '../base/errors';
import { checkRatings, requireRegionsFit, shownOrderProblem } from '../base/labelRules';
import { findAnnotator } from '../store/annotators';
import type { Db } from '../store/db';
import { currentLabel, getRevision, labelAppender } from '../store/labels';
import type { ProjectRow } from '../store/projects';
import {
  criteriaHash,
  findRubric,
  itemCriteriaText,
  itemRubricName,
  listRubrics as listStored,
  rubricInForce,
  rubricNames,
  rubricVersion,
  saveRubricVersion,
  setItemCriteria,
  setRubricInForce,
  versionCounts,
  type RubricVersionRow,
} from '../store/rubrics';
import { writeNow } from '../store/write';
import type { FeatureHandlers, ServiceContext } from './context';
import { requireHumanAnnotator, requireItem, requireOwnRevisionId, requireProject } from './guards';

type RubricOps = 'listRubrics' | 'getRubric' | 'saveRubric' | 'setRubricInForce' | 'getRatingSheet' | 'saveItemCriteria' | 'saveRatings';

/** A project rubric by name, or a not-found that lists the ones there are. */
function requireRubric(db: Db, project: ProjectRow, name: string) {
  const rubric = findRubric(db, project.id, name);
  if (rubric) return rubric;
  const names = rubricNames(db, project.id);
  throw notFound(`The project “${project.name}” has no rubric named “${name}”. ${names.length ? `Its rubrics: ${names.join(', ')}.` : 'It has no rubrics yet: import one with `arbiter rubric import`.'}`);
}

function requireVersion(db: Db, rubricId: number, label: string, version: number | undefined): RubricVersionRow {
  const row = rubricVersion(db, rubricId, version);
  if (row) return row;
  const latest = rubricVersion(db, rubricId);
  throw notFound(`${label} has no version ${version}${latest ? `; its versions are 1 to ${latest.version}` : ''}.`);
}

/** An item's own criteria now, and the version they are (stored already, or the next one when they changed). */
interface ItemCriteria {
  storedName: string;
  criteria: Criterion[];
  version: number;
  stored: RubricVersionRow | null;
  rubricId: number | null;
}

function itemCriteria(db: Db, project: ProjectRow, item: ItemRecord): ItemCriteria {
  const text = itemCriteriaText(db, item.id);
  if (text === null) throw notFound(`Item ${item.id} has no criteria of its own; rate it with one of the project's rubrics.`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalidInput(`Item ${item.id}'s own criteria are not JSON; import the item again with its criteria fixed.`);
  }
  const checked = checkCriteria(parsed);
  if (!checked.ok) throw invalidInput(`Item ${item.id}'s own criteria are not valid: ${checked.problems.slice(0, 3).map(problemText).join('; ')}.`);
  const storedName = itemRubricName(item.uid);
  const rubric = findRubric(db, project.id, storedName);
  const latest = rubric ? rubricVersion(db, rubric.id) : null;
  const same = latest !== null && latest.hash === criteriaHash(checked.value);
  return { storedName, criteria: checked.value, version: same ? latest.version : (latest?.version ?? 0) + 1, stored: same ? latest : null, rubricId: rubric?.id ?? null };
}

function view(db: Db, rubric: string, row: RubricVersionRow, latest: number, itemId?: number): RubricView {
  const counts = versionCounts(db, [row.id]).get(row.id) ?? { labels: 0, revisions: 0 };
  return { rubric, version: row.version, latest, criteria: row.criteria, createdAt: row.createdAt, stored: true, ...counts, ...(itemId !== undefined ? { itemId } : {}) };
}

export function listProjectRubrics(db: Db, project: string): RubricSummary[] {
  const row = requireProject(db, project);
  const inForce = rubricInForce(db, row.id);
  return listStored(db, row.id).map((rubric) => ({ ...rubric, inForce: rubric.name === inForce }));
}

export function getRubricView(db: Db, input: { project: string; rubric: string; version?: number; itemId?: number }): RubricView {
  const project = requireProject(db, input.project);
  if (input.rubric === ITEM_RUBRIC) {
    if (input.itemId === undefined) throw invalidInput(`Name the item (itemId) whose own criteria to read.`);
    const item = requireItem(db, project, input.itemId);
    const own = itemCriteria(db, project, item);
    if (input.version === undefined || input.version === own.version) {
      if (own.stored) return view(db, ITEM_RUBRIC, own.stored, own.version, item.id);
      return { rubric: ITEM_RUBRIC, version: own.version, latest: own.version, criteria: own.criteria, createdAt: null, stored: false, labels: 0, revisions: 0, itemId: item.id };
    }
    const label = `Item ${item.id}'s own criteria`;
    if (own.rubricId === null || input.version > own.version) throw notFound(`${label} have no version ${input.version}; the newest is ${own.version}.`);
    return view(db, ITEM_RUBRIC, requireVersion(db, own.rubricId, label, input.version), own.version, item.id);
  }
  const rubric = requireRubric(db, project, input.rubric);
  const latest = requireVersion(db, rubric.id, `The rubric “${rubric.name}”`, undefined);
  const row = input.version === undefined ? latest : requireVersion(db, rubric.id, `The rubric “${rubric.name}”`, input.version);
  return view(db, rubric.name, row, latest.version);
}

/**
 * Saves criteria (checked) as the newest version of a project rubric: the same content keeps its version.
 * A project's first rubric is put in force with it (labeling rates with it from then on); after that,
 * which rubric is in force changes only when someone says so (setRubricInForce).
 */
export function saveProjectRubric(db: Db, input: { project: string; name: string; criteria: Criterion[] }): RubricSaved {
  const project = requireProject(db, input.project);
  const saved = writeNow(db, () => {
    const first = rubricNames(db, project.id).length === 0;
    const result = saveRubricVersion(db, project.id, input.name, input.criteria);
    if (first && rubricInForce(db, project.id) === null) setRubricInForce(db, project.id, input.name);
    return result;
  });
  return { rubric: input.name, version: saved.version.version, created: saved.created };
}

/** The rubric an item is rated under on screen: its own criteria, else the project's rubric in force. */
function sheetRubric(db: Db, project: ProjectRow, item: ItemRecord): RubricView | null {
  if (itemCriteriaText(db, item.id) !== null) return getRubricView(db, { project: project.name, rubric: ITEM_RUBRIC, itemId: item.id });
  const inForce = rubricInForce(db, project.id);
  if (inForce === null || !findRubric(db, project.id, inForce)) return null;
  return getRubricView(db, { project: project.name, rubric: inForce });
}

/** The annotator's current ratings of an item from their newest rubric revision, or null when it holds none. */
function myRatings(db: Db, itemId: number, annotator: string): MyRatings | null {
  const me = findAnnotator(db, annotator);
  const label = me ? currentLabel(db, itemId, me.id, 'rubric') : null;
  if (!label) return null;
  const body = readBody('rubric', label.body) as Partial<RubricLabelBody>;
  if (!body.ratings || typeof body.rubric !== 'string' || typeof body.rubric_version !== 'number') return null;
  if (!Object.values(body.ratings).some((values) => Object.keys(values).length > 0) && !Object.keys(body.criterion_winner ?? {}).length) return null;
  return { id: label.id, createdAt: label.createdAt, rubric: body.rubric, version: body.rubric_version, ratings: body.ratings, criterionWinner: body.criterion_winner ?? {} };
}

export function ratingSheet(db: Db, input: { project: string; annotator: string; itemId: number }): RatingSheet {
  const project = requireProject(db, input.project);
  const item = requireItem(db, project, input.itemId);
  const rubric = sheetRubric(db, project, item);
  const mine = myRatings(db, item.id, input.annotator);
  let carried: string[] = [];
  if (rubric && mine) {
    if (mine.rubric === rubric.rubric && mine.version === rubric.version) carried = rubric.criteria.map((c) => c.key);
    else {
      // Values made under another version are shown again only for criteria that did not change at all.
      let other: RubricView | null = null;
      try {
        other = getRubricView(db, { project: project.name, rubric: mine.rubric, version: mine.version, ...(mine.rubric === ITEM_RUBRIC ? { itemId: item.id } : {}) });
      } catch {
        other = null; // a version that cannot be read carries nothing over
      }
      const before = new Map((other?.criteria ?? []).map((c) => [c.key, canonicalJson(c)]));
      carried = rubric.criteria.filter((c) => before.get(c.key) === canonicalJson(c)).map((c) => c.key);
    }
  }
  return { rubric, inForce: rubricInForce(db, project.id), mine, carried };
}

export function rubricsHandlers({ db, events }: ServiceContext): FeatureHandlers<RubricOps> {
  return {
    listRubrics: ({ project }) => listProjectRubrics(db, project),
    getRubric: (input) => getRubricView(db, input),
    saveRubric: (input) => saveProjectRubric(db, input),
    setRubricInForce: ({ project: name, name: rubric }) => {
      const project = requireProject(db, name);
      if (rubric !== null) requireRubric(db, project, rubric);
      writeNow(db, () => setRubricInForce(db, project.id, rubric));
      events.emit('event', { type: 'rubricInForce', project: project.name, rubric });
      return { inForce: rubric };
    },
    getRatingSheet: (input) => ratingSheet(db, input),
    saveItemCriteria: ({ project: name, itemId, criteria }) => {
      const project = requireProject(db, name);
      const item = requireItem(db, project, itemId);
      const saved = writeNow(db, () => {
        setItemCriteria(db, item.id, criteria);
        return saveRubricVersion(db, project.id, itemRubricName(item.uid), criteria);
      });
      return { rubric: ITEM_RUBRIC, version: saved.version.version, created: saved.created };
    },
    saveRatings: (input) => {
      const project = requireProject(db, input.project);
      const item = requireItem(db, project, input.itemId);
      const n = item.responses.length;
      const order = input.shownOrder;
      const badOrder = order ? shownOrderProblem(order, n) : null;
      if (badOrder) throw invalidInput(`shownOrder ${badOrder}.`);
      requireRegionsFit(item, input.regions);
      const id = writeNow(db, () => {
        // The version rated: a project rubric's, or the item's own (stored now if this is its first rating).
        let version: RubricVersionRow;
        let what: string;
        if (input.rubric === ITEM_RUBRIC) {
          const own = itemCriteria(db, project, item);
          what = `item ${item.id}'s own criteria, version ${input.version},`;
          if (input.version === own.version) version = own.stored ?? saveRubricVersion(db, project.id, own.storedName, own.criteria).version;
          else if (own.rubricId !== null && input.version < own.version) version = requireVersion(db, own.rubricId, `Item ${item.id}'s own criteria`, input.version);
          else throw notFound(`Item ${item.id}'s own criteria have no version ${input.version}; the newest is ${own.version}. Reload the item.`);
        } else {
          const rubric = requireRubric(db, project, input.rubric);
          version = requireVersion(db, rubric.id, `The rubric “${rubric.name}”`, input.version);
          what = `the rubric “${rubric.name}” version ${version.version}`;
        }
        const checked = checkRatings(item, what, version.criteria, input);
        const body: RubricLabelBody = { ratings: checked.ratings, rubric: input.rubric, rubric_version: version.version };
        if (checked.criterion_winner) body.criterion_winner = checked.criterion_winner;
        if (input.rationale) body.rationale = input.rationale;
        if (input.timeMs !== undefined) body.time_ms = input.timeMs;
        if (input.prelabelVisible !== undefined) body.prelabel_visible = input.prelabelVisible;
        if (input.regions?.length) body.regions = input.regions;
        const annotator = requireHumanAnnotator(db, input.annotator);
        requireOwnRevisionId(db, input.id, { projectId: project.id, itemId: item.id, annotatorId: annotator.id, task: 'rubric' });
        return labelAppender(db)({
          id: input.id,
          projectId: project.id,
          itemId: item.id,
          annotatorId: annotator.id,
          task: 'rubric',
          choice: null,
          shownOrder: order ?? null,
          rubricVersionId: version.id,
          body,
          done: Object.values(body.ratings).some((values) => Object.keys(values).length > 0) || Object.keys(body.criterion_winner ?? {}).length > 0,
        }).id;
      });
      events.emit('event', { type: 'label', project: input.project, itemId: item.id, task: 'rubric' });
      return getRevision(db, id)!;
    },
  };
}
