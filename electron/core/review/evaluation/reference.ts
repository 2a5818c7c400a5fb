// What a subject is measured against, per measure: the gold where the measure has any, else the people's
// consensus (the majority of their values per unit; an even split gives none). A person is measured
// against the others' consensus, never one that counts their own vote.
import type { Measure } from '../../../../shared/api/evaluation';
import { majorityOfVotes } from '../majority';
import type { UnitValue } from './units';

export type UnitMap = Map<string, UnitValue>;

export interface Reference {
  reference: 'gold' | 'consensus';
  units: UnitMap;
}

/** Values keyed by unit, one measure. */
export function byUnit(values: Iterable<UnitValue>, measure: Measure): UnitMap {
  const out: UnitMap = new Map();
  for (const v of values) if (v.measure === measure) out.set(v.unit, v);
  return out;
}

/** The people's majority per unit, leaving out `except` (a person measured against the others). */
export function consensusOf(people: ReadonlyMap<string, UnitMap>, except?: string): UnitMap {
  const votes = new Map<string, { any: UnitValue; counts: Record<string, number> }>();
  for (const [person, units] of people) {
    if (person === except) continue;
    for (const [unit, v] of units) {
      const entry = votes.get(unit) ?? { any: v, counts: {} };
      entry.counts[v.value] = (entry.counts[v.value] ?? 0) + 1;
      votes.set(unit, entry);
    }
  }
  const out: UnitMap = new Map();
  for (const [unit, { any, counts }] of votes) {
    const value = majorityOfVotes(counts);
    if (value !== null) out.set(unit, { ...any, value });
  }
  return out;
}

/** The reference of one measure: gold when there is any, else consensus (without `except`). */
export function referenceFor(gold: UnitMap, people: ReadonlyMap<string, UnitMap>, except?: string): Reference {
  return gold.size ? { reference: 'gold', units: gold } : { reference: 'consensus', units: consensusOf(people, except) };
}
