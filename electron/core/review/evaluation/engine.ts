// The evaluation engine: every subject (people, scoring models, judges) measured on the same reference per
// measure, accuracy with n and a Wilson interval, per facet too (category, source, length bucket), the
// benchmarks' figures, calibration, and judges' consistency and κ beside people's κ. Pure: inputs.ts reads
// the stored results it works on.
import { FACETS_EVALUATED, MEASURES, type EvaluationFacet, type Evaluation, type FacetFigure, type Measure, type MeasureFigure, type SubjectEvaluation, type SubjectKind } from '../../../../shared/api/evaluation';
import type { ItemFacts } from '../../store/evaluation';
import { proportion } from '../proportion';
import { kappa, meanKappa, positionConsistency } from './agreementFigures';
import { modelBenchmarks, modelValues, type ModelScores } from './modelFigures';
import { processBenchF1 } from './processBench';
import { byUnit, referenceFor, type UnitMap } from './reference';
import type { UnitValue } from './units';

/** A judge's stored results: pairwise verdicts in source letters (and whether the two orders disagreed), and its other values. */
export interface JudgeVerdicts {
  name: string;
  /** By item: the verdict in source order, and flipped (null when it ran in one order only). */
  pairs: Map<number, { verdict: string; flipped: boolean | null }>;
  /** Its other values (rubric scores, first errors, outcomes). */
  values: UnitValue[];
}

export interface EvaluationInput {
  facts: ReadonlyMap<number, ItemFacts>;
  gold: UnitValue[];
  people: ReadonlyMap<string, UnitValue[]>;
  models: ModelScores[];
  judges: JudgeVerdicts[];
}

/** Length buckets by characters of prompt and responses. */
export function lengthBucket(chars: number): string {
  if (chars < 1000) return 'under 1k';
  if (chars < 4000) return '1k–4k';
  if (chars < 16000) return '4k–16k';
  return '16k and over';
}

function facetOf(f: ItemFacts | undefined, facet: EvaluationFacet): string {
  if (!f) return 'unknown';
  if (facet === 'length') return lengthBucket(f.length);
  return (facet === 'category' ? f.category : f.source) ?? 'none';
}

/** Accuracy of `values` against `reference` over the units both hold, overall and per facet value. */
export function measureAccuracy(measure: Measure, values: UnitMap, reference: UnitMap, facts: ReadonlyMap<number, ItemFacts>): Omit<MeasureFigure, 'reference'> {
  // Per item first (hits, units), then per facet value: a facet's value is looked up once per item.
  const perItem = new Map<number, [number, number]>();
  let hits = 0;
  let n = 0;
  for (const [unit, v] of values) {
    const r = reference.get(unit);
    if (!r) continue;
    const hit = r.value === v.value ? 1 : 0;
    n++;
    hits += hit;
    const counts = perItem.get(v.itemId);
    if (counts) {
      counts[0] += hit;
      counts[1]++;
    } else perItem.set(v.itemId, [hit, 1]);
  }
  const facets: FacetFigure[] = [];
  for (const facet of FACETS_EVALUATED) {
    const byValue = new Map<string, [number, number]>();
    for (const [itemId, [h, k]] of perItem) {
      const value = facetOf(facts.get(itemId), facet);
      const entry = byValue.get(value);
      if (entry) {
        entry[0] += h;
        entry[1] += k;
      } else byValue.set(value, [h, k]);
    }
    const sorted = [...byValue].sort((a, b) => b[1][1] - a[1][1] || a[0].localeCompare(b[0]));
    for (const [value, [h, k]] of sorted) facets.push({ facet, value, accuracy: proportion(h, k) });
  }
  facets.sort((a, b) => a.facet.localeCompare(b.facet));
  return { measure, accuracy: proportion(hits, n), facets };
}

function subjectMeasures(values: UnitValue[], gold: Record<Measure, UnitMap>, people: Map<Measure, Map<string, UnitMap>>, facts: ReadonlyMap<number, ItemFacts>, self?: string): MeasureFigure[] {
  const out: MeasureFigure[] = [];
  for (const measure of MEASURES) {
    const mine = byUnit(values, measure);
    if (!mine.size) continue;
    const ref = referenceFor(gold[measure], people.get(measure) ?? new Map(), self);
    out.push({ reference: ref.reference, ...measureAccuracy(measure, mine, ref.units, facts) });
  }
  return out;
}

const asValues = (units: UnitMap) => new Map([...units].map(([k, v]) => [k, v.value]));

/** What the engine computes: the evaluation without its project name and time. */
export type EvaluationFigures = Pick<Evaluation, 'references' | 'subjects' | 'humanKappa' | 'notes'>;

export function buildEvaluation(input: EvaluationInput): EvaluationFigures {
  const gold = Object.fromEntries(MEASURES.map((m) => [m, byUnit(input.gold, m)])) as Record<Measure, UnitMap>;
  const people = new Map<Measure, Map<string, UnitMap>>(MEASURES.map((m) => [m, new Map([...input.people].map(([name, v]) => [name, byUnit(v, m)]))]));
  const subjects: SubjectEvaluation[] = [];
  const processBench = (values: UnitValue[]) => {
    const mine = byUnit(values, 'first_error');
    const chains = [...gold.first_error].filter(([unit]) => mine.has(unit)).map(([unit, g]) => ({ label: Number(g.value), prediction: Number(mine.get(unit)!.value) }));
    return chains.length ? processBenchF1(chains) : undefined;
  };
  for (const [name, values] of input.people) {
    const pb = processBench(values);
    subjects.push({ subject: name, kind: 'person', measures: subjectMeasures(values, gold, people, input.facts, name), benchmarks: pb ? { processBench: pb } : {} });
  }
  for (const model of input.models) {
    const values = modelValues(model, input.facts);
    const kind: SubjectKind = model.kind === 'process' ? 'process model' : 'reward model';
    const { benchmarks, calibration } = modelBenchmarks(model, input.facts, gold.pairwise, gold.ranking);
    const pb = processBench(values);
    if (pb) benchmarks.processBench = pb;
    subjects.push({ subject: model.name, kind, measures: subjectMeasures(values, gold, people, input.facts), benchmarks, ...(calibration ? { calibration } : {}) });
  }
  const pairwisePeople = [...(people.get('pairwise') ?? new Map<string, UnitMap>())].filter(([, u]) => u.size > 0);
  for (const judge of input.judges) {
    const values: UnitValue[] = [...judge.values];
    const both: { forward: string; reversed: string }[] = [];
    for (const [itemId, v] of judge.pairs) {
      if (v.flipped !== null) both.push({ forward: v.verdict, reversed: v.flipped ? 'flipped' : v.verdict });
      values.push({ measure: 'pairwise', unit: `${itemId}`, itemId, value: v.verdict });
    }
    const pb = processBench(values);
    const mine = asValues(byUnit(values, 'pairwise'));
    subjects.push({
      subject: judge.name,
      kind: 'judge',
      measures: subjectMeasures(values, gold, people, input.facts),
      benchmarks: pb ? { processBench: pb } : {},
      positionConsistency: positionConsistency(both),
      kappaWithPeople: meanKappa(pairwisePeople.map(([, u]) => kappa(mine, asValues(u)))),
    });
  }
  const pairs = [];
  for (let i = 0; i < pairwisePeople.length; i++) for (let j = i + 1; j < pairwisePeople.length; j++) pairs.push(kappa(asValues(pairwisePeople[i]![1]), asValues(pairwisePeople[j]![1])));
  const notes: string[] = [];
  if (!input.judges.length) notes.push('No judge results are stored for this project: judges are measured once a local judge has run over it.');
  notes.push('Region marks and critiques are kept as gold but have no accuracy figure; a reward model’s scores give pair, ranking and (process models) first-error figures, never a verdict, rubric rating or outcome.');
  return {
    references: MEASURES.map((m) => ({ measure: m, reference: gold[m].size ? 'gold' : 'consensus', items: new Set([...gold[m].values()].map((v) => v.itemId)).size })),
    subjects,
    humanKappa: meanKappa(pairs),
    notes,
  };
}
