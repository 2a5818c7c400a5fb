// Which label decides the judgements the rating and critique formats write, by the same rule as every
// export (./resolve.ts, decidingLabels): an adjudication, the named annotator, the humans' consensus,
// the file's own.
//  - a preference with its strength, ties kept (HelpSteer2 and HelpSteer3 write a tie as 0);
//  - ratings: the rubric version most deciding labels used (the newest on a tie), then per response and
//    criterion the most common value; an even split is a conflict and leaves the item out;
//  - a critique: text cannot be voted on, so the newest deciding critique of the response;
//  - totals: the deciding ratings added up per response (./rubricTotals.ts), for pairs from ratings.
import { readBody } from '../../../../shared/labelBodies';
import { responseLetter } from '../../../../shared/letters';
import type { Criterion, RatingValue } from '../../../../shared/rubric';
import type { HeadLabel } from '../../store/labels';
import { decidingLabels, effectiveChoice, mostCommon, type SkipReason } from './resolve';
import { rubricScore, weightedTotal } from './rubricTotals';
import { isPlainObject } from '../validate';

export type PreferenceDecision = { choice: 'A' | 'B' | 'tie'; strength: number | null; labels: HeadLabel[]; skip?: undefined } | { skip: SkipReason };

/** The deciding preference of a pair: a tie is an answer here; `labels` are those that gave it, newest first. */
export function decidePreference(responseCount: number, labels: readonly HeadLabel[], annotator?: string): PreferenceDecision {
  if (responseCount !== 2) return { skip: 'not_pairwise' };
  const deciding = decidingLabels(labels, (l) => effectiveChoice(l) !== null, annotator);
  const top = mostCommon(deciding, (l) => effectiveChoice(l)!);
  if (top === null) return { skip: 'unlabeled' };
  if (top === 'conflict') return { skip: 'conflict' };
  const choice = effectiveChoice(top)!;
  if (choice === 'both_bad') return { skip: 'both_bad' };
  const agreeing = newestFirst(deciding.filter((l) => effectiveChoice(l) === choice));
  const strengths = agreeing.map((l) => l.strength).filter((s): s is number => s !== null);
  return { choice, strength: strengths.length ? strengths.reduce((a, b) => a + b, 0) / strengths.length : null, labels: agreeing };
}

export interface RatingsDecision {
  rubric: string;
  version: number;
  /** Response letter → criterion key → value (null: not applicable). */
  ratings: Record<string, Record<string, RatingValue>>;
  labels: HeadLabel[];
  skip?: undefined;
}

function ratingsOf(label: HeadLabel): Record<string, Record<string, RatingValue>> | null {
  const ratings = readBody('rubric', label.body).ratings;
  return isPlainObject(ratings) ? (ratings as Record<string, Record<string, RatingValue>>) : null;
}

const versionKey = (l: HeadLabel) => {
  const body = readBody('rubric', l.body);
  return `${typeof body.rubric === 'string' ? body.rubric : ''}\u0000${typeof body.rubric_version === 'number' ? body.rubric_version : 0}`;
};

/** The deciding ratings, only of the criteria in `keys` when given (a format's own aspects). */
export function decideRatings(labels: readonly HeadLabel[], annotator?: string, keys?: ReadonlySet<string>): RatingsDecision | { skip: SkipReason } {
  const rated = (l: HeadLabel) => {
    const ratings = ratingsOf(l);
    if (!ratings) return false;
    return Object.values(ratings).some((values) => isPlainObject(values) && Object.keys(values).some((k) => !keys || keys.has(k)));
  };
  const deciding = decidingLabels(labels, rated, annotator);
  if (deciding.length === 0) return { skip: 'unlabeled' };
  // The version most of them rated under; the newest label's on a tie.
  const byVersion = new Map<string, HeadLabel[]>();
  for (const l of newestFirst(deciding)) byVersion.set(versionKey(l), [...(byVersion.get(versionKey(l)) ?? []), l]);
  let group: HeadLabel[] = [];
  for (const list of byVersion.values()) if (list.length > group.length) group = list;
  const votes = new Map<string, Map<string, RatingValue[]>>();
  for (const l of group) {
    for (const [letter, values] of Object.entries(ratingsOf(l)!)) {
      if (!isPlainObject(values)) continue;
      const perKey = votes.get(letter) ?? new Map<string, RatingValue[]>();
      votes.set(letter, perKey);
      for (const [k, v] of Object.entries(values)) if (!keys || keys.has(k)) perKey.set(k, [...(perKey.get(k) ?? []), v as RatingValue]);
    }
  }
  const ratings: Record<string, Record<string, RatingValue>> = {};
  for (const letter of [...votes.keys()].sort()) {
    const out: Record<string, RatingValue> = {};
    for (const [k, values] of votes.get(letter)!) {
      // Wrapped: a null value ("not applicable") is an answer, not mostCommon's "no votes".
      const top = mostCommon(
        values.map((value) => ({ value })),
        (v) => JSON.stringify(v.value),
      );
      if (top === 'conflict') return { skip: 'conflict' };
      if (top !== null) out[k] = top.value;
    }
    ratings[letter] = out;
  }
  const body = readBody('rubric', group[0]!.body);
  return {
    rubric: typeof body.rubric === 'string' ? body.rubric : '',
    version: typeof body.rubric_version === 'number' ? body.rubric_version : 0,
    ratings,
    labels: group,
  };
}

/**
 * A response's critique in a critique revision's body: `critique: {A: "…"}` (docs/formats.md), or an object
 * with the text (`{text}`), as an edited critique kept beside its original may be.
 */
export function critiqueText(label: HeadLabel, letter: string): string | null {
  const critique: unknown = readBody('critique', label.body).critique;
  if (!isPlainObject(critique)) return null;
  const entry = critique[letter];
  if (typeof entry === 'string') return entry;
  if (isPlainObject(entry) && typeof entry.text === 'string') return entry.text;
  return null;
}

/** The deciding critique of one response: the newest of the deciding labels that wrote one. */
export function decideCritique(labels: readonly HeadLabel[], letter: string, annotator?: string): { text: string; label: HeadLabel } | null {
  const deciding = newestFirst(decidingLabels(labels, (l) => !!critiqueText(l, letter)?.trim(), annotator));
  const label = deciding[0];
  return label ? { text: critiqueText(label, letter)!, label } : null;
}

/** Newest first; labels of one time (a file's, imported together) by annotator name. */
function newestFirst(labels: readonly HeadLabel[]): HeadLabel[] {
  return [...labels].sort((a, b) => ((b.createdAt ?? '') < (a.createdAt ?? '') ? -1 : (b.createdAt ?? '') > (a.createdAt ?? '') ? 1 : a.annotator < b.annotator ? -1 : a.annotator > b.annotator ? 1 : 0));
}

export interface TotalsDecision {
  /** Per response index: its weighted rubric total (null: not rated on any criterion that adds up). */
  totals: (number | null)[];
  /** Per response index: its score on the rubric's own scale (./rubricTotals.ts rubricScore). */
  scores: (number | null)[];
  skip?: undefined;
}

/** The deciding ratings as totals and scores; the criteria come from the rubric version the labels name. */
export function decideTotals(
  responseCount: number,
  labels: readonly HeadLabel[],
  annotator: string | undefined,
  criteriaOf: (rubric: string, version: number) => readonly Criterion[] | null,
): TotalsDecision | { skip: SkipReason } {
  const d = decideRatings(labels, annotator);
  if (d.skip) return d;
  const criteria = criteriaOf(d.rubric, d.version);
  if (!criteria) return { skip: 'unlabeled' };
  const totals: (number | null)[] = [];
  const scores: (number | null)[] = [];
  for (let i = 0; i < responseCount; i++) {
    const values = d.ratings[responseLetter(i)];
    const t = values ? weightedTotal(criteria, values) : null;
    totals.push(t && t.rated ? t.total : null);
    scores.push(values ? rubricScore(criteria, values) : null);
  }
  return { totals, scores };
}
