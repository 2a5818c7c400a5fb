// Critique boxes of the item on screen (compare and verdict screens): one text per response and the
// "right verdict, wrong reasoning" flag. A critique the item came with (a file's, a model's) fills the
// boxes when this annotator has none yet; it is saved as theirs only once they change something, and the
// original stays as it was (the host names it in the annotator's revision). Saves go through the outbox a
// moment after typing stops, and at once when the box loses the focus or the item changes.
import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import type { CritiqueView } from '../../../../shared/api';
import { uuidv7 } from '../../../../shared/ids';
import { api, errorMessage } from '../../api';
import { useItemLoads } from '../../components/itemLoads';
import { lettersOf, type ItemShape } from '../../components/itemShape';
import type { useCritiquesOutbox } from './outbox';

type Outbox = ReturnType<typeof useCritiquesOutbox>;

interface Entry {
  itemId: number;
  itemNumber: number;
  texts: Record<string, string>;
  wrong: Record<string, boolean>;
  original: CritiqueView | null;
  /** The state as last saved (or loaded), as text. */
  saved: string;
  shownAt: number;
}

const SAVE_AFTER_MS = 1000;

function stateText(texts: Record<string, string>, wrong: Record<string, boolean>, letters: string[]): string {
  return JSON.stringify(letters.map((l) => [(texts[l] ?? '').trim() ? texts[l] : '', Boolean(wrong[l])]));
}

type Loaded = { mine: CritiqueView | null; original: CritiqueView | null };

export function useCritiques({ project, annotator, item, outbox }: { project: string; annotator: string; item: ItemShape | null; outbox: Outbox }) {
  const entries = useRef(new Map<number, Entry>());
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());
  const [kept, setEntry] = useState<Entry | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const itemRef = useRef(item);
  itemRef.current = item;

  const { fetchItem: fetchCritiques, prefetch, peek } = useItemLoads<Loaded>(project, annotator, (ask) => api.getCritiques(ask));
  /** The item's entry from its critiques as loaded, kept with the others. */
  const entryFrom = (it: ItemShape, { mine, original }: Loaded): Entry => {
    const known = entries.current.get(it.id);
    if (known) return known;
    const letters = lettersOf(it.responses);
    const waiting = outbox.pendingFor(it.id);
    const texts = waiting ? { ...waiting.critiques } : mine ? { ...mine.critique } : original ? { ...original.critique } : {};
    const wrong = waiting ? { ...(waiting.wrongReasoning ?? {}) } : mine ? { ...mine.wrongReasoning } : {};
    const made: Entry = { itemId: it.id, itemNumber: it.position, texts, wrong, original, saved: waiting ? '' : stateText(texts, wrong, letters), shownAt: performance.now() };
    entries.current.set(it.id, made);
    return made;
  };
  // A new item's entry as soon as it can be had (kept, or its critiques loaded ahead): drawn in the item's
  // own render, not in a second render of the whole screen after it.
  let entry = kept;
  if (item && kept?.itemId !== item.id) {
    const loaded = entries.current.has(item.id) ? undefined : peek(item.id);
    entry = entries.current.get(item.id) ?? (loaded ? entryFrom(item, loaded) : null);
  }
  const entryRef = useRef(entry);
  entryRef.current = entry;

  const save = useCallback(
    (e: Entry, responses: number) => {
      const timer = timers.current.get(e.itemId);
      if (timer) clearTimeout(timer);
      timers.current.delete(e.itemId);
      const letters = lettersOf(responses);
      const text = stateText(e.texts, e.wrong, letters);
      if (text === e.saved) return;
      e.saved = text;
      const critiques: Record<string, string> = {};
      for (const l of letters) critiques[l] = e.texts[l] ?? '';
      const flags = letters.filter((l) => e.wrong[l]);
      void outbox
        .save(
          {
            project,
            annotator,
            itemId: e.itemId,
            id: uuidv7(),
            critiques,
            ...(flags.length ? { wrongReasoning: Object.fromEntries(flags.map((l) => [l, true])) } : {}),
            timeMs: Math.max(0, Math.round(performance.now() - e.shownAt)),
          },
          e.original ? 'Critique (edit of the imported one)' : 'Critique',
          e.itemNumber,
        )
        .catch(() => undefined);
    },
    [project, annotator, outbox],
  );

  const itemKey = item ? `${item.id}:${item.responses}` : '';
  const hadError = useRef(loadError);
  hadError.current = loadError;
  useEffect(() => {
    // Set only when needed: a state set to what it holds still renders the whole screen again.
    if (hadError.current !== null) setLoadError(null);
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
    fetchCritiques(it.id).then(
      (loaded) => {
        if (live) setEntry(entryFrom(it, loaded));
      },
      (error: unknown) => live && setLoadError(errorMessage(error)),
    );
    return () => {
      live = false;
      const left = entries.current.get(it.id);
      if (left) save(left, it.responses);
    };
    // itemKey stands for the item's identity and shape.
  }, [itemKey, fetchCritiques]);

  const schedule = useCallback(
    (e: Entry) => {
      const timer = timers.current.get(e.itemId);
      if (timer) clearTimeout(timer);
      timers.current.set(
        e.itemId,
        setTimeout(() => {
          const it = itemRef.current;
          if (it && it.id === e.itemId) save(e, it.responses);
        }, SAVE_AFTER_MS),
      );
    },
    [save],
  );

  const edit = useCallback(
    (letter: string, text: string) => {
      const e = entry;
      if (!e) return;
      e.texts = { ...e.texts, [letter]: text };
      rerender();
      schedule(e);
    },
    [entry, schedule],
  );

  const toggleWrong = useCallback(
    (letter: string) => {
      const e = entry;
      const it = itemRef.current;
      if (!e || !it) return;
      e.wrong = { ...e.wrong, [letter]: !e.wrong[letter] };
      rerender();
      save(e, it.responses);
    },
    [entry, save],
  );

  const flush = useCallback(() => {
    const it = itemRef.current;
    if (entry && it && entry.itemId === it.id) save(entry, it.responses);
  }, [entry, save]);

  const shown = entry && item && entry.itemId === item.id ? entry : null;
  return {
    ready: Boolean(shown),
    loadError,
    texts: shown?.texts ?? {},
    wrong: shown?.wrong ?? {},
    original: shown?.original ?? null,
    edit,
    toggleWrong,
    flush,
    prefetch,
    status: outbox.status,
    retryNow: outbox.retryNow,
  };
}

export type Critiques = ReturnType<typeof useCritiques>;
