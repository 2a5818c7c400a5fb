// Rubric ratings under the responses of the item on screen (compare and verdict screens). The item is
// rated under what getRatingSheet names: its own criteria, else the project's rubric in force, at the
// version shown, and a save names that version. Rating is a mode the annotator enters and leaves on
// purpose: Tab enters it (at the first criterion not rated yet), Tab / Shift+Tab (or ↓ / ↑) move from
// criterion to criterion across the responses, then to the per-criterion winners of a pair; while a
// criterion has the focus, digits rate it, y / n answer a yes / no criterion, - or x marks it not
// applicable, Backspace takes the rating back, a criterion's hotkey jumps to it, and Esc leaves. Outside
// the mode the screen's own keys (1–4 choose) are untouched.
//
// Ratings save through the outbox a moment after the last change, and at once when the annotator leaves
// the ratings or the item, provided every required criterion has a value (not applicable counts); until
// then nothing is saved and the screen says what is missing. Each item's sheet keeps its own undo list.
import { useCallback, useEffect, useLayoutEffect, useReducer, useRef, useState } from 'react';
import type { RatingSheet } from '../../../../shared/api';
import { responseLetter } from '../../../../shared/letters';
import { uuidv7 } from '../../../../shared/ids';
import type { RatingValue } from '../../../../shared/rubric';
import { api, errorMessage } from '../../api';
import { useItemLoads } from '../../components/itemLoads';
import { walkOrder } from './criteria';
import type { RatingsOutbox } from './outbox';
import { EMPTY, initialEntry, isEmpty, lettersOf, missingRequired, stateText, type Entry, type ItemShape, type RatingState, type Stop, type Winner } from './ratingState';
import { handleRatingKey } from './ratingKeys';

export { lettersOf, missingRequired, type ItemShape, type Missing, type RatingState, type Stop, type Winner } from './ratingState';

const SAVE_AFTER_MS = 700;
const HISTORY_MAX = 200;

export function useRatings(opts: {
  project: string;
  annotator: string;
  item: ItemShape | null;
  outbox: RatingsOutbox;
  /** The screen's name for a response: "Left", "Right", or "the response". */
  sideName(letter: string): string;
  /** Told about each change (the screen keeps one undo list for choices and ratings). */
  onChange?(itemId: number): void;
}) {
  const { project, annotator, item, outbox } = opts;
  const entries = useRef(new Map<number, Entry>());
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());
  const [kept, setEntry] = useState<Entry | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [cursor, setCursorState] = useState<number | null>(null);
  /** Digits typed on a stop that may still grow (a 1 that may become 10), and the value they stand for now. */
  const [pendingDigits, setPendingDigits] = useState<{ stop: number; buffer: string; value: number | string | null } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const digitTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const optsRef = useRef(opts);
  optsRef.current = opts;
  const { fetchItem: fetchSheet, prefetch, forget: forgetSheet, peek: peekSheet } = useItemLoads<RatingSheet>(project, annotator, (ask) => api.getRatingSheet(ask));
  /** The item's entry from a sheet already in (the next item's, loaded ahead), kept with the others. */
  const entryFrom = (it: ItemShape, sheet: RatingSheet): Entry => {
    const waiting = outbox.pendingFor(it.id);
    const pending = waiting
      ? { id: waiting.id ?? '', createdAt: '', rubric: waiting.rubric, version: waiting.version, ratings: waiting.ratings, criterionWinner: waiting.criterionWinner ?? {} }
      : null;
    const made = entries.current.get(it.id) ?? initialEntry(it, sheet, pending);
    entries.current.set(it.id, made);
    return made;
  };
  // A new item's entry as soon as it can be had (kept, or its sheet loaded ahead): drawn in the item's own
  // render, not in a second render of the whole screen after it.
  let entry = kept;
  if (item && kept?.itemId !== item.id) {
    const sheet = entries.current.has(item.id) ? null : peekSheet(item.id);
    entry = entries.current.get(item.id) ?? (sheet ? entryFrom(item, sheet) : null);
  }
  const entryRef = useRef<Entry | null>(null);
  entryRef.current = entry;
  const cursorRef = useRef<number | null>(null);
  cursorRef.current = cursor;
  /** The stop a refused choice put the focus on, until the next key. */
  const placedRef = useRef<number | null>(null);


  const letters = item ? lettersOf(item.responses) : [];
  const screenLetters = item ? item.shownOrder.map((i) => responseLetter(i)) : [];
  const criteria = walkOrder(entry?.sheet.rubric?.criteria ?? []);
  const stops: Stop[] = [];
  if (entry?.sheet.rubric && item) {
    for (const letter of screenLetters) for (const c of criteria) stops.push({ kind: 'rate', letter, key: c.key });
    if (item.responses === 2) for (const c of criteria) stops.push({ kind: 'winner', key: c.key });
  }
  const stopsRef = useRef(stops);
  stopsRef.current = stops;

  /** Saves an item's sheet when it changed and every required criterion has a value; says what is missing otherwise. */
  const saveEntry = useCallback(
    (e: Entry, shape: { responses: number; shownOrder: number[] }) => {
      const timer = timers.current.get(e.itemId);
      if (timer) clearTimeout(timer);
      timers.current.delete(e.itemId);
      const rubric = e.sheet.rubric;
      if (!rubric) return true;
      const ls = lettersOf(shape.responses);
      const text = stateText(e.state, rubric.criteria, ls);
      if (text === e.saved) return true;
      if (e.saved === null && isEmpty(e.state)) return true;
      if (missingRequired(e, ls).length) return false;
      const parsed = JSON.parse(text) as { ratings: RatingState['ratings']; winners: RatingState['winners'] };
      const input = {
        project,
        annotator,
        itemId: e.itemId,
        id: uuidv7(),
        rubric: rubric.rubric,
        version: rubric.version,
        ratings: parsed.ratings,
        ...(Object.keys(parsed.winners).length ? { criterionWinner: parsed.winners } : {}),
        shownOrder: shape.shownOrder,
        timeMs: Math.max(0, Math.round(performance.now() - e.shownAt)),
      };
      e.saved = text;
      const name = rubric.rubric === 'item' ? 'item criteria' : rubric.rubric;
      void outbox.save(input, `Ratings (${name} v${rubric.version})`, e.itemNumber).catch(() => undefined);
      return true;
    },
    [project, annotator, outbox],
  );

  const itemRef = useRef(item);
  itemRef.current = item;
  const shapeOf = useCallback((itemId: number) => {
    const it = itemRef.current;
    return it && it.id === itemId ? it : null;
  }, []);

  /** Saves the shown item's sheet now (when it may be saved). */
  const flush = useCallback(() => {
    const e = entryRef.current;
    const it = itemRef.current;
    if (e && it && e.itemId === it.id) saveEntry(e, it);
  }, [saveEntry]);

  // The item changed: save what the last one left, then load this one's sheet.
  const itemKey = item ? `${item.id}:${item.responses}:${item.shownOrder.join(',')}` : '';
  const resets = useRef({ pendingDigits, notice, loadError });
  resets.current = { pendingDigits, notice, loadError };
  useEffect(() => {
    // Each set only when needed: a state set to what it holds still renders the whole screen again right
    // after the item's own render.
    if (cursorRef.current !== null) setCursorState(null);
    if (resets.current.pendingDigits !== null) setPendingDigits(null);
    if (resets.current.notice !== null) setNotice(null);
    if (resets.current.loadError !== null) setLoadError(null);
    const it = itemRef.current;
    if (!it) {
      setEntry(null);
      return;
    }
    const known = entries.current.get(it.id);
    if (known) {
      known.shownAt = performance.now();
      // Drawn already when this render found it (no second render); else now.
      if (entryRef.current !== known) setEntry(known);
      return;
    }
    let live = true;
    fetchSheet(it.id).then(
      (sheet) => {
        if (!live) return;
        setEntry(entryFrom(it, sheet));
      },
      (error: unknown) => live && setLoadError(errorMessage(error)),
    );
    return () => {
      live = false;
      const left = entries.current.get(it.id);
      if (left) saveEntry(left, it);
    };
    // itemKey stands for the item's identity and shape (the item object itself is new on every answer).
  }, [itemKey, fetchSheet]);

  // The focus follows the cursor; leaving the criteria (a click elsewhere) leaves the mode.
  useLayoutEffect(() => {
    if (cursor === null) return;
    const el = document.querySelector<HTMLElement>(`[data-stop="${cursor}"]`);
    if (el && !el.contains(document.activeElement)) el.focus({ preventScroll: true });
    el?.scrollIntoView({ block: 'nearest' });
  }, [cursor, entry]);
  useEffect(() => {
    const onFocus = (event: FocusEvent) => {
      if (cursorRef.current === null) return;
      const target = event.target as HTMLElement | null;
      const stop = target?.closest?.('[data-stop]');
      if (stop) setCursorState(Number(stop.getAttribute('data-stop')));
      else {
        setCursorState(null);
        flush();
      }
    };
    document.addEventListener('focusin', onFocus);
    return () => document.removeEventListener('focusin', onFocus);
  }, [flush]);

  const setCursor = useCallback(
    (next: number | null) => {
      setPendingDigits(null);
      if (next === null) {
        const el = document.activeElement as HTMLElement | null;
        if (el?.closest('[data-stop]')) el.blur();
        flush();
      }
      setCursorState(next);
    },
    [flush],
  );

  const change = useCallback(
    (mutate: (state: RatingState) => RatingState) => {
      const e = entryRef.current;
      const it = itemRef.current;
      if (!e || !it || e.itemId !== it.id) return;
      const next = mutate(e.state);
      e.history.push(e.state);
      if (e.history.length > HISTORY_MAX) e.history.shift();
      e.state = next;
      setNotice(null);
      rerender();
      optsRef.current.onChange?.(e.itemId);
      const timer = timers.current.get(e.itemId);
      if (timer) clearTimeout(timer);
      timers.current.set(
        e.itemId,
        setTimeout(() => {
          const shape = shapeOf(e.itemId);
          if (shape) saveEntry(e, shape);
        }, SAVE_AFTER_MS),
      );
    },
    [saveEntry, shapeOf],
  );

  const rate = useCallback(
    (letter: string, key: string, value: RatingValue | undefined) =>
      change((s) => {
        const values = { ...(s.ratings[letter] ?? {}) };
        if (value === undefined) delete values[key];
        else values[key] = value;
        return { ...s, ratings: { ...s.ratings, [letter]: values } };
      }),
    [change],
  );

  const setWinner = useCallback(
    (key: string, winner: Winner | undefined) =>
      change((s) => {
        const winners = { ...s.winners };
        if (winner === undefined) delete winners[key];
        else winners[key] = winner;
        return { ...s, winners };
      }),
    [change],
  );

  /** Takes the last change to this item's ratings back; false when there is none. */
  const undo = useCallback(
    (itemId: number): boolean => {
      const e = entries.current.get(itemId);
      const previous = e?.history.pop();
      if (!e || !previous) return false;
      e.state = previous;
      rerender();
      const shape = shapeOf(itemId);
      if (shape) saveEntry(e, shape);
      return true;
    },
    [saveEntry, shapeOf],
  );

  const moveBy = useCallback((delta: number, wrap = true) => {
    const count = stopsRef.current.length;
    if (!count) return;
    setPendingDigits(null);
    setCursorState((c) => {
      if (c === null) return delta > 0 ? 0 : count - 1;
      const next = c + delta;
      if (wrap) return (next + count) % count;
      return Math.max(0, Math.min(count - 1, next));
    });
  }, []);

  /** Enters the ratings: at the first criterion not rated yet (Shift: the last stop). */
  const enter = useCallback(
    (fromEnd = false) => {
      const e = entryRef.current;
      const list = stopsRef.current;
      if (!e || !list.length) return false;
      if (fromEnd) {
        setCursorState(list.length - 1);
        return true;
      }
      const first = list.findIndex((s) => s.kind === 'rate' && e.state.ratings[s.letter]?.[s.key] === undefined);
      setCursorState(first >= 0 ? first : 0);
      return true;
    },
    [],
  );

  /** After a rating, the next stop (never past the last: the annotator leaves with Esc). */
  const advance = useCallback(() => moveBy(1, false), [moveBy]);

  const applyDigits = useCallback(
    (stopIndex: number, value: number | string | null) => {
      const stop = stopsRef.current[stopIndex];
      if (!stop || stop.kind !== 'rate' || value === null) return;
      rate(stop.letter, stop.key, value);
      if (cursorRef.current === stopIndex) advance();
    },
    [rate, advance],
  );

  /**
   * The keys while rating (and Tab to start). Returns true when the key was the ratings'; the screen then
   * does nothing more with it.
   */
  const handleKey = useCallback(
    (event: KeyboardEvent): boolean =>
      handleRatingKey(event, {
        entry: entryRef.current,
        stops: stopsRef.current,
        cursor: cursorRef.current,
        item: itemRef.current,
        placedRef,
        pendingDigits,
        setPendingDigits,
        digitTimer,
        setCursorState,
        enter,
        moveBy,
        setCursor,
        rate,
        setWinner,
        advance,
        applyDigits,
      }),
    [enter, moveBy, setCursor, rate, setWinner, advance, applyDigits, pendingDigits],
  );

  const missing = entry && item && entry.itemId === item.id ? missingRequired(entry, letters) : [];

  /**
   * Whether the annotator may move on from the item (a choice, or the next item): not while a required
   * criterion has no value and anything was rated (or a choice is being made). Says what is missing and
   * puts the focus on the first of it.
   */
  const mayLeave = useCallback(
    (kind: 'choose' | 'next'): boolean => {
      const e = entryRef.current;
      const it = itemRef.current;
      if (!e?.sheet.rubric || !it || e.itemId !== it.id) return true;
      const ls = lettersOf(it.responses);
      const gaps = missingRequired(e, ls);
      if (!gaps.length || (kind === 'next' && isEmpty(e.state) && e.saved === null)) {
        saveEntry(e, it);
        return true;
      }
      const { sideName } = optsRef.current;
      const order = it.shownOrder.map((i) => responseLetter(i));
      const words =
        ls.length === 1
          ? `: ${gaps[0]!.keys.join(', ')}`
          : ` — ${[...gaps]
              .sort((a, b) => order.indexOf(a.letter) - order.indexOf(b.letter))
              .map((g) => `${sideName(g.letter)}: ${g.keys.join(', ')}`)
              .join('; ')}`;
      setNotice(`${kind === 'choose' ? 'Not saved — rate' : 'Rate'} the required criteria first. Missing${words}. (- marks one not applicable.)`);
      const first = stopsRef.current.findIndex((s) => s.kind === 'rate' && gaps.some((g) => g.letter === s.letter && g.keys.includes(s.key)));
      if (first >= 0) {
        setCursorState(first);
        placedRef.current = first;
      }
      return false;
    },
    [saveEntry],
  );

  /**
   * Reads an item's sheet again (its criteria changed: it may now be rated under its own, or their next
   * version). What was rated is saved first where it may be; values of unchanged criteria carry over.
   */
  const reload = useCallback(
    async (itemId: number) => {
      flush();
      forgetSheet(itemId);
      const sheet = await fetchSheet(itemId);
      const it = itemRef.current;
      if (!it || it.id !== itemId) return;
      const timer = timers.current.get(itemId);
      if (timer) clearTimeout(timer);
      timers.current.delete(itemId);
      const waiting = outbox.pendingFor(itemId);
      const pending = waiting
        ? { id: waiting.id ?? '', createdAt: '', rubric: waiting.rubric, version: waiting.version, ratings: waiting.ratings, criterionWinner: waiting.criterionWinner ?? {} }
        : null;
      const made = initialEntry(it, sheet, pending);
      entries.current.set(itemId, made);
      setCursorState(null);
      setPendingDigits(null);
      setNotice(null);
      setLoadError(null);
      setEntry(made);
    },
    [flush, forgetSheet, fetchSheet, outbox],
  );

  const shown = entry && item && entry.itemId === item.id ? entry : null;
  return {
    project,
    /** The item on screen (its id and its number, 1-based), while one is. */
    itemId: item?.id ?? null,
    itemNumber: item ? item.position : null,
    reload,
    sheet: shown?.sheet ?? null,
    rubric: shown?.sheet.rubric ?? null,
    state: shown?.state ?? EMPTY,
    /** Whether the values on screen are saved under the version shown (false: changed, or carried over). */
    savedHere: shown ? shown.saved !== null && shown.saved === stateText(shown.state, criteria, letters) : false,
    loading: Boolean(item) && !shown && !loadError,
    loadError,
    stops,
    cursor,
    pendingDigits: pendingDigits && pendingDigits.stop === cursor ? pendingDigits.buffer : null,
    setCursor,
    enter,
    missing,
    notice,
    clearNotice: () => setNotice(null),
    handleKey,
    rate,
    setWinner,
    undo,
    mayLeave,
    flush,
    prefetch,
    status: outbox.status,
    retryNow: outbox.retryNow,
  };
}

export type Ratings = ReturnType<typeof useRatings>;
