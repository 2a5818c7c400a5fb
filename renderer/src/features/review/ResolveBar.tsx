// The lead's decision bar, sticky at the bottom of the item: the task's choices with their keys, the
// note, and Record (Ctrl+Enter). Keys pick; nothing is recorded until Record.
import type { RefObject } from 'react';
import type { Choice } from '../../../../shared/domain';
import { Kbd } from '../../components/Kbd';
import { complete, draftWords, OUTCOME_KEYS, place, setOutcome, takeBack, type Draft, type Strength } from './drafts';
import { letter } from './reviewWords';

interface Props {
  draft: Draft;
  setDraft(draft: Draft): void;
  responses: number;
  note: string;
  setNote(note: string): void;
  noteRef: RefObject<HTMLTextAreaElement | null>;
  onRecord(): void;
  saving: boolean;
  /** What happened to the last Record: an error to read, or null. */
  error: string | null;
}

const PAIRWISE: { choice: Choice; key: string; text: string; tone: string }[] = [
  { choice: 'A', key: '1', text: 'A better', tone: 'text-fg' },
  { choice: 'B', key: '2', text: 'B better', tone: 'text-fg' },
  { choice: 'tie', key: '3', text: 'Tie', tone: 'text-tie' },
  { choice: 'both_bad', key: '4', text: 'Both bad', tone: 'text-bad' },
];

const STRENGTHS: { value: Strength; text: string; key: string }[] = [
  { value: 1, text: 'slightly', key: 's' },
  { value: 2, text: 'clearly', key: '' },
  { value: 3, text: 'much', key: '⇧' },
];

const option = (active: boolean) =>
  `flex items-center gap-1.5 rounded-md border px-2.5 py-1 text-[13px] whitespace-nowrap ${active ? 'border-accent bg-accent-soft font-medium text-fg' : 'border-line-strong bg-surface text-muted hover:text-fg'}`;

function PairwiseChoices({ draft, setDraft }: { draft: Extract<Draft, { task: 'pairwise' }>; setDraft(d: Draft): void }) {
  const side = draft.choice === 'A' || draft.choice === 'B';
  return (
    <>
      <div className="flex items-center gap-1.5" role="group" aria-label="Resolved choice">
        {PAIRWISE.map((c) => (
          <button
            key={c.choice}
            className={option(draft.choice === c.choice)}
            aria-pressed={draft.choice === c.choice}
            onClick={() => setDraft({ ...draft, choice: c.choice, strength: c.choice === 'A' || c.choice === 'B' ? (draft.strength ?? 2) : null, slight: false })}
            data-testid={`resolve-${c.choice}`}
          >
            <Kbd>{c.key}</Kbd>
            <span className={draft.choice === c.choice ? c.tone : ''}>{c.text}</span>
          </button>
        ))}
      </div>
      <div className={`flex items-center gap-1 border-l border-line pl-2 text-[12px] ${side ? '' : 'opacity-50'}`} role="group" aria-label="Strength" data-testid="resolve-strength">
        {STRENGTHS.map((s) => (
          <button
            key={s.value}
            disabled={!side}
            className={`rounded px-1.5 py-0.5 ${side && draft.strength === s.value ? 'bg-surface-2 font-medium text-fg ring-1 ring-line-strong' : 'text-muted hover:text-fg'}`}
            aria-pressed={side && draft.strength === s.value}
            onClick={() => setDraft({ ...draft, strength: s.value })}
          >
            {s.text}
            {s.key && <Kbd className="ml-1">{s.key}</Kbd>}
          </button>
        ))}
        {draft.slight && (
          <span className="ml-1 font-medium text-accent" data-testid="resolve-slight-armed">
            next choice: slightly
          </span>
        )}
      </div>
    </>
  );
}

function VerdictChoices({ draft, setDraft }: { draft: Extract<Draft, { task: 'verdict' }>; setDraft(d: Draft): void }) {
  return (
    <div className="flex items-center gap-1.5" role="group" aria-label="Resolved verdict">
      {(['good', 'bad'] as const).map((v) => (
        <button key={v} className={option(draft.verdict === v)} aria-pressed={draft.verdict === v} onClick={() => setDraft({ ...draft, verdict: v })} data-testid={`resolve-${v}`}>
          <Kbd>{v[0]}</Kbd>
          <span className={draft.verdict === v ? (v === 'good' ? 'text-ok' : 'text-bad') : ''}>{v === 'good' ? 'Good' : 'Bad'}</span>
        </button>
      ))}
    </div>
  );
}

function RankingChoices({ draft, setDraft, responses }: { draft: Extract<Draft, { task: 'ranking' }>; setDraft(d: Draft): void; responses: number }) {
  const placed = draft.ranking.flat();
  const placeOf = (i: number) => draft.ranking.findIndex((group) => group.includes(i)) + 1;
  return (
    <div className="flex flex-wrap items-center gap-1.5 text-[13px]" aria-label="Resolved ranking">
      {Array.from({ length: responses }, (_, i) => (
        <button key={i} className={option(placed.includes(i))} disabled={placed.includes(i)} onClick={() => setDraft(place(draft, i, responses))} data-testid={`resolve-rank-${letter(i)}`}>
          <Kbd>{i + 1}</Kbd> {letter(i)}
          {placed.includes(i) && <span className="text-[11px] font-normal text-muted">#{placeOf(i)}</span>}
        </button>
      ))}
      <button className={option(draft.tieNext)} onClick={() => setDraft({ ...draft, tieNext: !draft.tieNext })} disabled={!draft.ranking.length}>
        <Kbd>=</Kbd> tie next
      </button>
      <button className={option(false)} onClick={() => setDraft(takeBack(draft, false))} disabled={!draft.ranking.length}>
        <Kbd>⌫</Kbd> back
      </button>
    </div>
  );
}

function StepsChoices({ draft, setDraft }: { draft: Extract<Draft, { task: 'steps' }>; setDraft(d: Draft): void }) {
  const key = letter(draft.response);
  const trajectory = draft.trajectories.includes(key);
  const outcomes = OUTCOME_KEYS[trajectory ? 'trajectory' : 'chain'];
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-[12px] text-muted">
      <span>
        response <span className="font-semibold text-fg">{key}</span>, {trajectory ? 'turn' : 'step'} <span className="font-semibold text-fg tabular-nums">{draft.step + 1}</span>
      </span>
      <span className="flex items-center gap-1">
        <Kbd>j</Kbd>
        <Kbd>k</Kbd> {trajectory ? 'turn' : 'step'}
      </span>
      <span className="flex items-center gap-1">
        <Kbd>[</Kbd>
        <Kbd>]</Kbd> response
      </span>
      <span className="flex items-center gap-1">
        <Kbd>f</Kbd> first error here
      </span>
      <span className="flex items-center gap-1">
        <Kbd>o</Kbd> no error
      </span>
      <div className="flex items-center gap-1.5 border-l border-line pl-3" role="group" aria-label={`Outcome of response ${key}`}>
        <span>{trajectory ? 'task outcome' : 'final answer'}</span>
        {outcomes.map((o, i) => (
          <button key={o} className={option(draft.outcome[key] === o)} aria-pressed={draft.outcome[key] === o} onClick={() => setDraft({ ...draft, outcome: setOutcome(draft.outcome, key, o) })} data-testid={`resolve-outcome-${o}`}>
            <Kbd>{i + 1}</Kbd> {o}
          </button>
        ))}
      </div>
    </div>
  );
}

export function ResolveBar({ draft, setDraft, responses, note, setNote, noteRef, onRecord, saving, error }: Props) {
  const ready = complete(draft, responses);
  return (
    <div className="shrink-0 border-t border-line bg-surface px-4 py-2 shadow-[0_-1px_6px_rgba(0,0,0,0.04)]" data-testid="resolve-bar">
      <div className="mx-auto flex max-w-[1800px] flex-wrap items-center gap-x-3 gap-y-2">
        <span className="text-[11px] font-semibold tracking-wide text-faint uppercase">Resolve</span>
        {draft.task === 'pairwise' ? (
          <PairwiseChoices draft={draft} setDraft={setDraft} />
        ) : draft.task === 'verdict' ? (
          <VerdictChoices draft={draft} setDraft={setDraft} />
        ) : draft.task === 'ranking' ? (
          <RankingChoices draft={draft} setDraft={setDraft} responses={responses} />
        ) : (
          <StepsChoices draft={draft} setDraft={setDraft} />
        )}
        <span className="border-l border-line pl-3 text-[13px]" data-testid="resolve-draft">
          <span className="text-faint">Gold label: </span>
          <span className={ready ? 'font-medium' : 'text-muted'}>{draftWords(draft, responses)}</span>
        </span>
      </div>
      <div className="mx-auto mt-2 flex max-w-[1800px] items-start gap-2">
        <textarea
          ref={noteRef}
          value={note}
          onChange={(e) => setNote(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.preventDefault();
              e.currentTarget.blur();
            } else if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
              e.preventDefault();
              onRecord();
            }
          }}
          rows={note.includes('\n') ? 3 : 1}
          placeholder="Note: why this is the gold label (n to write, Esc back to the keys)"
          className="min-h-[32px] flex-1 resize-y rounded-md border border-line-strong bg-surface px-2.5 py-1.5 text-[13px] text-fg placeholder:text-faint"
          aria-label="Adjudication note"
          data-testid="resolve-note"
        />
        <button
          className="flex h-8 items-center gap-1.5 rounded-md border border-accent bg-accent px-3 text-[13px] font-medium text-white disabled:border-line-strong disabled:bg-surface-2 disabled:text-faint dark:text-[#111]"
          onClick={onRecord}
          disabled={!ready || saving}
          title={ready ? 'Record this as the item’s gold label' : 'Choose the resolution first'}
          data-testid="resolve-record"
        >
          {saving ? 'Recording…' : 'Record'}
          <span className="rounded border border-current/40 px-1 font-mono text-[11px] opacity-90">Ctrl+Enter</span>
        </button>
      </div>
      {error && (
        <p className="mx-auto mt-1.5 max-w-[1800px] text-[13px] text-bad" role="alert" data-testid="resolve-error">
          Not recorded: {error}
        </p>
      )}
    </div>
  );
}
