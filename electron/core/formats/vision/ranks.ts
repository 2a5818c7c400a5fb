// Rankings as the vision benchmarks write them, and back: VL-RewardBench's `human_ranking` gives each
// response its rank (0 = best; [1, 0] means the second response is better), Arbiter keeps a ranking as
// groups of tied responses, best first ([[1], [0]]).
import { RecordError, type SourceJudgement } from '../types';

/** Per-response ranks (0 best, equal ranks tied) as groups of response indexes, best first. */
export function ranksToGroups(ranks: readonly number[]): number[][] {
  const values = [...new Set(ranks)].sort((a, b) => a - b);
  return values.map((v) => ranks.flatMap((r, i) => (r === v ? [i] : [])));
}

/** Groups (best first) as one rank per response: a response no group names ranks after every group. */
export function groupsToRanks(groups: readonly (readonly number[])[], responses: number): number[] {
  const ranks = new Array<number>(responses).fill(groups.length);
  groups.forEach((group, rank) => {
    for (const index of group) if (index >= 0 && index < responses) ranks[index] = rank;
  });
  return ranks;
}

/** A file's ranks as the `source` judgement: a pairwise choice for two responses (a tie when equal), a ranking for more. */
export function rankJudgement(ranks: readonly number[]): SourceJudgement {
  const groups = ranksToGroups(ranks);
  if (ranks.length === 2) return { task: 'pairwise', choice: groups.length === 1 ? 'tie' : groups[0]![0] === 0 ? 'A' : 'B', body: {} };
  return { task: 'ranking', ranking: groups, body: {} };
}

/** Checks a rank list: whole numbers ≥ 0, one per response. */
export function checkRanks(value: unknown, responses: number, field: string): number[] {
  if (!Array.isArray(value)) throw new RecordError(`${field}: expected a list of ranks (0 = best), got ${value === null ? 'null' : typeof value}`);
  if (value.length !== responses)
    throw new RecordError(`${field}: ${value.length} rank${value.length === 1 ? '' : 's'} for ${responses} responses; give one rank per response (0 = best)`);
  value.forEach((rank, i) => {
    if (typeof rank !== 'number' || !Number.isInteger(rank) || rank < 0) throw new RecordError(`${field}[${i}]: expected a whole number ≥ 0 (a rank, 0 = best), got ${JSON.stringify(rank)}`);
  });
  return value as number[];
}
