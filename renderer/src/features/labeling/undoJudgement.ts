// The labeling loop's undo of a judgement (Ctrl+Z on Compare, Rank and Verdict): the judgements made on
// this screen, newest first, else the one on screen; taken back through the host's undoLabel of the task
// (a new revision restoring the one it replaced), in the item's queue of writes after any save still on
// its way, and the item shown again as the host now holds it ("Undid … — back to Left better").
import { useCallback, useRef, type MutableRefObject } from 'react';
import { api, errorMessage } from '../../api';
import { decisionOf, type Loaded, type Shape } from './judgements';
import type { LoopOutbox } from './outbox';

interface UndoEntry {
  itemId: number;
  itemNumber: number;
  words: string;
}

interface Undoing {
  project: string;
  annotator: string;
  task: Shape;
  outbox: LoopOutbox;
  shownRef: MutableRefObject<Loaded | null>;
  alive: MutableRefObject<boolean>;
  load(item: NonNullable<Awaited<ReturnType<typeof api.getItem>>>): Promise<Loaded>;
  show(loaded: Loaded): void;
  /** The loop's options now: the judgement in words, and the header's count of a write. */
  opts: MutableRefObject<{ describe(loaded: Loaded): string | null; countWrite(delta: number): () => void }>;
}

export function useUndoJudgement({ project, annotator, task, outbox, shownRef, alive, load, show, opts }: Undoing) {
  const stack = useRef<UndoEntry[]>([]);
  const { say, update, enqueue } = outbox;

  /** A judgement just made on the item on screen, for Ctrl+Z to take back. */
  const remember = useCallback((entry: UndoEntry) => void stack.current.push(entry), []);

  /** Takes back the last judgement made here (or the one on screen): the host's undo of the task. */
  const undoJudgement = useCallback(async () => {
    const current = shownRef.current;
    let entry = stack.current.pop();
    if (!entry && current && decisionOf(task, current)) {
      entry = { itemId: current.item.id, itemNumber: current.item.position, words: opts.current.describe(current) ?? 'label' };
    }
    if (!entry) {
      say({ text: 'Nothing to undo', itemNumber: null, state: 'info' });
      return;
    }
    const { itemId, itemNumber, words } = entry;
    const id = say({ text: `Undoing “${words}”`, itemNumber, state: 'saving' });
    // What the undo restores is known only from its answer: the counters are read once it lands.
    const settled = opts.current.countWrite(0);
    try {
      await enqueue(itemId, () => api.undoLabel({ project, annotator, itemId, task }));
      const back = await api.getItem({ project, annotator, itemId });
      const loaded = back ? await load(back) : null;
      const now = loaded?.mine ? opts.current.describe(loaded) : null;
      update(id, { text: `Undid “${words}” — ${now ? `back to ${now}` : 'now unlabeled'}`, state: 'saved' });
      if (alive.current && loaded) show(loaded);
    } catch (error) {
      update(id, { text: `Undo of “${words}”`, state: 'failed', error: errorMessage(error) });
    } finally {
      settled();
    }
  }, [project, annotator, task, say, update, enqueue, load, show, shownRef, alive, opts]);

  return { remember, undoJudgement };
}
