// The labeling loop's saves (a pairwise choice, a ranking, a verdict) in the background, through the shared
// outbox (components/outbox): each save waits in localStorage until the host confirms it, is retried while
// the host cannot be reached, and is sent again after a reload. One item's saves go strictly in order. The
// revision id is made by the loop (UUIDv7), so a save sent twice (an answer lost on the way back) is stored
// once. Saves an older page left under its own keys (Compare's private copy, the rankings' outbox) are
// carried into this one when the page first opens, so an upgrade loses none of them.
import { useCallback, useRef, useState } from 'react';
import type { ApiInput } from '../../../../shared/api';
import { api } from '../../api';
import { useOutbox as useSharedOutbox } from '../../components/outbox';

export type { SaveState, Status } from '../../components/outbox';

export type SaveRequest =
  | { kind: 'pairwise'; input: ApiInput<'saveLabel'> }
  | { kind: 'ranking'; input: ApiInput<'saveRanking'> }
  | { kind: 'verdict'; input: ApiInput<'saveVerdict'> };

export const OUTBOX_KEY = 'arbiter.pendingJudgements';
/** Where Compare kept its own copy ({ key, input, words, itemNumber }) before it used this outbox. */
export const OLD_PAIRWISE_KEY = 'arbiter.pendingSaves';
/** Where Rank and Verdict kept theirs ({ key, request, words, itemNumber }: this outbox's shape). */
export const OLD_RANKINGS_KEY = 'arbiter.pendingRankings';

interface Payload {
  request: SaveRequest;
}
type Entry = Payload & { key: string; words: string; itemNumber: number };

function readList(key: string): unknown[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(key) ?? '[]');
    return Array.isArray(parsed) ? parsed : [];
  } catch {
    return [];
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** An old entry in this outbox's shape, or null for one that is not a save (the host checks the rest). */
function carried(old: unknown, from: string, at: number): Entry | null {
  if (!isRecord(old) || !isRecord(old.input ?? old.request)) return null;
  const words = typeof old.words === 'string' ? old.words : 'Label';
  const itemNumber = typeof old.itemNumber === 'number' ? old.itemNumber : 0;
  const key = typeof old.key === 'string' ? old.key : `${from}\u0000${at}`;
  if (from === OLD_PAIRWISE_KEY) return { key, words, itemNumber, request: { kind: 'pairwise', input: old.input as ApiInput<'saveLabel'> } };
  const request = old.request as Record<string, unknown>;
  if ((request.kind !== 'ranking' && request.kind !== 'verdict') || !isRecord(request.input)) return null;
  return { key, words, itemNumber, request: request as SaveRequest };
}

/** Moves the saves left under the old keys into this outbox (once: the old keys are removed). */
export function carryOldSaves(): number {
  let moved = 0;
  for (const from of [OLD_PAIRWISE_KEY, OLD_RANKINGS_KEY]) {
    if (localStorage.getItem(from) === null) continue;
    const entries = readList(from)
      .map((old, at) => carried(old, from, at))
      .filter((e): e is Entry => e !== null);
    if (entries.length) localStorage.setItem(OUTBOX_KEY, JSON.stringify([...readList(OUTBOX_KEY), ...entries]));
    localStorage.removeItem(from);
    moved += entries.length;
  }
  return moved;
}

const sent = ({ request }: Payload) => {
  switch (request.kind) {
    case 'pairwise':
      return api.saveLabel(request.input);
    case 'ranking':
      return api.saveRanking(request.input);
    case 'verdict':
      return api.saveVerdict(request.input);
  }
};

/**
 * `countWrite`: counts a write in the header (the loop's); a save a previous session left is counted with
 * 0 (whether its item had a judgement before is not known here), so the counters are read once it lands.
 */
export function useLoopOutbox(project: string, annotator: string, countWrite: (delta: number) => () => void) {
  // Before the outbox's first look at its key (its replay runs in an effect, after this render).
  useState(carryOldSaves);
  const count = useRef(countWrite);
  count.current = countWrite;
  const [options] = useState(() => ({
    storageKey: OUTBOX_KEY,
    target: (p: Payload) => p.request.input,
    send: sent,
    onReplay: (delivery: Promise<unknown>) => void delivery.finally(count.current(0)).catch(() => undefined),
  }));
  const box = useSharedOutbox(project, annotator, options);
  const { save: saveShared, pendingFor: pendingShared } = box;

  /** Saves in the background; the promise settles when the host has it (or refused it). */
  const save = useCallback((request: SaveRequest, words: string, itemNumber: number) => saveShared({ request }, words, itemNumber), [saveShared]);

  /** The newest save of this item and task still waiting in the outbox (shown over what the host answered). */
  const pendingFor = useCallback(
    (itemId: number, kind: SaveRequest['kind']): SaveRequest | null => pendingShared(itemId, (p) => p.request.kind === kind)?.request ?? null,
    [pendingShared],
  );

  const { status, say, update, unsaved, isPending, settled, enqueue, retryNow } = box;
  return { status, say, update, unsaved, save, isPending, pendingFor, settled, enqueue, retryNow };
}

export type LoopOutbox = ReturnType<typeof useLoopOutbox>;
