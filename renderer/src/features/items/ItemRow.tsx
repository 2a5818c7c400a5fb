// One row of the items table. A and B always mean source order (A = the file's first response), as in
// exports and stats; the screen sides Left / Right belong to the compare screen only. Each column holds
// every task's judgement: a pair's choice, a ranking best first ("B > A = C"), step labels ("first error
// at 3", "all good"), a verdict (good / bad).
import type { ItemListRow, JudgementWords } from '../../../../shared/api';
import { plural } from '../../../../shared/plural';
import { ImageCount, splitImages } from '../datasets/TextWithImages';

export const COLUMNS = 'grid-cols-[3.5rem_8rem_minmax(0,1fr)_7.5rem_8rem_6.5rem_6.5rem_5rem]';

const CHOICE_TEXT: Record<string, string> = { A: 'A', B: 'B', tie: '= tie', both_bad: '✕ both bad', split: 'split' };
const CHOICE_STYLE: Record<string, string> = { A: 'text-fg', B: 'text-fg', tie: 'text-tie', both_bad: 'text-bad', split: 'text-muted' };

export function ChoiceChip({ choice }: { choice: string | null }) {
  if (!choice) return <span className="text-faint">—</span>;
  return <span className={`font-medium whitespace-nowrap ${CHOICE_STYLE[choice] ?? ''}`}>{CHOICE_TEXT[choice] ?? choice}</span>;
}

const JUDGEMENT_STYLE: Record<string, string> = { good: 'text-ok', bad: 'text-bad', split: 'text-muted', 'all good': 'text-ok' };

/** A ranking, step judgement or verdict in words, coloured where it is good or bad. */
function Judgement({ words }: { words: JudgementWords }) {
  const style = JUDGEMENT_STYLE[words.text] ?? (words.text.startsWith('first error') ? 'text-bad' : 'text-fg');
  return <span className={`font-medium whitespace-nowrap ${style}`}>{words.text}</span>;
}

/** A cell of every task's judgement: the pair's choice first, then the others; "—" when there is none. */
export function JudgementsCell({ choice, others, testId, extra }: { choice: string | null; others: JudgementWords[]; testId?: string; extra?: string }) {
  const title = [choice ? `choice ${choice}` : null, ...others.map((o) => `${o.task}: ${o.text}`)].filter(Boolean).join(' · ');
  return (
    <span className="truncate" data-testid={testId} title={title ? `${title}${extra ?? ''}` : undefined}>
      {!choice && others.length === 0 && <span className="text-faint">—</span>}
      {choice && <ChoiceChip choice={choice} />}
      {others.map((o, i) => (
        <span key={o.task}>
          {(choice || i > 0) && <span className="text-faint"> · </span>}
          <Judgement words={o} />
        </span>
      ))}
    </span>
  );
}

/** The label the models are compared with: yours, else the humans' majority, else the file's. */
export function referenceChoice(row: ItemListRow): string | null {
  if (row.myChoice) return row.myChoice;
  if (row.consensus) return row.consensus;
  return row.sourceChoice;
}

export function ModelCell({ row }: { row: ItemListRow }) {
  const model = row.model;
  if (row.modelRanking)
    return (
      <span className="truncate font-medium whitespace-nowrap" title={`The models' ranking by mean reward, best first: ${row.modelRanking}`} data-testid="item-model">
        {row.modelRanking}
      </span>
    );
  if (!model) return <span className="text-faint">—</span>;
  const reference = referenceChoice(row);
  const disagrees = (reference === 'A' || reference === 'B') && model.vote !== 'tie' && model.vote !== reference;
  const p = model.vote === 'B' ? 1 - model.pA : model.pA;
  const title = `${model.models > 1 ? `${model.models} models` : 'The model'}: P(A better) = ${model.pA.toFixed(2)}${disagrees ? ` — picks ${model.vote}, the label says ${reference}` : ''}`;
  return (
    <span className="flex items-baseline gap-1.5 whitespace-nowrap tabular-nums" title={title} data-testid="item-model">
      <ChoiceChip choice={model.vote} />
      <span className="text-[12px] text-muted">{Math.round(p * 100)}%</span>
      {disagrees && (
        <span className="font-bold text-bad" data-testid="item-model-disagrees" aria-label="disagrees with the label">
          ≠
        </span>
      )}
    </span>
  );
}

export function ItemRow({ row, selected }: { row: ItemListRow; selected: boolean }) {
  const prompt = splitImages(row.prompt);
  return (
    <>
      <span className={`text-right tabular-nums ${selected ? 'font-medium text-accent' : 'text-faint'}`}>{row.seq + 1}</span>
      <span className="truncate font-mono text-[12px] text-muted" title={row.externalId ?? ''}>
        {row.externalId ?? '—'}
      </span>
      <span className="truncate" title={prompt.text}>
        <ImageCount images={prompt.images} testId="item-prompt-images" />
        {prompt.text}
        {row.responses !== 2 && <span className="ml-2 text-[12px] text-faint">{plural(row.responses, 'response')}</span>}
      </span>
      <JudgementsCell choice={row.myChoice} others={row.mine} testId="item-mine" />
      <HumansCell row={row} />
      <JudgementsCell choice={row.sourceChoice} others={row.source} testId="item-source" />
      <ModelCell row={row} />
      <span className="truncate text-[12px]" data-testid="item-adjudicated">
        {row.adjudicated ? (
          <span className="font-medium text-ok" title="A lead adjudicated this item: its resolution is the gold label on export">
            ✓ gold
          </span>
        ) : (
          <span className="text-faint">—</span>
        )}
      </span>
    </>
  );
}

/** The people's judgements (a pair's majority, else what they share or "split"), and how many gave one. */
export function HumansCell({ row }: { row: ItemListRow }) {
  return (
    <span className="truncate tabular-nums" data-testid="item-humans" title={humansTitle(row)}>
      <JudgementsCell choice={row.consensus} others={row.humans} />
      {humanCount(row) > 0 && <span className="ml-1 text-[12px] text-faint">· {humanCount(row)}</span>}
    </span>
  );
}

/** The most people who judged the item in any one task. */
function humanCount(row: ItemListRow): number {
  return Math.max(row.labels, ...row.humans.map((h) => h.labels));
}

function humansTitle(row: ItemListRow): string {
  const parts = [row.labels ? `${plural(row.labels, 'human label')} of the choice` : null, ...row.humans.map((h) => `${h.task}: ${h.text} (${plural(h.labels, 'person', 'people')})`)];
  const said = parts.filter(Boolean);
  return said.length ? said.join(' · ') : 'No human judgement yet';
}
