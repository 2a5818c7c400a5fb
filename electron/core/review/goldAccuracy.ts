// Each person's accuracy against the project's gold per task (goldOf: adjudications and the file's labels
// a lead marked), with a Wilson 95% interval and n; flagged under the lead's bar (project settings `gold`,
// shared/goldRules.ts) with the gold items they got wrong; and each person's qualification: the first
// `qualification` gold items of the task in the file's order, judged since the lead's last retry for them.
import type { GoldAccuracyReport, PersonGoldAccuracy, QualificationResult, TaskGoldAccuracy } from '../../../shared/api/goldRules';
import { GOLD_FLAG_MIN_N } from '../../../shared/api/goldRules';
import type { GoldJudgement } from '../../../shared/api/gold';
import { DEFAULT_GOLD_TASK_RULES, GOLD_QUEUE_TASKS, matchesGold, type GoldQueueTask, type GoldTaskRules, type JudgementFacts } from '../../../shared/goldRules';
import { readLabelBody } from '../../../shared/labelBodies';
import type { Db } from '../store/db';
import { humanLabelsOnItems, mayHaveGold, type PersonGoldLabel } from '../store/goldRules';
import { projectSettings, type ProjectRow } from '../store/projects';
import { goldOf } from './gold';
import { proportion } from './proportion';

function parsedRanking(text: string | null): number[][] | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as unknown;
    return Array.isArray(value) ? (value as number[][]) : null;
  } catch {
    return null;
  }
}

/** What of a person's stored judgement is compared with gold. */
export function labelFacts(label: Pick<PersonGoldLabel, 'choice' | 'ranking' | 'body'>): JudgementFacts {
  const firstError = readLabelBody(label.body).first_error;
  return { choice: label.choice, ranking: parsedRanking(label.ranking), firstError: (firstError as Record<string, number | null> | undefined) ?? null };
}

function goldFacts(gold: GoldJudgement): JudgementFacts {
  const firstError = gold.body.first_error as Record<string, number | null> | undefined;
  return { choice: gold.choice, ranking: gold.ranking, firstError: firstError ?? null };
}

/** A task's rules in force (the defaults where the lead set none). */
export function taskRules(project: ProjectRow, task: GoldQueueTask): GoldTaskRules {
  return { ...DEFAULT_GOLD_TASK_RULES, ...projectSettings(project).gold?.[task] };
}

/** The qualification set: the first `qualification` gold items of the task in the file's order. */
export function qualificationSet(gold: GoldJudgement[], rules: GoldTaskRules): GoldJudgement[] {
  return rules.qualification > 0 ? gold.slice(0, rules.qualification) : [];
}

/** A person's qualification from their judgements of the set (those made since the lead's last retry count). */
export function qualificationOf(task: GoldQueueTask, set: GoldJudgement[], rules: GoldTaskRules, name: string, labels: PersonGoldLabel[]): QualificationResult | null {
  if (!set.length) return null;
  const since = rules.retries[name] ? Date.parse(rules.retries[name]) : Number.NEGATIVE_INFINITY;
  const byItem = new Map(labels.filter((l) => l.annotator === name && Date.parse(l.createdAt) > since).map((l) => [l.itemId, l]));
  let done = 0;
  let right = 0;
  let checked = 0;
  for (const g of set) {
    const label = byItem.get(g.itemId);
    if (!label) continue;
    done++;
    const match = matchesGold(task, labelFacts(label), goldFacts(g));
    if (match === null) continue;
    checked++;
    if (match) right++;
  }
  const base = { done, total: set.length, passMark: rules.passMark };
  if (done < set.length) return { state: 'pending', score: null, ...base };
  const score = checked ? right / checked : 1;
  return { state: score >= rules.passMark ? 'passed' : 'failed', score, ...base };
}

function taskAccuracy(db: Db, project: ProjectRow, task: GoldQueueTask, all: Map<string, Map<number, GoldJudgement>>): TaskGoldAccuracy | null {
  const rules = taskRules(project, task);
  const gold = [...(all.get(task)?.values() ?? [])].sort((a, b) => a.seq - b.seq);
  const asked = rules.honeypotRate > 0 || rules.qualification > 0;
  if (!gold.length && !asked) return null;
  const labels = humanLabelsOnItems(db, task, gold.map((g) => g.itemId));
  const goldById = new Map(gold.map((g) => [g.itemId, g]));
  const set = qualificationSet(gold, rules);
  const byPerson = new Map<string, PersonGoldLabel[]>();
  for (const l of labels) byPerson.set(l.annotator, [...(byPerson.get(l.annotator) ?? []), l]);
  const people: PersonGoldAccuracy[] = [...byPerson].map(([name, mine]) => {
    let correct = 0;
    let n = 0;
    const wrong: PersonGoldAccuracy['wrong'] = [];
    for (const l of mine) {
      const g = goldById.get(l.itemId)!;
      const match = matchesGold(task, labelFacts(l), goldFacts(g));
      if (match === null) continue;
      n++;
      if (match) correct++;
      else wrong.push({ itemId: g.itemId, seq: g.seq, externalId: g.externalId });
    }
    const accuracy = proportion(correct, n, 'no gold item judged');
    wrong.sort((a, b) => a.seq - b.seq);
    const flagged = n >= GOLD_FLAG_MIN_N && accuracy.value !== null && accuracy.value < rules.bar;
    return { name, accuracy, correct, flagged, wrong, qualification: qualificationOf(task, set, rules, name, mine) };
  });
  return { task, goldItems: gold.length, bar: rules.bar, honeypotRate: rules.honeypotRate, qualification: set.length, people };
}

/** Every task with gold or gold rules: each person's figures. */
export function goldAccuracy(db: Db, project: ProjectRow): GoldAccuracyReport {
  // Every task's gold in one read (goldOf walks the project's marked file labels), none where there is none.
  const all: Map<string, Map<number, GoldJudgement>> = mayHaveGold(db, project.id) ? goldOf(db, project.id) : new Map();
  return { tasks: GOLD_QUEUE_TASKS.map((task) => taskAccuracy(db, project, task, all)).filter((t): t is TaskGoldAccuracy => t !== null) };
}
