// The labeling loop's edits of a judgement already made: a rationale typed after it, region marks drawn on
// the item's images. Kept with the item on screen and saved with its judgement; once it has one, saved
// at once: a pair's through saveRationale / saveRegions (the choice as it is), a ranking's or a verdict's
// as a new revision of the same decision through the outbox.
import { useCallback, type MutableRefObject } from 'react';
import type { RegionMark } from '../../../../shared/regions';
import { api, errorMessage } from '../../api';
import { decisionOf, type Decision, type Loaded, type Shape } from './judgements';
import type { LoopOutbox } from './outbox';

interface Edits {
  task: Shape;
  project: string;
  annotator: string;
  shownRef: MutableRefObject<Loaded | null>;
  rationaleRef: MutableRefObject<string>;
  regionsRef: MutableRefObject<RegionMark[]>;
  setRationale(text: string): void;
  setRegions(marks: RegionMark[]): void;
  send(loaded: Loaded, decision: Decision, words: string, common: { rationale: string; prelabelVisible: boolean }): Promise<unknown>;
  outbox: LoopOutbox;
}

export function useLoopEdits({ task, project, annotator, shownRef, rationaleRef, regionsRef, setRationale, setRegions, send, outbox }: Edits) {
  const { say, update, enqueue, isPending } = outbox;

  const amend = useCallback(
    (what: 'rationale' | 'regions', words: string) => {
      const current = shownRef.current;
      if (!current) return;
      const { item } = current;
      if (task !== 'pairwise') {
        const decision = decisionOf(task, current);
        if (decision) void send(current, decision, words, { rationale: rationaleRef.current, prelabelVisible: false }).catch(() => undefined);
        return;
      }
      const id = say({ text: words, itemNumber: item.position, state: 'saving' });
      const label = item.label;
      if (label) item.label = { ...label, body: { ...label.body, ...(what === 'rationale' ? { rationale: rationaleRef.current } : { regions: regionsRef.current }) } };
      const base = { project, annotator, itemId: item.id };
      const rationale = rationaleRef.current;
      const regions = regionsRef.current;
      // After the item's choice in its queue of writes, when that is still on its way.
      const write = what === 'rationale' ? () => api.saveRationale({ ...base, rationale }) : () => api.saveRegions({ ...base, task: 'pairwise', regions });
      enqueue(item.id, write)
        .then(() => update(id, { state: 'saved' }))
        .catch((error) => update(id, { state: 'failed', error: errorMessage(error) }));
    },
    [task, project, annotator, shownRef, rationaleRef, regionsRef, send, say, update, enqueue],
  );

  /** Sends a rationale edited after the judgement was saved. */
  const flushRationale = useCallback(() => {
    const current = shownRef.current;
    if (!current || !decisionOf(task, current)) return;
    const was = task === 'pairwise' ? (current.item.label?.body.rationale ?? '') : (current.mine?.rationale ?? '');
    if (was !== rationaleRef.current) amend('rationale', 'Rationale');
  }, [task, shownRef, rationaleRef, amend]);

  /** Region marks changed: kept with the item and saved with its judgement; once it has one, saved at once. */
  const editRegions = useCallback(
    (marks: RegionMark[], words: string) => {
      regionsRef.current = marks;
      setRegions(marks);
      const current = shownRef.current;
      if (!current) return;
      // A judgement still on its way counts as made: the marks follow it in the item's queue of writes.
      if (decisionOf(task, current) || isPending(current.item.id)) return amend('regions', words);
      say({ text: `${words} — saved with your ${task === 'pairwise' ? 'choice' : task}`, itemNumber: current.item.position, state: 'info' });
    },
    [task, shownRef, regionsRef, setRegions, isPending, amend, say],
  );

  const editRationale = useCallback(
    (text: string) => {
      rationaleRef.current = text;
      setRationale(text);
    },
    [rationaleRef, setRationale],
  );

  return { flushRationale, editRegions, editRationale };
}
