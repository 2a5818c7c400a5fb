// What an item's rating sheet holds on the screen: the ratings and per-criterion winners, the stops the
// focus walks, the entry kept per item (saved text, undo history), and which required criteria are
// missing. Pure: no React, no API.
import type { RatingSheet } from '../../../../shared/api';
import type { Criterion, RatingValue } from '../../../../shared/rubric';
import { lettersOf, type ItemShape } from '../../components/itemShape';

export { lettersOf, type ItemShape };

export type Winner = 'A' | 'B' | 'tie';

export interface RatingState {
  /** Per response letter (source order), criterion key → value; null: not applicable. */
  ratings: Record<string, Record<string, RatingValue>>;
  winners: Record<string, Winner>;
}

/** A place the focus can be while rating: a criterion of one response, or a criterion's winner. */
export type Stop = { kind: 'rate'; letter: string; key: string } | { kind: 'winner'; key: string };

export interface Entry {
  itemId: number;
  itemNumber: number;
  sheet: RatingSheet;
  state: RatingState;
  /** The state last saved under the version shown, as text; null while nothing is saved under it. */
  saved: string | null;
  /** Earlier states, newest last (Ctrl+Z). */
  history: RatingState[];
  shownAt: number;
}

export const EMPTY: RatingState = { ratings: {}, winners: {} };

/** Canonical text of a state (criteria order, letters in order), to tell changed from saved. */
export function stateText(state: RatingState, criteria: Criterion[], letters: string[]): string {
  const ratings: Record<string, Record<string, RatingValue>> = {};
  for (const letter of letters) {
    const given = state.ratings[letter] ?? {};
    const ordered: Record<string, RatingValue> = {};
    for (const c of criteria) if (given[c.key] !== undefined) ordered[c.key] = given[c.key]!;
    if (Object.keys(ordered).length) ratings[letter] = ordered;
  }
  const winners: Record<string, Winner> = {};
  for (const c of criteria) if (state.winners[c.key]) winners[c.key] = state.winners[c.key]!;
  return JSON.stringify({ ratings, winners });
}

export const isEmpty = (state: RatingState) => Object.values(state.ratings).every((v) => Object.keys(v).length === 0) && Object.keys(state.winners).length === 0;

/** What a sheet starts as: this annotator's ratings under the version shown, or those that carry over. */
/** A save still waiting in the outbox: its values as the API takes them (yes / no may be true / false). */
export type PendingRatings = Omit<NonNullable<RatingSheet['mine']>, 'ratings'> & { ratings: Record<string, Record<string, RatingValue | boolean>> };

export function initialEntry(item: ItemShape, sheet: RatingSheet, pending: PendingRatings | null): Entry {
  const base: Entry = { itemId: item.id, itemNumber: item.position, sheet, state: EMPTY, saved: null, history: [], shownAt: performance.now() };
  const rubric = sheet.rubric;
  const mine = pending ?? sheet.mine;
  if (!rubric || !mine) return base;
  const letters = lettersOf(item.responses);
  const same = mine.rubric === rubric.rubric && mine.version === rubric.version;
  const keep = new Set(same ? rubric.criteria.map((c) => c.key) : sheet.carried);
  const ratings: RatingState['ratings'] = {};
  for (const letter of letters) {
    const values: Record<string, RatingValue> = {};
    for (const [key, value] of Object.entries(mine.ratings[letter] ?? {})) if (keep.has(key)) values[key] = typeof value === 'boolean' ? (value ? 1 : 0) : value;
    ratings[letter] = values;
  }
  const winners: RatingState['winners'] = {};
  for (const [key, w] of Object.entries(mine.criterionWinner)) if (keep.has(key)) winners[key] = w;
  const state = { ratings, winners };
  return { ...base, state, saved: same && !pending ? stateText(state, rubric.criteria, letters) : null };
}

export interface Missing {
  letter: string;
  keys: string[];
}

export function missingRequired(entry: { sheet: RatingSheet; state: RatingState }, letters: string[]): Missing[] {
  const criteria = entry.sheet.rubric?.criteria ?? [];
  const out: Missing[] = [];
  for (const letter of letters) {
    const keys = criteria.filter((c) => c.required && entry.state.ratings[letter]?.[c.key] === undefined).map((c) => c.key);
    if (keys.length) out.push({ letter, keys });
  }
  return out;
}
