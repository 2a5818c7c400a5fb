// The judge's pre-label on the compare screen, under the blind / assist rules of the model pre-labels:
// blind hides it until this annotator has labeled the item; assist shows it up front, with the critique,
// which the annotator can take as the start of their own (the critique box then holds it; once saved,
// the edit distance to the judge's text is recorded). A judge that flipped with the presentation order
// is said to be uncertain. Model text is shown as plain text only.
import { useEffect, useRef, useState, type MutableRefObject } from 'react';
import type { JudgeResultView } from '../../../../shared/api';
import { responseLetter } from '../../../../shared/letters';
import { api } from '../../api';
import { JudgeGate, JudgeSource, judgeLead } from './JudgeGate';
import { judgeOf, useItemJudges, type JudgeLoads } from './judgeLoads';

/** What the line needs of the critique boxes (renderer/src/features/critiques/useCritiques.ts). */
export interface CritiqueSink {
  ready: boolean;
  texts: Record<string, string>;
  edit(letter: string, text: string): void;
  status: { state: string } | null;
}

interface Props {
  project: string;
  /** The item's judge results, loaded with the item (judgeLoads.ts). */
  loads: JudgeLoads;
  annotator: string;
  item: { id: number; shownOrder: number[] } | null;
  mode: 'blind' | 'assist';
  labeled: boolean;
  critiques: CritiqueSink;
}

const STRENGTH = ['', 'slightly', 'clearly', 'much'];

export function JudgeLine({ project, loads, annotator, item, mode, labeled, critiques }: Props) {
  // The critique is open on one item: a new item opens with it closed, in the item's own render.
  const [openOn, setOpenOn] = useState<number | null>(null);
  const taken = useRef<{ itemId: number; resultId: number; letter: string; noted: string | null } | null>(null);
  const itemId = item?.id ?? null;
  const open = openOn !== null && openOn === itemId;
  const result = judgeOf(useItemJudges(loads, itemId), 'pairwise');

  // Once the taken critique is saved (edited or not), record how far it moved from the judge's text.
  const state = critiques.status?.state;
  useEffect(() => {
    const t = taken.current;
    if (!t || state !== 'saved' || t.itemId !== itemId) return;
    const text = critiques.texts[t.letter] ?? '';
    if (text === t.noted) return;
    t.noted = text;
    api.noteJudgeCritique({ project, annotator, itemId: t.itemId, resultId: t.resultId, letter: t.letter }).catch(() => undefined);
  }, [state, critiques.texts, project, annotator, itemId]);

  if (!item || !result) return null;
  return (
    <JudgeGate result={result} mode={mode} labeled={labeled}>
      {(r) => <PairwiseJudge result={r} item={item} mode={mode} open={open} onToggle={() => setOpenOn(open ? null : item.id)} critiques={critiques} taken={taken} />}
    </JudgeGate>
  );
}

function PairwiseJudge({ result, item, mode, open, onToggle, critiques, taken }: {
  result: JudgeResultView;
  item: { id: number; shownOrder: number[] };
  mode: 'blind' | 'assist';
  open: boolean;
  onToggle(): void;
  critiques: CritiqueSink;
  taken: MutableRefObject<{ itemId: number; resultId: number; letter: string; noted: string | null } | null>;
}) {
  const side = (letter: 'A' | 'B') => (item.shownOrder.indexOf(letter === 'A' ? 0 : 1) === 0 ? 'Left' : 'Right');
  const v = result.verdict ?? 'tie';
  const verdict = v === 'tie' ? 'a tie' : `${side(v)}, ${STRENGTH[result.strength ?? 0] ?? ''} better`;
  const target = v === 'B' ? 'B' : v === 'A' ? 'A' : responseLetter(item.shownOrder[0]!);
  const take = () => {
    if (!result.critique) return;
    critiques.edit(target, result.critique);
    taken.current = { itemId: item.id, resultId: result.id, letter: target, noted: null };
  };
  return (
    <>
      <div className="flex flex-wrap items-baseline gap-x-2">
        <span className="text-faint">{judgeLead(mode)}</span>
        <b className="font-medium" data-testid="judge-verdict">
          {verdict}
        </b>
        {result.flipped && (
          <span className="rounded bg-tie-soft px-1 text-tie" data-testid="judge-uncertain" title="The judge chose differently when the two responses were shown the other way round">
            uncertain: flips with the order
          </span>
        )}
        <JudgeSource result={result} />
        {result.critique && (
          <button className="text-accent hover:underline" onClick={onToggle} data-testid="judge-critique-toggle">
            {open ? 'hide critique' : 'critique'}
          </button>
        )}
        {mode === 'assist' && result.critique && critiques.ready && (
          <button className="text-accent hover:underline" onClick={take} data-testid="judge-take" title={`Start the critique of response ${target} from the judge's`}>
            use as my critique of {side(target === 'B' ? 'B' : 'A').toLowerCase()}
          </button>
        )}
      </div>
      {open && result.critique && (
        <div className="mt-1 max-h-28 overflow-y-auto whitespace-pre-wrap break-words text-muted" data-testid="judge-critique">
          {item.shownOrder[0] !== 0 && <span className="mr-1 text-faint">(the judge's “A” is the right-hand response here)</span>}
          {result.critique}
        </div>
      )}
    </>
  );
}
