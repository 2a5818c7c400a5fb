// An episode's first failure, marked on the screen's videos (issue 24, item 4): Shift+F sets it at the
// current moment for the response whose video was last pointed at (else the first video's), and saves it
// on the annotator's judgement of the item (saveMoments: a new revision of it). The item and the task are
// the screen's (the nearest element with data-item-id: Compare pairwise, Verdict verdict, Rank ranking).
// Not judged yet: nothing is saved, and the bar says to judge first (← comes back to the item).
import { api, errorMessage } from '../../api';

const TASKS: Record<string, 'pairwise' | 'verdict' | 'ranking'> = { compare: 'pairwise', 'verdict-screen': 'verdict', 'ranking-screen': 'ranking' };

export type MarkOutcome = { saved: true; letter: string; at: number } | { saved: false; why: string };

/** The item and the task of the screen `from` is on, or null where the screen judges none. */
export function screenOf(from: Element): { itemId: number; task: 'pairwise' | 'verdict' | 'ranking' } | null {
  const screen = from.closest('[data-item-id]');
  const itemId = Number(screen?.getAttribute('data-item-id'));
  const task = TASKS[screen?.getAttribute('data-testid') ?? ''];
  return screen && Number.isInteger(itemId) && itemId > 0 && task ? { itemId, task } : null;
}

export async function saveFailure(from: Element, project: string, annotator: string, place: number, at: number): Promise<MarkOutcome> {
  const screen = screenOf(from);
  if (!screen) return { saved: false, why: 'this screen does not judge the item' };
  const { itemId, task } = screen;
  const letter = String.fromCharCode(65 + place);
  try {
    const saved = await api.saveMoments({ project, annotator, itemId, task, firstFailure: { [letter]: Math.round(at * 1000) / 1000 } });
    return saved ? { saved: true, letter, at } : { saved: false, why: 'judge the item first, then mark (← comes back to it)' };
  } catch (error) {
    return { saved: false, why: errorMessage(error) };
  }
}
