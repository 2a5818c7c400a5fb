// The stored results evaluation works on, read once per evaluation (nothing is re-run): the items' facets,
// the gold (review/gold.ts), every person's current labels of every task, the scoring models' rewards and
// step scores, and the local judges' verdicts (./judgeResults.ts).
import { TASKS } from '../../../../shared/domain';
import { readLabelBody } from '../../../../shared/labelBodies';
import type { Db } from '../../store/db';
import { withReadCache } from '../../store/review';
import { itemFacts, scoreRows, type ItemFacts } from '../../store/evaluation';
import { humanLabels } from '../../store/review';
import { goldOf } from '../gold';
import { buildEvaluation, type EvaluationFigures, type EvaluationInput } from './engine';
import { judgeVerdicts } from './judgeResults';
import type { ModelScores } from './modelFigures';
import { unitValues, type UnitValue } from './units';

const letter = (i: number) => String.fromCharCode(65 + i);

export function readEvaluationInput(db: Db, projectId: number): EvaluationInput {
  const facts = new Map<number, ItemFacts>();
  for (const f of itemFacts(db, projectId)) facts.set(f.itemId, f);
  const gold: UnitValue[] = [];
  for (const perTask of goldOf(db, projectId).values()) for (const g of perTask.values()) gold.push(...unitValues(g.itemId, g.task, g));
  const people = new Map<string, UnitValue[]>();
  for (const task of TASKS) {
    // Only steps and rubric values live in the body: a pair's or a verdict's body is not parsed.
    const needsBody = task === 'steps' || task === 'rubric';
    for (const row of humanLabels(db, projectId, task)) {
      const ranking = row.ranking ? (JSON.parse(row.ranking) as number[][]) : null;
      const list = people.get(row.annotator) ?? [];
      list.push(...unitValues(row.itemId, task, { choice: row.choice, ranking, body: needsBody ? readLabelBody(row.body) : {} }));
      people.set(row.annotator, list);
    }
  }
  const models = new Map<string, ModelScores>();
  for (const s of scoreRows(db, projectId)) {
    const m = models.get(s.model) ?? { name: s.model, kind: s.kind, rewards: new Map(), steps: new Map() };
    const rewards = m.rewards.get(s.itemId) ?? [];
    rewards[s.responseIndex] = s.reward;
    m.rewards.set(s.itemId, rewards);
    if (s.kind === 'process' && s.stepScores) {
      try {
        const steps = JSON.parse(s.stepScores) as unknown;
        if (Array.isArray(steps)) m.steps.set(`${s.itemId}:${letter(s.responseIndex)}`, steps.map((p) => (typeof p === 'number' ? p : null)));
      } catch {
        // A damaged row gives no steps; the rest of the model's scores still count.
      }
    }
    models.set(s.model, m);
  }
  for (const m of models.values()) for (const [itemId, r] of m.rewards) m.rewards.set(itemId, Array.from(r, (x) => x ?? null));
  return { facts, gold, people, models: [...models.values()], judges: judgeVerdicts(db, projectId) };
}

/** Every subject's figures, read in one transaction (a task worker runs this off the thread that answers saves). */
export function evaluateFigures(db: Db, projectId: number): EvaluationFigures {
  return withReadCache(db, () => db.transaction(() => buildEvaluation(readEvaluationInput(db, projectId))).deferred());
}
