// Critique saves in the background, through the shared outbox (components/outbox): kept in localStorage
// until the host confirms them, retried while it cannot be reached, sent again after a reload. A save
// holds every response's critique of the item, so one overtaken by a newer save of the item is not sent.
import { useCallback } from 'react';
import type { ApiInput } from '../../../../shared/api';
import type { LabelRevision } from '../../../../shared/domain';
import { api } from '../../api';
import { useOutbox } from '../../components/outbox';

export type CritiqueInput = ApiInput<'saveCritique'>;

const OUTBOX_KEY = 'arbiter.pendingCritiques';

interface Payload {
  input: CritiqueInput;
}

const options = {
  storageKey: OUTBOX_KEY,
  target: (p: Payload) => p.input,
  send: (p: Payload) => api.saveCritique(p.input),
  supersedes: (newer: Payload, older: Payload) =>
    newer.input.project === older.input.project && newer.input.annotator === older.input.annotator && newer.input.itemId === older.input.itemId,
};

export function useCritiquesOutbox(project: string, annotator: string) {
  const box = useOutbox<Payload, LabelRevision>(project, annotator, options);
  const { save: saveShared, pendingFor: pendingShared } = box;
  const save = useCallback((input: CritiqueInput, words: string, itemNumber: number) => saveShared({ input }, words, itemNumber), [saveShared]);
  const pendingFor = useCallback((itemId: number): CritiqueInput | null => pendingShared(itemId)?.input ?? null, [pendingShared]);
  const { status, unsaved, settled, retryNow } = box;
  return { status, unsaved, save, pendingFor, settled, retryNow };
}
