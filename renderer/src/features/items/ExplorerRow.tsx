// One row of the explorer: a check, the item's number and id, its prompt with the search hit in context
// under it, then every task's judgements (yours, the people's, the model's), how much people split, gold.
import { memo } from 'react';
import type { ItemsRow } from '../../../../shared/api';
import { plural } from '../../../../shared/plural';
import { ImageCount, splitImages } from '../datasets/TextWithImages';
import { Highlight, type Segment } from './Highlight';
import { HumansCell, JudgementsCell, ModelCell } from './ItemRow';

export const EXPLORER_COLUMNS = 'grid-cols-[1.25rem_3.25rem_6.5rem_minmax(0,1fr)_6rem_6.5rem_6.5rem_3rem_2.75rem]';

const SHAPE_WORDS: Record<string, string> = { ranking: 'ranking', chain: 'chain', trajectory: 'trajectory', single: 'single' };

/**
 * Where the search words were found (the full-text index's snippets: a field and its text in runs, hit or
 * not): a field other than the prompt first, the prompt being on the line above.
 */
function snippetOf(row: ItemsRow): { field: string; parts: Segment[] } | null {
  const snippets = row.snippets ?? [];
  return snippets.find((s) => s.field !== 'prompt') ?? snippets[0] ?? null;
}

/** What a row's check, click and double click do, by row index: one object for every row, so a row redraws only when its own props change. */
export interface RowActions {
  check(index: number): void;
  click(index: number): void;
  open(index: number): void;
}

/** Memoized: while the list scrolls, the rows already drawn are not drawn again. */
export const ExplorerRow = memo(function ExplorerRow(props: { row: ItemsRow; index: number; current: boolean; checked: boolean; actions: RowActions }) {
  const { row, index, current, checked, actions } = props;
  const prompt = splitImages(row.prompt);
  const snippet = snippetOf(row);
  const tone = current ? 'bg-accent-soft shadow-[inset_3px_0_0_var(--accent)]' : checked ? 'bg-surface-2' : 'hover:bg-surface-2';
  return (
    <div
      id={`explorer-row-${index}`}
      role="option"
      aria-selected={checked}
      className={`grid h-full ${EXPLORER_COLUMNS} cursor-default items-center gap-3 border-b border-line px-3 text-[13px] ${tone}`}
      onClick={() => actions.click(index)}
      onDoubleClick={() => actions.open(index)}
      data-testid="explorer-row"
      data-current={current || undefined}
      data-checked={checked || undefined}
      data-item={row.id}
    >
      <input
        type="checkbox"
        tabIndex={-1}
        checked={checked}
        onChange={() => actions.check(index)}
        onClick={(e) => e.stopPropagation()}
        aria-label={`Select item ${row.seq + 1}`}
        className="size-3.5 accent-[var(--accent)]"
        data-testid="explorer-check"
      />
      <span className={`text-right tabular-nums ${current ? 'font-medium text-accent' : 'text-faint'}`}>{row.seq + 1}</span>
      <span className="truncate font-mono text-[12px] text-muted" title={row.externalId ?? ''}>
        {row.externalId ?? '—'}
      </span>
      <span className="flex min-w-0 flex-col leading-[1.3]">
        <span className="truncate" title={prompt.text}>
          <ImageCount images={prompt.images} testId="item-prompt-images" />
          {prompt.text}
          {SHAPE_WORDS[row.shape] && (
            <span className="ml-2 text-[11.5px] text-faint">
              {SHAPE_WORDS[row.shape]}
              {row.shape === 'ranking' ? ` of ${row.responses}` : ''}
            </span>
          )}
        </span>
        {snippet ? (
          <span className="truncate text-[12px] text-muted" data-testid="explorer-snippet">
            {snippet.field && <span className="mr-1 text-[11px] font-medium tracking-wide text-faint uppercase">{snippet.field}</span>}
            <Highlight segments={snippet.parts} />
          </span>
        ) : (
          <span className="truncate text-[12px] text-faint">
            {plural(row.responses, 'response')} · {row.length.toLocaleString()} characters
          </span>
        )}
      </span>
      <JudgementsCell choice={row.myChoice} others={row.mine} testId="item-mine" />
      <HumansCell row={row} />
      <ModelCell row={row} />
      <span className="text-right text-[12px] tabular-nums" title={row.disputed.length ? `People split on: ${row.disputed.join(', ')}` : 'No split'} data-testid="item-dispute">
        {row.dispute > 0 ? <span className="font-medium text-bad">{Math.round(row.dispute * 100)}</span> : <span className="text-faint">—</span>}
      </span>
      <span className="text-[12px]" data-testid="item-adjudicated">
        {row.adjudicated ? <span className="font-medium text-ok">✓</span> : <span className="text-faint">—</span>}
      </span>
    </div>
  );
});
