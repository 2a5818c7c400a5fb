// Undo and redo for an editor (the rubric editor, an item's criteria): each edit records the state before
// it; edits of one field in quick succession (typing) are one step, so Ctrl+Z takes back a word, not a
// letter. Pure: the editor keeps the state and asks this what to show.

/** Edits of one field closer together than this are one step of undo. */
export const COALESCE_MS = 1200;
const KEEP = 300;

export class EditHistory<T> {
  past: T[] = [];
  future: T[] = [];
  private field = '';
  private at = 0;

  /** Records `current` before an edit of `field` ('' for an edit that is always its own step). */
  record(current: T, field: string, now = performance.now()): void {
    if (!(field && field === this.field && now - this.at < COALESCE_MS)) this.past.push(current);
    if (this.past.length > KEEP) this.past.shift();
    this.future = [];
    this.field = field;
    this.at = now;
  }

  /** The state before the last step (and `current` kept for redo), or null when there is none. */
  undo(current: T): T | null {
    const previous = this.past.pop();
    if (previous === undefined) return null;
    this.future.push(current);
    this.field = '';
    return previous;
  }

  /** The state the last undo took back (and `current` kept for undo), or null when there is none. */
  redo(current: T): T | null {
    const next = this.future.pop();
    if (next === undefined) return null;
    this.past.push(current);
    this.field = '';
    return next;
  }
}
