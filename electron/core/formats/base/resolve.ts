// Which label decides an item on export (docs/formats.md, "Which label decides"):
//  1. the label an adjudication chose for the item and task;
//  2. with an annotator named: that annotator's current label only;
//  3. the consensus of the current human labels: for a choice or a verdict the majority (an even split
//     between the top answers is a conflict); for a ranking the most common ranking (tied groups compared
//     as sets; an even split is a conflict); for step ratings a majority per step (see decideChain);
//  4. where no human judged the item: the `source` label (what the imported file carried); where the file
//     had no label of the `source` annotator itself but several of its own annotators' (HelpSteer3's
//     individual preferences), their consensus.
// Models' labels never decide. A decided tie or both_bad is left out too (a both_bad pair still gives two
// `false` lines in trl-unpaired); every left-out item is counted by reason in the summary.
import type { Choice, ExportSummary, Verdict } from '../../../../shared/domain';
import { readBody } from '../../../../shared/labelBodies';
import { SOURCE_ANNOTATOR } from '../../store/annotators';
import type { HeadLabel } from '../../store/labels';

export type { HeadLabel };

export type SkipReason = keyof ExportSummary['skipped'];
export type Decision = { winner: 0 | 1; margin: number | null; skip?: undefined } | { skip: SkipReason };

const PAIR_CHOICES = new Set<string>(['A', 'B', 'tie', 'both_bad']);

/** A two-response ranking says the same as a choice. */
export function effectiveChoice(label: HeadLabel): Choice | null {
  if (label.choice && PAIR_CHOICES.has(label.choice)) return label.choice as Choice;
  if (label.ranking && label.ranking.length >= 2) return label.ranking[0]!.includes(0) ? 'A' : 'B';
  return null;
}

/** The most common of `values` (by key); null when there are none, 'conflict' when the top ones tie. */
export function mostCommon<T>(values: readonly T[], key: (v: T) => string): T | null | 'conflict' {
  const counts = new Map<string, { value: T; n: number }>();
  for (const v of values) {
    const k = key(v);
    const entry = counts.get(k);
    if (entry) entry.n++;
    else counts.set(k, { value: v, n: 1 });
  }
  let top: { value: T; n: number } | null = null;
  let tied = false;
  for (const entry of counts.values()) {
    if (!top || entry.n > top.n) {
      top = entry;
      tied = false;
    } else if (entry.n === top.n) tied = true;
  }
  if (!top) return null;
  return tied ? 'conflict' : top.value;
}

function majority(votes: { choice: Choice; strength: number | null }[]): Decision {
  const top = mostCommon(votes, (v) => v.choice);
  if (top === null) return { skip: 'unlabeled' };
  if (top === 'conflict') return { skip: 'conflict' };
  if (top.choice === 'tie') return { skip: 'tie' };
  if (top.choice === 'both_bad') return { skip: 'both_bad' };
  let sum = 0;
  let known = 0;
  for (const v of votes) {
    if (v.choice === top.choice && v.strength !== null) {
      sum += v.strength;
      known++;
    }
  }
  return { winner: top.choice === 'A' ? 0 : 1, margin: known ? sum / known : null };
}

/**
 * The labels that decide, in the order of the rule above: the adjudicated one, the named annotator's,
 * the humans', else the source's. `has` says whether a label holds a judgement of what is asked.
 */
export function decidingLabels(labels: readonly HeadLabel[], has: (l: HeadLabel) => boolean, annotator?: string): HeadLabel[] {
  const adjudicated = labels.filter((l) => l.adjudicated && has(l));
  if (adjudicated.length) return adjudicated.slice(0, 1);
  const current = labels.filter((l) => !l.adjudicated && has(l));
  if (annotator !== undefined) return current.filter((l) => l.annotator === annotator);
  const human = current.filter((l) => l.kind === 'human');
  if (human.length) return human;
  const source = current.filter((l) => l.kind === 'source');
  const own = source.filter((l) => l.annotator === SOURCE_ANNOTATOR);
  return own.length ? own : source;
}

export function decide(responseCount: number, labels: readonly HeadLabel[], annotator?: string): Decision {
  if (responseCount !== 2) return { skip: 'not_pairwise' };
  const deciding = decidingLabels(labels, (l) => effectiveChoice(l) !== null, annotator);
  return majority(deciding.map((l) => ({ choice: effectiveChoice(l)!, strength: l.strength })));
}

// ---------------------------------------------------------------------------------------------------
// Verdicts (items with one response)

export type VerdictDecision = { verdict: Verdict; skip?: undefined } | { skip: SkipReason };

export function decideVerdict(labels: readonly HeadLabel[], annotator?: string): VerdictDecision {
  const isVerdict = (l: HeadLabel) => l.choice === 'good' || l.choice === 'bad';
  const top = mostCommon(decidingLabels(labels, isVerdict, annotator), (l) => l.choice!);
  if (top === null) return { skip: 'unlabeled' };
  if (top === 'conflict') return { skip: 'conflict' };
  return { verdict: top.choice as Verdict };
}

// ---------------------------------------------------------------------------------------------------
// Rankings

/** Groups of tied response indexes, best first, each group sorted: two rankings that say the same are equal. */
export function normalRanking(ranking: readonly (readonly number[])[]): number[][] {
  return ranking.map((group) => [...group].sort((a, b) => a - b)).filter((group) => group.length > 0);
}

export type RankingDecision = { ranking: number[][]; skip?: undefined } | { skip: SkipReason };

/** The deciding ranking; a ranking whose responses are all tied is left out as a tie. */
export function decideRanking(labels: readonly HeadLabel[], annotator?: string): RankingDecision {
  const isRanking = (l: HeadLabel) => l.ranking !== null && l.ranking.flat().length >= 2;
  const top = mostCommon(
    decidingLabels(labels, isRanking, annotator).map((l) => normalRanking(l.ranking!)),
    (r) => JSON.stringify(r),
  );
  if (top === null) return { skip: 'unlabeled' };
  if (top === 'conflict') return { skip: 'conflict' };
  if (top.length < 2) return { skip: 'tie' };
  return { ranking: top };
}

export interface RankedPair {
  winner: number;
  loser: number;
  /** How many rank groups apart the two are (1 for neighbours): OpenRLHF's margin. */
  distance: number;
}

/**
 * The pairs a ranking gives: `all` pairs responses of every two different groups, `best-worst` the first
 * group's with the last's, `adjacent` each group's with the next one's. Tied responses never pair.
 */
export function rankingPairs(ranking: readonly (readonly number[])[], mode: 'all' | 'best-worst' | 'adjacent'): RankedPair[] {
  const pairs: RankedPair[] = [];
  const last = ranking.length - 1;
  for (let a = 0; a < last; a++) {
    for (let b = a + 1; b <= last; b++) {
      if (mode === 'best-worst' && !(a === 0 && b === last)) continue;
      if (mode === 'adjacent' && b !== a + 1) continue;
      for (const winner of ranking[a]!) for (const loser of ranking[b]!) pairs.push({ winner, loser, distance: b - a });
    }
  }
  return pairs;
}

// ---------------------------------------------------------------------------------------------------
// Step judgements (one response's chain)

export interface ChainJudgement {
  /** One per step: −1 / 0 / +1, or null (not rated). */
  ratings: (number | null)[];
  /** The first wrong step, −1 for "no error", null while not decided. */
  firstError: number | null;
  /** The segmentation version the ratings refer to; null when the label does not say. */
  version: number | null;
  tags?: Record<string, string[]>;
  outcome?: string;
  finishReason?: string;
  /** Who decided: a label's annotator, or several humans' consensus. */
  by: { kind: 'source' | 'human' | 'model' | 'consensus'; annotator: string | null; annotatorUuid: string | null; createdAt: string | null; adjudicated: boolean };
  timeMs?: number;
}

/** One response's judgement out of a label, or null when the label did not judge that response. */
export function chainOf(label: HeadLabel, letter: string): ChainJudgement | null {
  const body = readBody('steps', label.body);
  const ratings = body.steps?.[letter];
  const firstError = body.first_error?.[letter];
  if (!Array.isArray(ratings)) return null;
  // A finish reason alone is a judgement too (PRM800K's "bad_problem" before any step).
  if (!ratings.some((r) => r !== null) && typeof firstError !== 'number' && typeof body.finish_reason?.[letter] !== 'string') return null;
  return {
    ratings,
    firstError: typeof firstError === 'number' ? firstError : null,
    version: typeof body.segmentation?.[letter] === 'number' ? body.segmentation[letter]! : null,
    tags: body.step_tags?.[letter],
    outcome: body.outcome?.[letter],
    // Kept as the file gave it (the codec takes any value); a finish reason is a file's text.
    finishReason: body.finish_reason?.[letter] as string | undefined,
    by: { kind: label.kind, annotator: label.annotator, annotatorUuid: label.annotatorUuid ?? null, createdAt: label.createdAt ?? null, adjudicated: label.adjudicated === true },
    timeMs: typeof body.time_ms === 'number' ? body.time_ms : undefined,
  };
}

export type ChainDecision = { chain: ChainJudgement; skip?: undefined } | { skip: SkipReason };

/**
 * The judgement that decides one response's chain. Several humans: their judgements on the segmentation
 * version most of them rated (the newest on a tie) are combined step by step, reading from the first
 * step: each step takes the majority of the ratings given to it, until the majority rates a step −1 (the
 * consensus first error; the steps after it stay unrated). An even split on a step before that leaves
 * the chain out as a conflict. The outcome and finish reason are their majority, or none on a tie.
 */
export function decideChain(labels: readonly HeadLabel[], letter: string, annotator?: string): ChainDecision {
  const deciding = decidingLabels(labels, (l) => chainOf(l, letter) !== null, annotator);
  const chains = deciding.map((l) => chainOf(l, letter)!);
  if (chains.length === 0) return { skip: 'unlabeled' };
  if (chains.length === 1) return { chain: chains[0]! };
  // The version most of them rated; the newest of those on a tie.
  const byVersion = new Map<number | null, ChainJudgement[]>();
  for (const c of chains) byVersion.set(c.version, [...(byVersion.get(c.version) ?? []), c]);
  let group: ChainJudgement[] = [];
  let groupVersion: number | null = null;
  for (const [version, list] of byVersion) {
    if (list.length > group.length || (list.length === group.length && (version ?? 0) > (groupVersion ?? 0))) {
      group = list;
      groupVersion = version;
    }
  }
  if (group.length === 1) return { chain: group[0]! };
  const length = Math.max(...group.map((c) => c.ratings.length));
  const ratings: (number | null)[] = new Array(length).fill(null);
  let firstError: number | null = null;
  for (let i = 0; i < length; i++) {
    const votes = group.map((c) => c.ratings[i]).filter((r): r is number => typeof r === 'number');
    const top = mostCommon(votes, String);
    if (top === 'conflict') return { skip: 'conflict' };
    ratings[i] = top;
    if (top === -1) {
      firstError = i;
      break;
    }
  }
  if (firstError === null && ratings.every((r) => r !== null)) firstError = -1;
  const pick = (values: (string | undefined)[]) => {
    const top = mostCommon(values.filter((v): v is string => typeof v === 'string'), (v) => v);
    return top === null || top === 'conflict' ? undefined : top;
  };
  return {
    chain: {
      ratings,
      firstError,
      version: groupVersion,
      outcome: pick(group.map((c) => c.outcome)),
      finishReason: pick(group.map((c) => c.finishReason)),
      by: { kind: 'consensus', annotator: null, annotatorUuid: null, createdAt: null, adjudicated: false },
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// What an item gives a pairwise export, and an unpaired one

export interface DecidedIndexPair {
  winner: number;
  loser: number;
  /** A pairwise label's strength (null when none recorded one), or the rank distance of a ranking's pair. */
  margin: number | null;
}

export type PairsDecision = { pairs: DecidedIndexPair[]; ranked: boolean; skip?: undefined } | { skip: SkipReason };

/**
 * The pairs an item gives. A pair's own pairwise label decides first; a pair with none, and an item of
 * three or more responses, go by the deciding ranking (`mode` picks its pairs). An item of three or more
 * responses that nobody ranked, and an item with one response, are not pairwise.
 */
export function decidePairs(
  responseCount: number,
  pairwise: readonly HeadLabel[],
  rankings: readonly HeadLabel[],
  mode: 'all' | 'best-worst' | 'adjacent',
  annotator?: string,
): PairsDecision {
  if (responseCount === 2) {
    const d = decide(2, pairwise, annotator);
    if (!d.skip) return { pairs: [{ winner: d.winner, loser: 1 - d.winner, margin: d.margin }], ranked: false };
    if (d.skip !== 'unlabeled') return d;
  }
  if (responseCount < 2) return { skip: 'not_pairwise' };
  const r = decideRanking(rankings, annotator);
  if (r.skip) return r.skip === 'unlabeled' && responseCount > 2 ? { skip: 'not_pairwise' } : r;
  return { pairs: rankingPairs(r.ranking, mode).map((p) => ({ winner: p.winner, loser: p.loser, margin: p.distance })), ranked: true };
}

export type UnpairedDecision = { lines: { response: number; label: boolean }[]; skip?: undefined } | { skip: SkipReason };

/**
 * The unpaired (KTO) lines an item gives (docs/formats.md): a verdict its own value; a pairwise label the
 * chosen response true and the rejected false, both-bad two false, a tie nothing; a ranking (of a pair
 * nobody chose in, or of three or more responses) its best group true and its worst group false, the
 * groups between left out (they are better than some and worse than others).
 */
export function decideUnpaired(responseCount: number, heads: { verdict: readonly HeadLabel[]; pairwise: readonly HeadLabel[]; ranking: readonly HeadLabel[] }, annotator?: string): UnpairedDecision {
  if (responseCount === 1) {
    const v = decideVerdict(heads.verdict, annotator);
    return v.skip ? v : { lines: [{ response: 0, label: v.verdict === 'good' }] };
  }
  if (responseCount === 2) {
    const d = decide(2, heads.pairwise, annotator);
    if (!d.skip) return { lines: [{ response: d.winner, label: true }, { response: 1 - d.winner, label: false }] };
    if (d.skip === 'both_bad') return { lines: [{ response: 0, label: false }, { response: 1, label: false }] };
    if (d.skip !== 'unlabeled') return d;
  }
  if (responseCount < 1) return { skip: 'unlabeled' };
  const r = decideRanking(heads.ranking, annotator);
  if (r.skip) return r;
  const best = r.ranking[0]!;
  const worst = r.ranking[r.ranking.length - 1]!;
  return { lines: [...best.map((response) => ({ response, label: true })), ...worst.map((response) => ({ response, label: false }))] };
}
