// Ranking and verdict saves in the background, through the shared outbox (components/outbox): each save
// waits in localStorage until the host confirms it, is retried while the host cannot be reached, and is sent
// again after a reload. One item's saves go strictly in order. The revision id is made here (UUIDv7), so a
// save sent twice (an answer lost on the way back) is stored once.
import { useCallback } from 'react';
import type { ApiInput } from '../../../../shared/api';
import { api } from '../../api';
import { useOutbox as useSharedOutbox } from '../../components/outbox';

export type { SaveState, Status } from '../../components/outbox';

export type SaveRequest = { kind: 'ranking'; input: ApiInput<'saveRanking'> } | { kind: 'verdict'; input: ApiInput<'saveVerdict'> };

export const OUTBOX_KEY = 'arbiter.pendingRankings';

interface Payload {
  request: SaveRequest;
}

const options = {
  storageKey: OUTBOX_KEY,
  target: (p: Payload) => p.request.input,
  send: ({ request }: Payload) => (request.kind === 'ranking' ? api.saveRanking(request.input) : api.saveVerdict(request.input)),
};

export function useOutbox(project: string, annotator: string) {
  const box = useSharedOutbox(project, annotator, options);
  const { save: saveShared, pendingFor: pendingShared } = box;

  /** Saves in the background; the promise settles when the host has it (or refused it). */
  const save = useCallback((request: SaveRequest, words: string, itemNumber: number) => saveShared({ request }, words, itemNumber), [saveShared]);

  /** The newest save of this item still waiting in the outbox (shown over what the host answered). */
  const pendingFor = useCallback((itemId: number): SaveRequest | null => pendingShared(itemId)?.request ?? null, [pendingShared]);

  const { status, say, update, unsaved, isPending, settled, retryNow } = box;
  return { status, say, update, unsaved, save, isPending, pendingFor, settled, retryNow };
}
