// The judge's pre-label on the compare screen, under the blind / assist rules of the model pre-labels:
// blind hides it until this annotator has labeled the item; assist shows it up front, with the critique,
// which the annotator can take as the start of their own (the critique box then holds it; once saved,
// the edit distance to the judge's text is recorded). A judge that flipped with the presentation order
// is said to be uncertain. Model text is shown as plain text only.
import { useEffect, useRef, useState } from 'react';
import type { JudgeResultView } from '../../../../shared/api';
import { responseLetter } from '../../../../shared/letters';
import { api } from '../../api';

/** What the line needs of the critique boxes (renderer/src/features/critiques/useCritiques.ts). */
export interface CritiqueSink {
  ready: boolean;
  texts: Record<string, string>;
  edit(letter: string, text: string): void;
  status: { state: string } | null;
}

interface Props {
  project: string;
  annotator: string;
  item: { id: number; shownOrder: number[] } | null;
  mode: 'blind' | 'assist';
  labeled: boolean;
  critiques: CritiqueSink;
}

const STRENGTH = ['', 'slightly', 'clearly', 'much'];

export function JudgeLine({ project, annotator, item, mode, labeled, critiques }: Props) {
  const [results, setResults] = useState<{ itemId: number; list: JudgeResultView[] } | null>(null);
  const [open, setOpen] = useState(false);
  const taken = useRef<{ itemId: number; resultId: number; letter: string; noted: string | null } | null>(null);
  const itemId = item?.id ?? null;
  useEffect(() => {
    if (itemId === null) return;
    let live = true;
    setOpen(false);
    api
      .judgePrelabels({ project, itemId })
      // No judge on this item nor on the last: nothing to draw either way, so no render (the labeling
      // loop's next item is one commit of the page, test/e2e/compare-commits.test.ts).
      .then((list) => live && setResults((was) => (was && was.list.length === 0 && list.length === 0 ? was : { itemId, list })))
      .catch(() => live && setResults({ itemId, list: [] }));
    return () => {
      live = false;
    };
  }, [project, itemId]);

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

  const result = results && results.itemId === itemId ? results.list.find((r) => r.kind === 'pairwise') : undefined;
  if (!item || !result) return null;
  if (mode === 'blind' && !labeled)
    return (
      <div className="px-3 py-1 text-[12px] text-faint" data-testid="judge-hidden">
        A judge has a pre-label for this item; blind mode shows it once you label.
      </div>
    );
  if (result.error || !result.verdict)
    return (
      <div className="px-3 py-1 text-[12px] text-faint" data-testid="judge-line">
        The judge gave no answer here ({result.error ?? 'none'}).
      </div>
    );
  const side = (letter: 'A' | 'B') => (item.shownOrder.indexOf(letter === 'A' ? 0 : 1) === 0 ? 'Left' : 'Right');
  const verdict = result.verdict === 'tie' ? 'a tie' : `${side(result.verdict)}, ${STRENGTH[result.strength ?? 0] ?? ''} better`;
  const target = result.verdict === 'B' ? 'B' : result.verdict === 'A' ? 'A' : responseLetter(item.shownOrder[0]!);
  const take = () => {
    if (!result.critique) return;
    critiques.edit(target, result.critique);
    taken.current = { itemId: item.id, resultId: result.id, letter: target, noted: null };
  };
  return (
    <div className="border-t border-line bg-surface-2/40 px-3 py-1.5 text-[12.5px]" data-testid="judge-line" data-flipped={result.flipped ? 'true' : 'false'}>
      <div className="flex flex-wrap items-baseline gap-x-2">
        <span className="text-faint">{mode === 'blind' ? 'Judge (shown because you labeled this item):' : 'Judge:'}</span>
        <b className="font-medium" data-testid="judge-verdict">
          {verdict}
        </b>
        {result.flipped && (
          <span className="rounded bg-tie-soft px-1 text-tie" data-testid="judge-uncertain" title="The judge chose differently when the two responses were shown the other way round">
            uncertain: flips with the order
          </span>
        )}
        <span className="text-faint" title={`sha256 ${result.modelHash}; template v${result.templateVersion}; seed ${result.seed}`}>
          {result.modelName} · template {result.templateVersion || 'built-in'} · seed {result.seed}
        </span>
        {result.critique && (
          <button className="text-accent hover:underline" onClick={() => setOpen((v) => !v)} data-testid="judge-critique-toggle">
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
    </div>
  );
}
