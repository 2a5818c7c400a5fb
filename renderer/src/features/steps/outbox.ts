// Step saves in the background, through the shared outbox (components/outbox): each save waits in
// localStorage until the host confirms it, is retried while the host cannot be reached, and is sent again
// after a reload. Saves of one item go strictly in order; a save that a newer one of the same response
// overtook while waiting is not sent (each save holds the whole judgement, so nothing is lost).
import { useCallback } from 'react';
import type { LabelRevision } from '../../../../shared/domain';
import { api } from '../../api';
import { useOutbox } from '../../components/outbox';
import type { SaveInput } from './judgement';

export type { SaveState, Status } from '../../components/outbox';

const OUTBOX_KEY = 'arbiter.pendingSteps';

interface Payload {
  input: SaveInput;
}

const sameResponse = (a: SaveInput, b: SaveInput) =>
  a.project === b.project && a.annotator === b.annotator && a.itemId === b.itemId && a.response === b.response;

const options = {
  storageKey: OUTBOX_KEY,
  target: (p: Payload) => p.input,
  send: (p: Payload) => api.saveSteps(p.input),
  supersedes: (newer: Payload, older: Payload) => sameResponse(newer.input, older.input),
};

export function useStepsOutbox(project: string, annotator: string, onSaved?: (saved: LabelRevision, input: SaveInput) => void) {
  const box = useOutbox<Payload, LabelRevision>(project, annotator, {
    ...options,
    onSaved: onSaved && ((saved, p) => onSaved(saved, p.input)),
  });
  const { save: saveShared, pendingFor: pendingShared } = box;

  /** Saves one judgement in the background; the returned promise settles when the host has it (or refused it). */
  const save = useCallback((input: SaveInput, words: string, itemNumber: number) => saveShared({ input }, words, itemNumber), [saveShared]);

  /** The newest save still waiting for this response, if any (shown over what the host answered). */
  const pendingFor = useCallback(
    (itemId: number, response: number): SaveInput | null => pendingShared(itemId, (p) => p.input.response === response)?.input ?? null,
    [pendingShared],
  );

  const { status, say, update, unsaved, enqueue, retryNow } = box;
  return { status, say, update, unsaved, save, enqueue, pendingFor, retryNow };
}
