// The disagreement queue: one task's disputed items, most disputed first, filtered by why they are here
// and whether a lead has adjudicated them. j / k or ↑ / ↓ move, Enter opens the item; t, r and h change
// the task, the reason and the adjudicated filter.
import { useEffect, useRef, useState } from 'react';
import { QUEUE_REASONS, REVIEW_TASKS, type QueueReason, type QueueRow, type ReviewReport } from '../../../../shared/api';
import { Kbd } from '../../components/Kbd';
import { useShell } from '../../context';
import { useScreenKeys } from '../../components/useScreenKeys';
import { readSelected, saveSelected, useQueue, type QueueFilters } from './useReview';
import { REASON_HELP, REASON_WORDS, TASK_TITLES, choiceWords, disputedWords, plural, trajectoryWords, votesWords } from './reviewWords';

const COLUMNS = 'grid-cols-[2.5rem_minmax(6rem,0.8fr)_8.5rem_minmax(19.5rem,1.4fr)_minmax(8rem,1fr)_5.5rem_minmax(6rem,0.8fr)_6.5rem]';
/** The most a dispute can weigh: people split evenly (1), the model against them (½), the model unsure (¼). */
const MAX_DISPUTE = 1.75;

const REASON_STYLE: Record<QueueReason, string> = {
  annotators: 'border-line-strong text-fg',
  model: 'border-bad/40 text-bad',
  uncertain: 'border-line-strong text-muted border-dashed',
  judge: 'border-accent/50 text-accent',
  sent: 'border-accent/50 bg-accent-soft text-accent',
  moments: 'border-line-strong text-fg border-dotted',
};

/** `sent`: who sent the item (reason "sent": "sent by ana"). */
export function ReasonChip({ reason, sent }: { reason: QueueReason; sent?: { by: string; at: string } }) {
  const by = reason === 'sent' && sent ? ` by ${sent.by}` : '';
  return (
    <span className={`rounded-full border px-1.5 text-[11px] leading-[1.6] whitespace-nowrap ${REASON_STYLE[reason]}`} title={`${REASON_HELP[reason]}${by && ` Sent by ${sent!.by}, ${new Date(sent!.at).toLocaleString()}.`}`} data-testid="queue-reason">
      {REASON_WORDS[reason]}
      {by}
    </span>
  );
}

export function DisputeBar({ dispute }: { dispute: number }) {
  const share = Math.max(0.03, Math.min(1, dispute / MAX_DISPUTE));
  return (
    <span className="flex items-center gap-2" title={`Dispute ${dispute.toFixed(2)}: 0 when all agree; people evenly split add 1, the model against them ½, the model unsure up to ¼`}>
      <span className="h-1.5 w-16 overflow-hidden rounded-full bg-surface-2 ring-1 ring-line" aria-hidden>
        <span className="block h-full rounded-full bg-accent" style={{ width: `${share * 100}%` }} />
      </span>
      <span className="text-[12px] tabular-nums text-muted">{dispute.toFixed(2)}</span>
    </span>
  );
}

function consensusText(row: QueueRow): string {
  if (row.consensus === null) return Object.keys(row.votes).length ? 'split evenly' : '—'; // a sent item nobody voted on
  if (row.task === 'pairwise') return row.consensus === 'A' || row.consensus === 'B' ? `${row.consensus} better` : choiceWords(row.consensus, null).toLowerCase();
  return row.consensus;
}

const METHOD_WORDS = { majority: 'majority', 'dawid-skene': 'Dawid–Skene' } as const;
const METHOD_TITLES = {
  majority: 'Decided by the majority of the votes, as on the items table and in exports',
  'dawid-skene': 'The votes split evenly: decided by Dawid–Skene (each vote weighted by its annotator’s estimated reliability)',
} as const;

function emptyText(filters: QueueFilters, report: ReviewReport | null): string {
  const task = TASK_TITLES[filters.task].toLowerCase();
  if (report && report.annotators < 2)
    return `Nothing to review yet. Items come here when two or more annotators label the same item and choose differently, when their consensus and the models disagree, or when the models are unsure. ${report.annotators === 1 ? 'Only one annotator has labeled so far.' : 'No one has labeled yet.'}`;
  if (filters.reason !== 'all')
    return `No ${task} item where ${REASON_WORDS[filters.reason]}${filters.hideAdjudicated ? ' that is not yet adjudicated' : ''}. ${
      filters.reason === 'annotators'
        ? 'People agree on every item they share.'
        : filters.reason === 'sent'
          ? 'Select rows on the Items screen and press “Send to review”.'
          : 'The model reasons need scores: score the project on the Models screen (m).'
    }`;
  if (filters.hideAdjudicated) return `Every disputed ${task} item is adjudicated. Untick “hide adjudicated” to see them again.`;
  return `No disputed ${task} item. Items come here when two or more annotators label the same item and choose differently, when their consensus and the models disagree, or when the models are unsure (score the project on the Models screen, m).`;
}

export function QueueView({ project, filters, setFilters, version, report }: { project: string; filters: QueueFilters; setFilters(f: QueueFilters): void; version: number; report: ReviewReport | null }) {
  const { navigate, keysEnabled } = useShell();
  const queue = useQueue(project, filters, version);
  const [cursor, setCursor] = useState(0);
  const restored = useRef(false);
  const list = useRef<HTMLDivElement>(null);
  const { rows, more } = queue;

  // Back from an item: select the row that was open; a new filter starts at the top.
  useEffect(() => {
    if (queue.loading) return;
    if (!restored.current) {
      restored.current = true;
      const at = rows.findIndex((r) => r.itemId === readSelected(project));
      setCursor(Math.max(0, at));
    } else setCursor((c) => Math.min(c, Math.max(0, rows.length - 1)));
  }, [queue.loading, rows, project]);
  useEffect(() => {
    list.current?.querySelector('[data-selected="true"]')?.scrollIntoView({ block: 'nearest' });
    if (cursor >= rows.length - 20) more();
  }, [cursor, rows.length, more]);

  const open = (row: QueueRow | undefined) => {
    if (!row) return;
    saveSelected(project, row.itemId);
    navigate({ name: 'review', project, task: filters.task, itemId: row.itemId });
  };
  const change = (next: Partial<QueueFilters>) => {
    restored.current = true;
    setCursor(0);
    setFilters({ ...filters, ...next });
  };
  const cycle = <T,>(list: readonly T[], current: T, by: number) => list[(list.indexOf(current) + by + list.length) % list.length]!;
  const reasons = ['all', ...QUEUE_REASONS] as const;

  useScreenKeys((event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return false;
    const page = Math.max(1, Math.floor((list.current?.clientHeight ?? 300) / 32) - 1);
    const moves: Record<string, number> = { ArrowDown: 1, j: 1, ArrowUp: -1, k: -1, PageDown: page, PageUp: -page };
    if (event.key in moves) setCursor((c) => Math.max(0, Math.min(rows.length - 1, c + moves[event.key]!)));
    else if (event.key === 'Home') setCursor(0);
    else if (event.key === 'End') setCursor(Math.max(0, rows.length - 1));
    else if (event.key === 'Enter') open(rows[cursor]);
    else if (event.key === 't' || event.key === 'T') change({ task: cycle(REVIEW_TASKS, filters.task, event.shiftKey ? -1 : 1) });
    else if (event.key === 'r') change({ reason: cycle(reasons, filters.reason, 1) });
    else if (event.key === 'h') change({ hideAdjudicated: !filters.hideAdjudicated });
    else return false;
    return true;
  }, keysEnabled);

  const chip = (active: boolean) =>
    `rounded-full border px-2 py-0.5 text-[12px] whitespace-nowrap ${active ? 'border-accent bg-accent-soft font-medium text-fg' : 'border-line-strong text-muted hover:text-fg'}`;
  const pairwise = filters.task === 'pairwise';
  return (
    <div className="flex min-h-0 flex-1 flex-col p-4">
      <section className="mx-auto flex min-h-0 w-full max-w-[1400px] flex-1 flex-col overflow-hidden rounded-md border border-line bg-surface" data-testid="review-queue">
        <div className="flex flex-col gap-2 border-b border-line px-4 py-2.5">
          <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
            <h2 className="text-[14px] font-semibold">Disagreement queue</h2>
            <span className="text-[12px] text-muted tabular-nums" data-testid="queue-count" data-total={queue.total ?? undefined}>
              {queue.total === null ? 'Loading…' : queue.total === 0 ? 'no item' : `${plural(queue.total, 'item')}, most disputed first`}
              {queue.total !== null && rows.length < queue.total && ` · ${rows.length.toLocaleString()} loaded`}
            </span>
            <div className="ml-auto flex items-center gap-1.5 text-[12px] text-muted" role="group" aria-label="Task">
              <Kbd>t</Kbd>
              <div className="flex overflow-hidden rounded-md border border-line-strong">
                {REVIEW_TASKS.map((t) => (
                  <button
                    key={t}
                    className={`px-2 py-0.5 text-[12px] ${t === filters.task ? 'bg-surface-2 font-medium text-fg' : 'text-muted hover:text-fg'} border-line-strong not-first:border-l`}
                    aria-pressed={t === filters.task}
                    onClick={() => change({ task: t })}
                    data-testid={`queue-task-${t}`}
                  >
                    {TASK_TITLES[t]}
                  </button>
                ))}
              </div>
            </div>
          </div>
          <div className="flex flex-wrap items-center gap-x-2 gap-y-1.5">
            <span className="flex items-center gap-1 text-[12px] text-muted">
              Why <Kbd>r</Kbd>
            </span>
            {reasons.map((r) => (
              <button key={r} className={chip(filters.reason === r)} aria-pressed={filters.reason === r} onClick={() => change({ reason: r })} title={r === 'all' ? 'Every reason' : REASON_HELP[r]} data-testid={`queue-reason-${r}`}>
                {r === 'all' ? 'all' : REASON_WORDS[r]}
              </button>
            ))}
            <label className="ml-3 flex items-center gap-1.5 text-[12px] text-muted">
              <input type="checkbox" checked={filters.hideAdjudicated} onChange={(e) => change({ hideAdjudicated: e.target.checked })} className="accent-[var(--accent)]" data-testid="queue-hide-adjudicated" />
              hide adjudicated <Kbd>h</Kbd>
            </label>
            <span className="ml-auto flex items-center gap-1 text-[12px] text-faint">
              <Kbd>j</Kbd>
              <Kbd>k</Kbd> move · <Kbd>Enter</Kbd> adjudicate · A / B: the file’s first / second response
            </span>
          </div>
        </div>
        <div className={`grid ${COLUMNS} gap-3 border-b border-line bg-surface-2 px-4 py-1.5 text-[11px] font-semibold tracking-wide whitespace-nowrap text-faint uppercase`} role="row">
          <span className="text-right">#</span>
          <span>Item</span>
          <span>Dispute</span>
          <span>Why</span>
          <span>Votes</span>
          <span title="The models’ mean P(A better)">{pairwise ? 'Model P(A)' : 'Labels'}</span>
          <span title="The majority of the votes (as on the items table and in exports); where they split evenly, Dawid–Skene (votes weighted by each annotator’s estimated reliability)">Consensus</span>
          <span>Adjudicated</span>
        </div>
        <div ref={list} className="min-h-[120px] flex-1 overflow-auto" role="listbox" aria-label="Disputed items" data-testid="queue-rows">
          {queue.error && (
            <div className="px-4 py-3 text-[13px] text-bad" role="alert">
              The queue could not be read: {queue.error}
            </div>
          )}
          {!queue.loading && !queue.error && rows.length === 0 && (
            <div className="max-w-[75ch] px-4 py-6 text-[13px] text-muted" data-testid="queue-empty">
              {emptyText(filters, report)}
            </div>
          )}
          {queue.loading && rows.length === 0 && <div className="px-4 py-6 text-[13px] text-muted">Reading the queue…</div>}
          {rows.map((row, i) => {
            const selected = i === cursor;
            return (
              <div
                key={row.itemId}
                role="option"
                aria-selected={selected}
                className={`grid ${COLUMNS} h-8 cursor-pointer items-center gap-3 border-b border-line px-4 text-[13px] ${selected ? 'bg-accent-soft shadow-[inset_3px_0_0_var(--accent)]' : 'hover:bg-surface-2'} ${row.adjudicated ? 'text-muted' : ''}`}
                onClick={() => {
                  setCursor(i);
                  open(row);
                }}
                data-testid="queue-row"
                data-item-id={row.itemId}
                data-selected={selected}
              >
                <span className={`text-right tabular-nums ${selected ? 'font-medium text-accent' : 'text-faint'}`}>{i + 1}</span>
                <span className="truncate font-mono text-[12px]" title={row.externalId ?? `item ${row.seq + 1}`} data-testid="queue-item">
                  {row.externalId ?? <span className="text-faint">item {row.seq + 1}</span>}
                </span>
                <DisputeBar dispute={row.dispute} />
                <span className="flex min-w-0 gap-1 overflow-hidden">
                  {row.reasons.map((r) => (
                    <ReasonChip key={r} reason={r} sent={row.sent} />
                  ))}
                  {row.trajectory && (
                    <span className="truncate text-[12px] text-muted" title={`An agent trajectory: people ${disputedWords(row.trajectory)}`} data-testid="queue-trajectory">
                      {trajectoryWords(row.trajectory)} · {row.trajectory.disputed.map((d) => (d === 'first_error' ? 'first error' : 'outcome')).join(', ')}
                    </span>
                  )}
                </span>
                <span className="truncate tabular-nums" title={`${plural(row.labels, 'label')}: ${votesWords(row.votes, row.task)}`} data-testid="queue-votes">
                  {votesWords(row.votes, row.task)}
                </span>
                <span className="tabular-nums text-muted">{pairwise ? (row.modelPA === null ? <span className="text-faint">—</span> : row.modelPA.toFixed(2)) : row.labels}</span>
                <span className="truncate" title={row.consensusMethod ? METHOD_TITLES[row.consensusMethod] : 'The votes split evenly: no consensus'} data-testid="queue-consensus" data-method={row.consensusMethod ?? ''}>
                  <span className={row.consensus === null ? 'text-faint' : ''}>{consensusText(row)}</span>
                  {row.consensusMethod && <span className="ml-1 text-[11.5px] text-faint">· {METHOD_WORDS[row.consensusMethod]}</span>}
                </span>
                <span className={row.adjudicated ? 'font-medium text-ok' : 'text-faint'} data-testid="queue-adjudicated" data-adjudicated={row.adjudicated}>
                  {row.adjudicated ? '✓ adjudicated' : '—'}
                </span>
              </div>
            );
          })}
        </div>
      </section>
    </div>
  );
}
