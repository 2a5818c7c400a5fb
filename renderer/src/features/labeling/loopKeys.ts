// The keys Compare, Rank and Verdict share (/work/shared/UX.md's conventions): Ctrl+Z undoes, → / ← move
// between the screen's items, r focuses the rationale, f folds the prompt, PageUp / PageDown / Space scroll
// what is being read, Shift+Esc leaves a saved view's queue for the whole one. A screen hears its own keys
// (the decision's) after these.
import { pageDirection } from '../../components/keys';

export interface LoopKeyHandlers {
  undo(): void;
  next(): void;
  previous(): void;
  rationale(): void;
  fold(): void;
  page(direction: 1 | -1): void;
  /** Walking a saved view: back to the screen's whole queue. */
  leaveView?: () => void;
}

/**
 * 'used' for a key these handled (its default prevented), 'modifier' for another Ctrl / ⌘ chord (the
 * screen's keys leave it alone), null for a key the screen may use.
 */
export function loopKey(event: KeyboardEvent, on: LoopKeyHandlers): 'used' | 'modifier' | null {
  const mod = event.ctrlKey || event.metaKey;
  if (mod && !event.altKey && !event.shiftKey && event.code === 'KeyZ') {
    event.preventDefault();
    on.undo();
    return 'used';
  }
  if (mod) return 'modifier';
  const page = pageDirection(event);
  if (page !== null) {
    event.preventDefault();
    on.page(page);
    return 'used';
  }
  if (event.altKey) return null;
  if (event.key === 'Escape' && event.shiftKey && on.leaveView) {
    event.preventDefault();
    on.leaveView();
    return 'used';
  }
  switch (event.key) {
    case 'ArrowRight':
      event.preventDefault();
      on.next();
      return 'used';
    case 'ArrowLeft':
      event.preventDefault();
      on.previous();
      return 'used';
    case 'r':
    case 'R':
      event.preventDefault();
      on.rationale();
      return 'used';
    case 'f':
      on.fold();
      return 'used';
  }
  return null;
}
