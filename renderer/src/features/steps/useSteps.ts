// The step screen's state: the item and response on screen, the annotator's judgement of it, every
// edit saved as it is made (through the outbox, with a client revision id), undo, and splitting or
// merging steps (a new segmentation version; the host says what that did to the ratings).
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { uuidv7 } from '../../../../shared/ids';
import { api, errorMessage } from '../../api';
import { useShell } from '../../context';
import { useLoopOutbox, type SaveRequest } from '../labeling/outbox';
import { judgementFrom, judgementOfSave, saveInput, type Edit, type Judgement } from './judgement';
import { useStepItems } from './useStepItems';

interface UndoEntry {
  itemId: number;
  response: number;
  judgement: Judgement;
  words: string;
}

const keyOf = (itemId: number, response: number) => `${itemId}:${response}`;

/** A cycled choice (the outcome, `o`) is saved once the key has rested this long: one revision per decision. */
export const SETTLE_MS = 800;

export function useSteps(project: string, annotator: string, start: { itemId?: number; response?: number; view?: string }, scoresVersion: number) {
  const items = useStepItems(project, annotator, start.itemId, scoresVersion, start.view);
  const { loaded } = items;
  // The response shown belongs to an item: a new item opens on the response asked for, else the first.
  const [picked, setPicked] = useState<{ itemId: number; response: number } | null>(null);
  const [notices, setNotices] = useState<{ itemId: number; lines: string[] } | null>(null);
  const [busy, setBusy] = useState(false);
  const [labeledHere, setLabeledHere] = useState<number[]>([]);
  /** What this screen last set for each (item, response): newer than any view fetched before it. */
  const known = useRef(new Map<string, Judgement>());
  const undoStack = useRef<UndoEntry[]>([]);
  const shownAt = useRef(performance.now());
  const { markTouched } = items;
  // A save replayed from the outbox after a reload is newer than the view fetched meanwhile.
  const onSaved = useCallback(
    (_saved: unknown, request: SaveRequest) => {
      if (request.kind !== 'steps') return;
      const { input } = request;
      const key = keyOf(input.itemId, input.response);
      if (!known.current.has(key)) known.current.set(key, judgementOfSave(input));
      markTouched(input.itemId);
    },
    [markTouched],
  );
  // The labeling loop's outbox (features/labeling/outbox.ts): the step saves wait, retry and replay beside
  // the screens' other judgements; a save another screen left is sent from here too, and counted.
  const { countLabelWrite } = useShell();
  const outbox = useLoopOutbox(project, annotator, countLabelWrite, onSaved);
  const { pendingSteps: pendingFor } = outbox;

  const itemId = loaded?.item.id;
  const responseCount = loaded?.item.responses.length ?? 0;
  const response =
    picked && picked.itemId === itemId ? picked.response : itemId !== undefined && itemId === start.itemId && (start.response ?? 0) < responseCount ? (start.response ?? 0) : 0;
  const segmentation = loaded?.view.responses[response] ?? null;

  // A new item starts a fresh clock and its own undo.
  useEffect(() => {
    shownAt.current = performance.now();
    undoStack.current = [];
  }, [itemId]);

  const [tick, setTick] = useState(0);
  const judgement = useMemo((): Judgement | null => {
    if (!loaded || !segmentation) return null;
    const version = segmentation.version;
    const mine = known.current.get(keyOf(loaded.item.id, response));
    if (mine && mine.version === version) return mine;
    const pending = pendingFor(loaded.item.id, response);
    if (pending && pending.steps.version === version && pending.steps.ratings.length === segmentation.steps.length) return judgementOfSave(pending);
    return judgementFrom(loaded.view, response);
  }, [loaded, segmentation, response, pendingFor, tick]);
  const judgementRef = useRef(judgement);
  judgementRef.current = judgement;

  /** A cycled edit waiting for the key to rest: sent by its timer, by the next edit's save, or on leaving. */
  const settling = useRef<{ key: string; timer: ReturnType<typeof setTimeout>; send: () => void } | null>(null);
  const flushSettling = useCallback(() => {
    const waiting = settling.current;
    if (!waiting) return;
    clearTimeout(waiting.timer);
    settling.current = null;
    waiting.send();
  }, []);

  /**
   * Applies an edit: shown at once, saved in the background. `settle`: an edit the same key cycles
   * through (the outcome): saved once the key rests, so a decision is one revision, not one per press.
   */
  const apply = useCallback(
    (edit: Edit | null, prelabelVisible: boolean, asUndo = false, settle = false): boolean => {
      const now = loaded;
      const before = judgementRef.current;
      if (!edit || !now || !before) return false;
      if ('refused' in edit) {
        outbox.say({ text: edit.refused, itemNumber: now.item.position, state: 'info' });
        return false;
      }
      const id = now.item.id;
      const key = keyOf(id, response);
      // Cycling on: the decision so far has its undo entry already (one undo takes the whole decision back).
      const cycling = settle && settling.current?.key === key;
      if (!asUndo && !cycling) undoStack.current.push({ itemId: id, response, judgement: before, words: edit.words });
      known.current.set(key, edit.judgement);
      judgementRef.current = edit.judgement; // a second key before the next render builds on this one
      markTouched(id);
      setTick((t) => t + 1);
      // A waiting cycled edit is in this judgement too: this save carries it.
      if (settling.current) {
        clearTimeout(settling.current.timer);
        if (settling.current.key === key) settling.current = null;
        else flushSettling();
      }
      const send = () => save(now, response, edit, prelabelVisible);
      if (settle) {
        outbox.say({ text: `${edit.words} — saved when you stop pressing`, itemNumber: now.item.position, state: 'info' });
        const timer = setTimeout(() => {
          if (settling.current?.timer === timer) settling.current = null;
          send();
        }, SETTLE_MS);
        settling.current = { key, timer, send };
      } else send();
      return true;
    },
    [loaded, response, project, annotator, outbox, items, markTouched, flushSettling],
  );

  /** Sends one judgement through the outbox. */
  function save(now: NonNullable<typeof loaded>, response: number, edit: Exclude<Edit, { refused: string }>, prelabelVisible: boolean) {
    const id = now.item.id;
    const input = saveInput({ project, annotator, itemId: id, response }, edit.judgement, {
      id: uuidv7(),
      timeMs: Math.max(0, Math.round(performance.now() - shownAt.current)),
      prelabelVisible,
    });
    const wasLabeled = Boolean(now.view.label);
    void outbox
      .save({ kind: 'steps', input }, edit.words, now.item.position)
        .then((saved) => {
          if (saved && !wasLabeled) setLabeledHere((list) => (list.includes(id) ? list : [...list, id]));
        })
        .catch(() => {
          // Refused: what the host holds is what counts; show it again.
          known.current.delete(keyOf(id, response));
          void api.getSteps({ project, annotator, itemId: id }).then((view) => items.replaceView(id, view)).catch(() => undefined);
        });
  }

  // Leaving the response, the item, the screen or the page sends a cycled edit still waiting.
  useEffect(() => flushSettling, [itemId, response, flushSettling]);
  useEffect(() => {
    window.addEventListener('pagehide', flushSettling);
    return () => window.removeEventListener('pagehide', flushSettling);
  }, [flushSettling]);

  /** Ctrl+Z: the judgement before the last edit on this item comes back, saved as a new revision. */
  const undo = useCallback(
    (prelabelVisible: boolean) => {
      const at = undoStack.current.findLastIndex((u) => u.itemId === itemId && u.response === response);
      const entry = at >= 0 ? undoStack.current[at]! : null;
      if (!entry || !loaded) {
        outbox.say({ text: 'Nothing to undo on this item', itemNumber: null, state: 'info' });
        return;
      }
      undoStack.current.splice(at, 1);
      apply({ judgement: entry.judgement, words: `Undid “${entry.words}”` }, prelabelVisible, true);
    },
    [itemId, response, loaded, outbox, apply],
  );

  /** Splits a step at a character offset, or merges it with the next: after this item's saves, never before. */
  const resegment = useCallback(
    async (op: 'split' | 'merge', step: number, at?: number): Promise<boolean> => {
      if (!loaded || busy) return false;
      flushSettling();
      const id = loaded.item.id;
      const itemNumber = loaded.item.position;
      const words = op === 'split' ? `Split step ${step + 1} in two` : `Merged steps ${step + 1} and ${step + 2}`;
      setBusy(true);
      const statusId = outbox.say({ text: words, itemNumber, state: 'saving' });
      try {
        const fromVersion = loaded.view.responses[response]?.version ?? 1;
        const result = await outbox.enqueue(id, () => api.resegment({ project, annotator, itemId: id, response, op, fromVersion, step, at }));
        known.current.delete(keyOf(id, response));
        undoStack.current = undoStack.current.filter((u) => !(u.itemId === id && u.response === response));
        markTouched(id);
        items.replaceView(id, result.view);
        const version = result.view.responses[response]?.version;
        setNotices({ itemId: id, lines: result.notices.length ? result.notices : [`${words}: the steps are version ${version} now. No rating changed.`] });
        outbox.update(statusId, { state: 'saved', text: `${words} (version ${version})` });
        return true;
      } catch (error) {
        outbox.update(statusId, { state: 'failed', error: errorMessage(error) });
        return false;
      } finally {
        setBusy(false);
      }
    },
    [loaded, busy, outbox, project, annotator, response, items, markTouched, flushSettling],
  );

  const switchResponse = useCallback(
    (delta: number) => {
      if (itemId === undefined || responseCount < 2) return false;
      setPicked({ itemId, response: (response + delta + responseCount) % responseCount });
      return true;
    },
    [itemId, response, responseCount],
  );

  /**
   * Shift+→ (the next item without this annotator's step labels) asks once this item's saves have landed
   * (a cycled edit still resting is sent first; outbox.ts `landed`, bounded): a pending qualification serves its
   * chains whatever the position, so a save still on its way had the host answer this chain again.
   */
  const itemsGo = items.go;
  const go = useCallback(
    async (direction: 'next' | 'previous', unlabeledOnly = false) => {
      const on = loaded?.item.id;
      if (direction === 'next' && unlabeledOnly && on !== undefined) {
        flushSettling();
        await outbox.landed([on]);
      }
      return itemsGo(direction, unlabeledOnly);
    },
    [loaded, flushSettling, outbox, itemsGo],
  );

  return {
    ...items,
    go,
    response,
    segmentation,
    judgement,
    /** The judgement as of the last edit, even before the screen has drawn it. */
    latest: () => judgementRef.current,
    apply,
    undo,
    resegment,
    busy,
    switchResponse,
    notices: notices && notices.itemId === itemId ? notices.lines : null,
    dismissNotices: () => setNotices(null),
    labeledHere: labeledHere.length,
    status: outbox.status,
    say: outbox.say,
    unsaved: outbox.unsaved,
    retryNow: outbox.retryNow,
  };
}
