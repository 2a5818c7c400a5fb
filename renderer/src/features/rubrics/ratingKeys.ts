// The keys while rating (and Tab to start), for useRatings: Tab / Shift+Tab move between criteria
// (a refused choice's focus holds for the Tab that follows), digits rate (a digit that may grow into a
// longer value waits a moment), y / n answer a yes / no criterion, - or x marks it not applicable,
// Backspace takes the rating back, a criterion's hotkey jumps to it, Esc leaves. Answers true when the
// key was the ratings'; the screen then does nothing more with it.
import type { MutableRefObject } from 'react';
import { responseLetter } from '../../../../shared/letters';
import type { RatingValue } from '../../../../shared/rubric';
import { digitOf } from '../../components/keys';
import type { Entry, ItemShape, Stop, Winner } from './ratingState';
import { digitInput, letterInput } from './scaleKeys';

/** How long digits that may grow into a longer value (a 1 that may become 10) wait for the next. */
export const DIGIT_WAIT_MS = 650;

export interface PendingDigits {
  stop: number;
  buffer: string;
  value: number | string | null;
}

export interface RatingKeyContext {
  entry: Entry | null;
  stops: Stop[];
  cursor: number | null;
  item: ItemShape | null;
  /** The stop a refused choice put the focus on, until the next key. */
  placedRef: MutableRefObject<number | null>;
  pendingDigits: PendingDigits | null;
  setPendingDigits(value: PendingDigits | null): void;
  digitTimer: MutableRefObject<ReturnType<typeof setTimeout> | null>;
  setCursorState(index: number | null): void;
  enter(fromEnd?: boolean): boolean;
  moveBy(delta: number, wrap?: boolean): void;
  setCursor(index: number | null): void;
  rate(letter: string, key: string, value: RatingValue | undefined): void;
  setWinner(key: string, winner: Winner | undefined): void;
  advance(): void;
  applyDigits(stopIndex: number, value: number | string | null): void;
}

export function handleRatingKey(event: KeyboardEvent, k: RatingKeyContext): boolean {
  const { placedRef, pendingDigits, setPendingDigits, digitTimer, setCursorState, enter, moveBy, setCursor, rate, setWinner, advance, applyDigits } = k;
  const e = k.entry;
  const list = k.stops;
  if (!e?.sheet.rubric || !list.length) return false;
  if (event.ctrlKey || event.metaKey) return false;
  // A dialog that keeps its own keys (the item's criteria editor): Tab there moves between its fields.
  if (event.target instanceof Element && event.target.closest('[data-own-keys]')) return false;
  const digit = digitOf(event);
  // Digits waiting for a second one (a 1 that may become 10): any other key settles them first. A
  // key that rates this criterion itself (n/a, clear) replaces them; any other takes them as typed.
  if (pendingDigits && (digit === null || event.shiftKey)) {
    if (digitTimer.current) clearTimeout(digitTimer.current);
    const waiting = pendingDigits;
    setPendingDigits(null);
    const replaces = ['-', 'x', 'X', 'Backspace', 'Delete'].includes(event.key);
    const stopNow = list[waiting.stop];
    if (!replaces && stopNow?.kind === 'rate' && waiting.value !== null) rate(stopNow.letter, stopNow.key, waiting.value);
  }
  const c = k.cursor;
  // A refused choice put the focus on the first criterion missing a value: the Tab that follows
  // (the annotator's way in to rate) stays there rather than moving past it.
  const placed = placedRef.current;
  placedRef.current = null;
  if (event.key === 'Tab' && !event.altKey) {
    event.preventDefault();
    if (c === null) enter(event.shiftKey);
    else if (!(placed === c && !event.shiftKey)) moveBy(event.shiftKey ? -1 : 1);
    return true;
  }
  if (c === null) return false;
  const stop = list[c]!;
  const criterion = e.sheet.rubric.criteria.find((x) => x.key === stop.key)!;
  const consume = () => {
    event.preventDefault();
    return true;
  };
  if (event.altKey) return false;
  switch (event.key) {
    case 'Escape':
      setCursor(null);
      return consume();
    case 'ArrowDown':
      moveBy(1, false);
      return consume();
    case 'ArrowUp':
      moveBy(-1, false);
      return consume();
    case 'Backspace':
    case 'Delete':
      if (stop.kind === 'rate') rate(stop.letter, stop.key, undefined);
      else setWinner(stop.key, undefined);
      return consume();
    case '-':
    case 'x':
    case 'X':
      if (stop.kind === 'rate') {
        rate(stop.letter, stop.key, null);
        advance();
      } else setWinner(stop.key, undefined);
      return consume();
  }
  if (stop.kind === 'winner') {
    const item = k.item;
    const left = item ? responseLetter(item.shownOrder[0]!) : 'A';
    const right = item ? responseLetter(item.shownOrder[1]!) : 'B';
    const pick: Winner | null = digit === 1 ? (left as Winner) : digit === 2 ? (right as Winner) : digit === 3 || event.key === '=' ? 'tie' : null;
    if (pick) {
      setWinner(stop.key, pick);
      advance();
      return consume();
    }
  } else if (digit !== null && !event.shiftKey) {
    const buffer = pendingDigits?.stop === c ? pendingDigits.buffer : '';
    const result = digitInput(criterion.scale, buffer, digit);
    if (digitTimer.current) clearTimeout(digitTimer.current);
    if (result.kind === 'value') {
      setPendingDigits(null);
      applyDigits(c, result.value);
    } else if (result.kind === 'pending') {
      setPendingDigits({ stop: c, buffer: result.buffer, value: result.value });
      digitTimer.current = setTimeout(() => {
        setPendingDigits(null);
        applyDigits(c, result.value);
      }, DIGIT_WAIT_MS);
    }
    return consume();
  } else {
    const yesNo = letterInput(criterion.scale, event.key);
    if (yesNo !== null) {
      rate(stop.letter, stop.key, yesNo);
      advance();
      return consume();
    }
  }
  // A criterion's hotkey jumps to it (in the same response; from the winners, in the left one).
  if (event.key.length === 1) {
    const folded = event.key.toLowerCase();
    const target = e.sheet.rubric.criteria.find((x) => x.hotkey?.toLowerCase() === folded);
    if (target) {
      const letter = stop.kind === 'rate' ? stop.letter : responseLetter(k.item?.shownOrder[0] ?? 0);
      const index = list.findIndex((s) => s.kind === 'rate' && s.letter === letter && s.key === target.key);
      if (index >= 0) {
        setPendingDigits(null);
        setCursorState(index);
      }
      return consume();
    }
  }
  // While rating, no other letter or digit acts on the screen (no choice, no leaving by accident);
  // ? (the shortcuts), g (guidelines), k (critique), r (rationale), Space and the arrows still do.
  if (digit !== null) return consume();
  if (event.key.length === 1 && !/[?gkr ]/i.test(event.key)) return consume();
  return false;
}
