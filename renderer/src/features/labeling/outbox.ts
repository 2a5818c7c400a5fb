// The labeling loop's saves (a pairwise choice, a ranking, a verdict, a response's step judgement) in the
// background, through the shared
// outbox (components/outbox): each save waits in localStorage until the host confirms it, is retried while
// the host cannot be reached, and is sent again after a reload. One item's saves go strictly in order. The
// revision id is made by the loop (UUIDv7), so a save sent twice (an answer lost on the way back) is stored
// once. Saves an older page left under its own keys (Compare's private copy, the rankings' outbox, the step
// screen's) are carried into this one when the page first opens, so an upgrade loses none of them. A step
// save that a newer one of the same response overtook while waiting is not sent (each holds the whole
// judgement of the response, so nothing is lost).
import { useCallback, useRef, useState } from 'react';
import type { ApiInput } from '../../../../shared/api';
import { api } from '../../api';
import { useOutbox as useSharedOutbox } from '../../components/outbox';

export type { SaveState, Status } from '../../components/outbox';

export type SaveRequest =
  | { kind: 'pairwise'; input: ApiInput<'saveLabel'> }
  | { kind: 'ranking'; input: ApiInput<'saveRanking'> }
  | { kind: 'verdict'; input: ApiInput<'saveVerdict'> }
  | { kind: 'steps'; input: ApiInput<'saveSteps'> };

/** A decision of Compare, Rank or Verdict (what their loop reads back as "mine"). */
export type JudgementRequest = Exclude<SaveRequest, { kind: 'steps' }>;

export const OUTBOX_KEY = 'arbiter.pendingJudgements';
/** Where Compare kept its own copy ({ key, input, words, itemNumber }) before it used this outbox. */
export const OLD_PAIRWISE_KEY = 'arbiter.pendingSaves';
/** Where Rank and Verdict kept theirs ({ key, request, words, itemNumber }: this outbox's shape). */
export const OLD_RANKINGS_KEY = 'arbiter.pendingRankings';
/** Where the step screen kept its saves ({ key, input, words, itemNumber }, input a saveSteps). */
export const OLD_STEPS_KEY = 'arbiter.pendingSteps';

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
  if (from === OLD_STEPS_KEY) return isRecord(old.input) ? { key, words, itemNumber, request: { kind: 'steps', input: old.input as ApiInput<'saveSteps'> } } : null;
  const request = old.request as Record<string, unknown>;
  if ((request.kind !== 'ranking' && request.kind !== 'verdict') || !isRecord(request.input)) return null;
  return { key, words, itemNumber, request: request as SaveRequest };
}

/** Moves the saves left under the old keys into this outbox (once: the old keys are removed). */
export function carryOldSaves(): number {
  let moved = 0;
  for (const from of [OLD_PAIRWISE_KEY, OLD_RANKINGS_KEY, OLD_STEPS_KEY]) {
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
    case 'steps':
      return api.saveSteps(request.input);
  }
};

type StepsInput = ApiInput<'saveSteps'>;
const sameResponse = (a: StepsInput, b: StepsInput) => a.project === b.project && a.annotator === b.annotator && a.itemId === b.itemId && a.response === b.response;
/** A newer step save of the same response holds the older one's change too; no other save overtakes. */
const supersedes = (newer: Payload, older: Payload) => newer.request.kind === 'steps' && older.request.kind === 'steps' && sameResponse(newer.request.input, older.request.input);

export type Saved = Awaited<ReturnType<typeof sent>>;

/**
 * `countWrite`: counts a write in the header (the loop's); a save a previous session left is counted with
 * 0 (whether its item had a judgement before is not known here), so the counters are read once it lands.
 * `onSaved`: told of each save the host confirmed while the screen is open (the step screen keeps it).
 */
export function useLoopOutbox(project: string, annotator: string, countWrite: (delta: number) => () => void, onSaved?: (saved: Saved, request: SaveRequest) => void) {
  // Before the outbox's first look at its key (its replay runs in an effect, after this render).
  useState(carryOldSaves);
  const count = useRef(countWrite);
  count.current = countWrite;
  const told = useRef(onSaved);
  told.current = onSaved;
  const [options] = useState(() => ({
    storageKey: OUTBOX_KEY,
    target: (p: Payload) => p.request.input,
    send: sent,
    supersedes,
    onSaved: (saved: Saved, p: Payload) => told.current?.(saved, p.request),
    onReplay: (delivery: Promise<unknown>) => void delivery.finally(count.current(0)).catch(() => undefined),
  }));
  const box = useSharedOutbox(project, annotator, options);
  const { save: saveShared, pendingFor: pendingShared } = box;

  /** Saves in the background; the promise settles when the host has it (or refused it). */
  const save = useCallback((request: SaveRequest, words: string, itemNumber: number) => saveShared({ request }, words, itemNumber), [saveShared]);

  /** The newest save of this item and task still waiting in the outbox (shown over what the host answered). */
  const pendingFor = useCallback(
    (itemId: number, kind: JudgementRequest['kind']): JudgementRequest | null => {
      const waiting = pendingShared(itemId, (p) => p.request.kind === kind)?.request;
      return waiting && waiting.kind !== 'steps' ? waiting : null;
    },
    [pendingShared],
  );

  /** The newest step save of this response still waiting in the outbox. */
  const pendingSteps = useCallback(
    (itemId: number, response: number): StepsInput | null => {
      const waiting = pendingShared(itemId, (p) => p.request.kind === 'steps' && p.request.input.response === response)?.request;
      return waiting?.kind === 'steps' ? waiting.input : null;
    },
    [pendingShared],
  );

  const { status, say, update, unsaved, isPending, settled, enqueue, retryNow } = box;
  /**
   * Once these items' saves are done (saved or refused), or after LANDING_MS: a host that keeps failing one
   * does not hold the screen. A screen asks this before a next-unjudged ask the host could answer with an
   * item whose save is still on its way (a pending qualification serves its set whatever the position).
   */
  const landed = useCallback(
    (ids: number[]) => Promise.race([Promise.all(ids.map(settled)), new Promise<void>((done) => setTimeout(done, LANDING_MS))]).then(() => undefined),
    [settled],
  );
  return { status, say, update, unsaved, save, isPending, pendingFor, pendingSteps, settled, landed, enqueue, retryNow };
}

/** How long a screen waits for saves still on their way before it asks anyway. */
const LANDING_MS = 5_000;

export type LoopOutbox = ReturnType<typeof useLoopOutbox>;
