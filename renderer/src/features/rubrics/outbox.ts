// Rating saves in the background, through the shared outbox (components/outbox): each save waits in
// localStorage until the host confirms it, is retried while the host cannot be reached, and is sent again
// after a reload. A save holds the item's whole rating sheet, so one that a newer save of the same item
// overtook while waiting is not sent.
import { useCallback } from 'react';
import type { ApiInput } from '../../../../shared/api';
import type { LabelRevision } from '../../../../shared/domain';
import { api } from '../../api';
import { useOutbox } from '../../components/outbox';

export type RatingsInput = ApiInput<'saveRatings'>;

const OUTBOX_KEY = 'arbiter.pendingRatings';

interface Payload {
  input: RatingsInput;
}

const options = {
  storageKey: OUTBOX_KEY,
  target: (p: Payload) => p.input,
  send: (p: Payload) => api.saveRatings(p.input),
  supersedes: (newer: Payload, older: Payload) =>
    newer.input.project === older.input.project && newer.input.annotator === older.input.annotator && newer.input.itemId === older.input.itemId,
};

export function useRatingsOutbox(project: string, annotator: string) {
  const box = useOutbox<Payload, LabelRevision>(project, annotator, options);
  const { save: saveShared, pendingFor: pendingShared } = box;
  const save = useCallback((input: RatingsInput, words: string, itemNumber: number) => saveShared({ input }, words, itemNumber), [saveShared]);
  /** The newest save of this item still waiting (shown over what the host answered). */
  const pendingFor = useCallback((itemId: number): RatingsInput | null => pendingShared(itemId)?.input ?? null, [pendingShared]);
  const { status, say, unsaved, settled, retryNow } = box;
  return { status, say, unsaved, save, pendingFor, settled, retryNow };
}

export type RatingsOutbox = ReturnType<typeof useRatingsOutbox>;
