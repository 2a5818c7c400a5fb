// What a judging screen (compare, verdict) adds under the item's responses: the rubric ratings and the
// critique boxes, each saving through its own outbox, and the one undo list the screen keeps for its
// judgements (a choice, a verdict) and the ratings' changes.
import { useCallback, useRef } from 'react';
import { useCritiquesOutbox } from '../critiques/outbox';
import { useCritiques } from '../critiques/useCritiques';
import { useRatingsOutbox } from './outbox';
import { useRatings, type ItemShape } from './useRatings';

/** One undo list for the screen: a judgement (undone by the screen's loop), or a change to an item's ratings. */
type UndoEntry = { kind: 'judgement' } | { kind: 'rating'; itemId: number };

export function useItemNotes({ project, annotator, item, sideName }: { project: string; annotator: string; item: ItemShape | null; sideName(letter: string): string }) {
  const undoList = useRef<UndoEntry[]>([]);
  const ratingsOutbox = useRatingsOutbox(project, annotator);
  const critiquesOutbox = useCritiquesOutbox(project, annotator);
  const ratings = useRatings({ project, annotator, item, outbox: ratingsOutbox, sideName, onChange: (itemId) => undoList.current.push({ kind: 'rating', itemId }) });
  const critiques = useCritiques({ project, annotator, item, outbox: critiquesOutbox });

  /**
   * Before a judgement ('choose') or the next item ('next'): false while a required criterion (one started
   * here, for 'next') has no value, and the ratings say which; else what is typed is saved.
   */
  const mayLeave = useCallback(
    (kind: 'choose' | 'next') => {
      if (!ratings.mayLeave(kind)) return false;
      critiques.flush();
      return true;
    },
    [ratings, critiques],
  );
  /** After a judgement was saved: it goes on the undo list. */
  const judged = useCallback(() => {
    undoList.current.push({ kind: 'judgement' });
  }, []);
  /** Saves what is typed (before the previous item). */
  const flush = useCallback(() => {
    ratings.flush();
    critiques.flush();
  }, [ratings, critiques]);
  /**
   * Ctrl+Z: takes back the last change to the shown item's ratings when that was the last thing done
   * (ratings of an item no longer shown are passed over). False: the screen undoes its last judgement.
   */
  const undoRating = useCallback(
    (shownId: number | undefined): boolean => {
      for (;;) {
        const last = undoList.current.pop();
        if (last?.kind !== 'rating') return false;
        if (last.itemId !== shownId) continue;
        if (ratings.undo(last.itemId)) return true;
      }
    },
    [ratings],
  );

  return { ratings, critiques, mayLeave, judged, flush, undoRating };
}
