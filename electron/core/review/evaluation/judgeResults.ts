// Local judges' stored results (store/judges.ts, written by a judge run) as evaluation subjects: one
// subject per judge model file and template version, its newest result per item (and response); a
// pairwise verdict in source order with whether the two presentation orders disagreed, a rubric's scores,
// a step verification's first error (−1 when every step passed) and an outcome per response. Results that hold an error give nothing.
import type { Db } from '../../store/db';
import { judgeResults } from '../../store/judges';
import type { JudgeVerdicts } from './engine';

const letter = (i: number) => String.fromCharCode(65 + i);

export function judgeVerdicts(db: Db, projectId: number): JudgeVerdicts[] {
  const judges = new Map<string, JudgeVerdicts>();
  for (const r of judgeResults(db, projectId, { newestOnly: true })) {
    if (r.error) continue;
    const name = `${r.modelName} · template v${r.templateVersion}`;
    const judge: JudgeVerdicts = judges.get(name) ?? { name, pairs: new Map(), values: [] };
    judges.set(name, judge);
    const unit = r.response === null ? null : `${r.itemId}:${letter(r.response)}`;
    if (r.kind === 'pairwise' && r.verdict) judge.pairs.set(r.itemId, { verdict: r.verdict, flipped: r.flipped });
    // A null first error is the judge's "every step passed" (store/judges.ts): −1, as people and process models say no error.
    else if (r.kind === 'steps' && unit) judge.values.push({ measure: 'first_error', unit, itemId: r.itemId, value: String(r.firstError ?? -1) });
    else if (r.kind === 'outcome' && unit && r.outcome) judge.values.push({ measure: 'outcome', unit, itemId: r.itemId, value: r.outcome });
    else if (r.kind === 'rubric' && unit && r.answer && 'criteria' in r.answer) {
      const criteria = r.answer.criteria as Record<string, { score: unknown }>;
      for (const [key, c] of Object.entries(criteria)) if (c.score !== null && c.score !== undefined) judge.values.push({ measure: 'rubric', unit: `${unit}:${key}`, itemId: r.itemId, value: String(c.score) });
    }
  }
  return [...judges.values()];
}
