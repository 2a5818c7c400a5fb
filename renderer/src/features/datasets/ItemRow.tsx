// One row of the items table. A and B always mean source order (A = the file's first response), as in
// exports and stats; the screen sides Left / Right belong to the compare screen only.
import type { ItemListRow } from '../../../../shared/api';
import { plural } from '../../../../shared/plural';
import { ImageCount, splitImages } from './TextWithImages';

export const COLUMNS = 'grid-cols-[3.5rem_8rem_minmax(0,1fr)_5.5rem_7rem_5.5rem_6.5rem_5rem]';

const CHOICE_TEXT: Record<string, string> = { A: 'A', B: 'B', tie: '= tie', both_bad: '✕ both bad', split: 'split' };
const CHOICE_STYLE: Record<string, string> = { A: 'text-fg', B: 'text-fg', tie: 'text-tie', both_bad: 'text-bad', split: 'text-muted' };

export function ChoiceChip({ choice }: { choice: string | null }) {
  if (!choice) return <span className="text-faint">—</span>;
  return <span className={`font-medium whitespace-nowrap ${CHOICE_STYLE[choice] ?? ''}`}>{CHOICE_TEXT[choice] ?? choice}</span>;
}

/** The label the models are compared with: yours, else the humans' majority, else the file's. */
export function referenceChoice(row: ItemListRow): string | null {
  if (row.myChoice) return row.myChoice;
  if (row.consensus) return row.consensus;
  return row.sourceChoice;
}

function ModelCell({ row }: { row: ItemListRow }) {
  const model = row.model;
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
      <span className="truncate" data-testid="item-mine">
        <ChoiceChip choice={row.myChoice} />
      </span>
      <span className="truncate tabular-nums" title={row.labels ? `${row.labels} human label${row.labels === 1 ? '' : 's'}` : 'No human label yet'}>
        <ChoiceChip choice={row.consensus} />
        {row.labels > 0 && <span className="ml-1 text-[12px] text-faint">· {row.labels}</span>}
      </span>
      <span className="truncate" data-testid="item-source">
        <ChoiceChip choice={row.sourceChoice} />
      </span>
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
