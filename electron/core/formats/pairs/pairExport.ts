// The pairwise pass of an export: each item's deciding label picks chosen and rejected, a page of items
// at a time. Text formats hold one prompt shape per file: plain text while every prompt written is
// single-turn, HH-style transcripts for all of them once one is a conversation. The pass starts out
// plain and, at the first conversation it would write, stops and asks to be run again as transcripts:
// a file with no conversation costs one pass, and a file is never half one shape, half the other.
// An item of three or more responses (or a pair nobody chose in) gives the pairs its deciding ranking
// implies (`rankingPairs`: all, best-worst or adjacent; tied responses never pair), with the distance
// between the two responses' rank groups as OpenRLHF's margin.
// With --from-ratings (opt-in), an item with ratings but no choice or ranking gives the pairs its weighted
// rubric totals rank (../base/rubricTotals.ts), the same way; responses whose totals are equal never pair, and
// an item whose totals are all equal is a tie: left out and counted, never guessed.
import type { RankingPairs } from '../../../../shared/formatNames';
import type { Db } from '../../store/db';
import { headLoader, type HeadLabel } from '../../store/labels';
import { needsTranscript } from '../content';
import { criteriaLoader } from '../ratings/judgedExport';
import { forEachPage, itemPass, type ItemPass } from '../base/itemPass';
import type { FormatWriter } from '../descriptor';
import type { PairEncoder } from './pair';
import { decidePairs, rankingPairs, type PairsDecision } from '../base/resolve';
import { decideTotals } from '../base/resolveRatings';
import { totalsRanking } from '../base/rubricTotals';
import type { DecidedPair } from '../types';

const NO_LABELS: HeadLabel[] = [];

export interface PairPass extends ItemPass {
  format: string;
  /** The format's line for a decided pair. */
  encode: PairEncoder;
  /** The prompt is one string: the file follows the one-shape rule (chat and HH have one shape anyway). */
  textPrompt: boolean;
  /** Which pairs a ranking gives. */
  rankingPairs: RankingPairs;
  /** Items with ratings but no choice give pairs from their weighted rubric totals. */
  fromRatings: boolean;
}

/** Writes the decided pairs; 'needs-transcripts' when a plain-text pass met a conversation (nothing is final then). */
export async function writePairs(db: Db, pass: PairPass): Promise<'done' | 'needs-transcripts'> {
  const encode = pass.encode;
  const plainOnly = pass.textPrompt && pass.notes.promptShape === 'text';
  const loadHeads = headLoader(db, pass.projectId, pass.annotator);
  const loadRankings = headLoader(db, pass.projectId, pass.annotator, 'ranking');
  // Ratings: for pairs from totals, and for the scores ultrafeedback-binarized writes.
  const withRatings = pass.fromRatings || pass.format === 'ultrafeedback-binarized';
  const loadRatings = withRatings ? headLoader(db, pass.projectId, undefined, 'rubric', true) : null;
  const criteria = criteriaLoader(db, pass.projectId);
  let rankedItems = 0;
  let rankedPairs = 0;
  const fromRatings = { items: 0, pairs: 0, ties: 0 };
  const done = await forEachPage(db, pass, ['pairwise', 'ranking', 'rubric'], async (items, from, to) => {
    const heads = loadHeads(from, to);
    const rankings = loadRankings(from, to);
    const ratings = loadRatings?.(from, to);
    for (const item of items) {
      let decision: PairsDecision = decidePairs(item.responses.length, heads.get(item.id) ?? NO_LABELS, rankings.get(item.id) ?? NO_LABELS, pass.rankingPairs, pass.annotator);
      const totals = ratings ? decideTotals(item.responses.length, ratings.get(item.id) ?? NO_LABELS, pass.annotator, (r, v) => criteria(item, r, v)) : null;
      if (decision.skip && pass.fromRatings && (decision.skip === 'unlabeled' || decision.skip === 'not_pairwise') && totals && !totals.skip) {
        const ranking = totalsRanking(totals.totals);
        if (ranking && ranking.length === 1) {
          fromRatings.ties++;
          decision = { skip: 'tie' };
        } else if (ranking) {
          const pairs = rankingPairs(ranking, pass.rankingPairs).map((p) => ({ winner: p.winner, loser: p.loser, margin: p.distance }));
          fromRatings.items++;
          fromRatings.pairs += pairs.length;
          decision = { pairs, ranked: false };
        }
      }
      if (decision.skip) {
        pass.skipped[decision.skip]++;
        continue;
      }
      if (plainOnly && needsTranscript(item.prompt)) return false;
      if (decision.ranked) {
        rankedItems++;
        rankedPairs += decision.pairs.length;
      }
      for (const p of decision.pairs) {
        const pair: DecidedPair = { item, prompt: item.prompt, chosen: item.responses[p.winner]!, rejected: item.responses[p.loser]!, margin: p.margin };
        if (totals && !totals.skip) pair.scores = { chosen: totals.scores[p.winner]!, rejected: totals.scores[p.loser]! };
        const pending = pass.writer.write(encode(pair, pass.notes));
        if (pending) await pending;
      }
    }
  });
  if (!done) return 'needs-transcripts';
  if (rankedItems) {
    const margin = pass.format === 'openrlhf' ? '; each pair\'s margin is how many rank groups apart its two responses are' : '';
    pass.notes.extra.push(`${rankedItems} ranked item(s) gave ${rankedPairs} pair(s) (--ranking-pairs ${pass.rankingPairs}; tied responses never pair${margin})`);
  }
  if (fromRatings.items) {
    pass.notes.extra.push(
      `${fromRatings.items} item(s) with ratings but no choice gave ${fromRatings.pairs} pair(s) from their weighted rubric totals (--from-ratings, --ranking-pairs ${pass.rankingPairs}; responses with equal totals never pair)`,
    );
  }
  if (fromRatings.ties) pass.notes.extra.push(`${fromRatings.ties} item(s) with ratings but no choice were left out as ties: their responses' weighted rubric totals are equal (a tie is not guessed)`);
  return 'done';
}

/**
 * The pair formats' writer: the pass plain first, and again as transcripts once a conversation comes
 * after plain prompts were written (a file is never half one shape, half the other).
 */
export function pairWriter(encode: PairEncoder, textPrompt: boolean): FormatWriter {
  return {
    async write(run) {
      const pass = () => ({ ...itemPass(run), format: run.format, encode, textPrompt, rankingPairs: run.opts.rankingPairs ?? 'all', fromRatings: run.opts.fromRatings ?? false });
      if ((await writePairs(run.db, pass())) === 'needs-transcripts') {
        await run.restart('transcript');
        await writePairs(run.db, pass());
      }
    },
  };
}
