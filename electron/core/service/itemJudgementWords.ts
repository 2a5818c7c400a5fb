// The items table's words for an item's rankings, step judgements and verdicts: "B > A = C", "first error
// at 3" / "all good" (a pair's responses by letter: "A: all good, B: first error at 2"), good / bad; and
// the screen an item opens on by its shape (a ranking on Rank, a chain or trajectory on Steps, a single
// response on Verdict, a pair on Compare).
import type { ItemListRow, JudgementWords } from '../../../shared/api';
import type { JudgementHead } from '../store/itemJudgements';

const letter = (i: number) => String.fromCharCode(65 + i);

function rankingWords(json: string | null): string | null {
  try {
    const groups = JSON.parse(json ?? 'null') as number[][] | null;
    if (!Array.isArray(groups) || groups.length === 0) return null;
    return groups.map((g) => g.map(letter).join(' = ')).join(' > ');
  } catch {
    return null;
  }
}

function stepsWords(json: string | null): string | null {
  let byLetter: Record<string, number | null>;
  try {
    byLetter = (JSON.parse(json ?? 'null') as Record<string, number | null> | null) ?? {};
  } catch {
    return null;
  }
  const judged = Object.entries(byLetter)
    .filter((e): e is [string, number] => typeof e[1] === 'number')
    .sort(([a], [b]) => a.localeCompare(b));
  // Steps rated, but no first error decided yet: a judgement in progress.
  if (judged.length === 0) return 'steps rated';
  const words = (at: number) => (at < 0 ? 'all good' : `first error at ${at + 1}`);
  if (judged.length === 1 && judged[0]![0] === 'A') return words(judged[0]![1]);
  return judged.map(([l, at]) => `${l}: ${words(at)}`).join(', ');
}

function headWords(head: JudgementHead): string | null {
  if (head.task === 'ranking') return rankingWords(head.ranking);
  if (head.task === 'steps') return stepsWords(head.firstError);
  return head.choice;
}

/** Yours, the people's (one text when they agree, else "split", and how many), the file's. */
export function judgementColumns(heads: JudgementHead[]): Pick<ItemListRow, 'mine' | 'humans' | 'source'> {
  const mine: JudgementWords[] = [];
  const source: JudgementWords[] = [];
  const people = new Map<JudgementWords['task'], string[]>();
  for (const head of heads) {
    const text = headWords(head);
    if (text === null) continue;
    if (head.mine && head.kind === 'human') mine.push({ task: head.task, text });
    if (head.kind === 'source') source.push({ task: head.task, text });
    if (head.kind === 'human') people.set(head.task, [...(people.get(head.task) ?? []), text]);
  }
  const humans = [...people].map(([task, texts]) => ({ task, text: texts.every((t) => t === texts[0]) ? texts[0]! : 'split', labels: texts.length }));
  return { mine, humans, source };
}

/** The screen that judges an item of this shape. */
export function screenOf(responses: number, hasSteps: boolean): ItemListRow['screen'] {
  if (responses === 2) return 'compare';
  if (responses >= 3) return 'rank';
  return hasSteps ? 'steps' : 'verdict';
}
