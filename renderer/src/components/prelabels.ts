// Model pre-labels in screen terms. The host gives P(A better) and votes in source order (A = response
// 0); the annotator sees response shownOrder[0] on the left, so everything shown is mapped through it.
import { useCallback, useRef } from 'react';
import { toScreenChoice } from '../../../shared/choices';
import type { Choice } from '../../../shared/domain';
import type { ItemPrelabels, Vote } from '../../../shared/scoring';
import { api, errorMessage } from '../api';

export type ScreenVote = 'left' | 'right' | 'tie';
export type Agreement = 'agrees' | 'disagrees' | 'neutral';

export function screenVote(vote: Vote, order: number[]): ScreenVote {
  return vote === 'tie' ? 'tie' : (toScreenChoice(vote, order) as 'left' | 'right');
}

/** P(the left response is better) from P(A better). */
export function pLeft(pAB: number, order: number[]): number {
  return order[0] === 0 ? pAB : 1 - pAB;
}

/** How a model's vote compares with the annotator's choice; a tie or "both bad" on either side is neutral. */
export function agreement(choice: Choice | null | undefined, vote: Vote | null): Agreement {
  if (!choice || !vote || choice === 'tie' || choice === 'both_bad' || vote === 'tie') return 'neutral';
  return choice === vote ? 'agrees' : 'disagrees';
}

export interface Suggestion {
  /** Source order, as saved. */
  choice: Vote;
  screen: ScreenVote;
  /** P(the suggested side is better); for a tie, P(left better). */
  p: number;
  /** Models that voted; more than one means an ensemble. */
  models: number;
  spread: number | null;
  /** The models' votes split evenly, so the mean P decided. */
  split: boolean;
}

/** What "accept" would save: one model's vote, or the ensemble's majority (its mean P when the vote splits). */
export function suggestion(pre: ItemPrelabels | null, order: number[]): Suggestion | null {
  if (!pre) return null;
  const voting = pre.models.filter((m) => m.pAB !== null && m.vote !== null);
  if (voting.length === 0) return null;
  let choice: Vote;
  let pA: number;
  let split = false;
  if (voting.length === 1 || !pre.ensemble) {
    choice = voting[0]!.vote!;
    pA = voting[0]!.pAB!;
  } else {
    const e = pre.ensemble;
    pA = e.mean;
    choice = e.vote;
    if (choice === 'tie' && e.votes.A === e.votes.B && e.votes.A > 0) {
      split = true;
      choice = e.mean > 0.5 ? 'A' : e.mean < 0.5 ? 'B' : 'tie';
    }
  }
  const screen = screenVote(choice, order);
  const left = pLeft(pA, order);
  const p = screen === 'right' ? 1 - left : left;
  return { choice, screen, p, models: voting.length, spread: voting.length > 1 ? (pre.ensemble?.spread ?? null) : null, split };
}

export interface LoadedPrelabels {
  data: ItemPrelabels | null;
  error: string | null;
}

/**
 * Pre-labels by item, fetched once and shared by the screen and the prefetch of the next item. The
 * cache empties when `version` changes (a score job finished, so there may be new scores).
 */
export function usePrelabelCache(project: string, version: number): (itemId: number) => Promise<LoadedPrelabels> {
  const cache = useRef(new Map<number, Promise<LoadedPrelabels>>());
  const seen = useRef(version);
  return useCallback(
    (itemId: number) => {
      if (seen.current !== version) {
        seen.current = version;
        cache.current.clear();
      }
      let hit = cache.current.get(itemId);
      if (!hit) {
        hit = api.prelabels({ project, itemId }).then(
          (data) => ({ data, error: null }),
          (e: unknown) => {
            cache.current.delete(itemId); // a failure is not remembered: the next look tries again
            return { data: null, error: errorMessage(e) };
          },
        );
        cache.current.set(itemId, hit);
      }
      return hit;
    },
    [project, version],
  );
}

export function fmtP(p: number): string {
  return p.toFixed(2);
}
