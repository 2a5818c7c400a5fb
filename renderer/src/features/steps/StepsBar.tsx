// The thin bar above the steps: where the item is, which response (A, B… in the file's order; [ and ]
// switch on an item with several), how far the judgement is, and the way back to the compare screen.
import { responseLetter } from '../../../../shared/letters';
import { Kbd } from '../../components/Kbd';
import { isAfterError, type Judgement } from './judgement';
import { pluralWord } from '../../../../shared/plural';

interface Props {
  itemNumber: number;
  total: number;
  externalId: string | null;
  response: number;
  responseCount: number;
  model: string | null;
  method: string;
  version: number;
  judgement: Judgement;
  labeledHere: number;
  /** A trajectory's steps are its turns. */
  noun?: 'step' | 'turn';
  onBack: (() => void) | null;
}

const METHOD_WORDS: Record<string, string> = {
  auto: 'Arbiter (auto)',
  markers: '“Step N:” markers',
  numbered: 'numbered lines',
  paragraphs: 'paragraphs',
  lines: 'lines',
  whole: 'one step',
  file: 'the file’s steps',
  annotator: 'split / merged by hand',
};

export function StepsBar(p: Props) {
  const j = p.judgement;
  const noun = p.noun ?? 'step';
  const needed = j.ratings.filter((_, i) => !isAfterError(j, i)).length;
  const rated = j.ratings.filter((r, i) => r !== null && !isAfterError(j, i)).length;
  return (
    <div className="flex shrink-0 items-center gap-3 border-b border-line bg-surface-2/60 px-4 py-1 text-[12px] whitespace-nowrap text-muted" data-testid="steps-bar">
      <span data-testid="item-position">
        Item <b className="font-semibold text-fg tabular-nums">{p.itemNumber}</b> of <span className="tabular-nums">{p.total.toLocaleString()}</span>
      </span>
      {p.externalId && <span className="max-w-[16ch] truncate text-faint">id {p.externalId}</span>}
      <span className="h-4 border-l border-line" aria-hidden />
      <span className="flex items-center gap-1.5" data-testid="steps-response" data-response={p.response}>
        {p.responseCount > 1 && <Kbd>[</Kbd>}
        <span>
          Response <b className="font-semibold text-fg">{responseLetter(p.response)}</b>
          {p.responseCount > 1 && <span className="text-faint"> of {p.responseCount}</span>}
          {p.model && <span className="text-faint"> · {p.model}</span>}
        </span>
        {p.responseCount > 1 && <Kbd>]</Kbd>}
      </span>
      <span className="hidden text-faint lg:inline" title="How the response was cut into steps, and the version of that cut">
        {noun === 'turn' && p.method === 'file' ? 'one step per agent turn' : `cut by ${METHOD_WORDS[p.method] ?? p.method}`} · v{p.version}
      </span>
      <span className="h-4 border-l border-line" aria-hidden />
      <span data-testid="steps-progress">
        <b className="font-semibold text-fg tabular-nums">{rated}</b> of {needed} {pluralWord(needed, noun)} rated
        {j.firstError !== null && (
          <span className={j.firstError >= 0 ? 'text-bad' : 'text-ok'}> · {j.firstError >= 0 ? `first error: ${noun} ${j.firstError + 1}` : 'no error'}</span>
        )}
      </span>
      <span className="hidden text-faint xl:inline" data-testid="labeled-here" title="Items that had no step labels of yours and have them now, in this session">
        · {p.labeledHere} newly labeled this session
      </span>
      {p.onBack && (
        <button className="ml-auto flex items-center gap-1.5 rounded px-1.5 py-0.5 hover:bg-surface hover:text-fg" onClick={p.onBack} data-testid="back-to-compare" title="Back to the compare screen on this item (Esc)">
          ← Compare this pair <Kbd>Esc</Kbd>
        </button>
      )}
    </div>
  );
}
