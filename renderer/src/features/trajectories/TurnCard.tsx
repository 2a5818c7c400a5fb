// One agent turn as a card: its kinds at a glance (an icon and a word as well as a colour), the agent's
// text, each tool call by name with its arguments pretty-printed (a code edit as a red / green diff, a
// shell command as a terminal line), and the results, long ones folded with their size (`x` unfolds).
import { memo, type ReactNode } from 'react';
import type { TurnKind } from '../../../../shared/trajectory';
import { Markdown } from '../../components/Markdown';
import { EditDiff, Folded, JsonText, TerminalText } from './Blocks';
import type { CallView, ResultView, TurnView } from './turnModel';
import { ActedOnScreen, MessageImages } from './TurnScreens';

export const KIND: Record<TurnKind, { icon: string; word: string; cls: string }> = {
  thought: { icon: '◇', word: 'thought', cls: 'border-tie/40 bg-tie-soft text-tie' },
  tool_call: { icon: '⚙', word: 'tool call', cls: 'border-accent/40 bg-accent-soft text-accent' },
  tool_result: { icon: '↳', word: 'tool result', cls: 'border-side-l/40 bg-side-l-soft text-side-l' },
  message: { icon: '¶', word: 'message', cls: 'border-line-strong bg-surface-2 text-fg' },
  error: { icon: '⚠', word: 'error', cls: 'border-bad/50 bg-bad-soft text-bad' },
  observation: { icon: '◉', word: 'observation', cls: 'border-side-r/40 bg-side-r-soft text-side-r' },
  user: { icon: '@', word: 'user', cls: 'border-side-r/40 bg-side-r-soft text-side-r' },
};

/** A turn whose context is only a screenshot (a GUI agent's screen): it reads as a screen, not a user's turn. */
const SCREEN = { icon: '▣', word: 'screen', cls: 'border-side-r/40 bg-side-r-soft text-side-r' };

export function KindBadge({ kind }: { kind: TurnKind | 'screen' }) {
  const k = kind === 'screen' ? SCREEN : KIND[kind];
  return (
    <span className={`inline-flex items-center gap-1 rounded border px-1.5 text-[11.5px] leading-[1.65] font-medium whitespace-nowrap ${k.cls}`} data-testid="turn-kind" data-kind={kind}>
      <span aria-hidden>{k.icon}</span>
      {k.word}
    </span>
  );
}

const MONO = 'font-mono text-[12.5px] leading-[1.5] whitespace-pre-wrap break-words';
const CODE = 'font-mono text-[12.5px] leading-[1.5] whitespace-pre overflow-x-auto';
// A terminal keeps its lines as the program printed them (rules, tables, progress bars): no wrapping, a
// horizontal scroll where a line is wider than the card.
const TERMINAL = `font-mono text-[12.5px] leading-[1.5] whitespace-pre overflow-x-auto rounded-md bg-[#16171a] px-3 py-2 text-[#d7d9dc] dark:bg-[#0b0c0e] dark:ring-1 dark:ring-line`;

function Call({ call, open, onToggle, compact }: { call: CallView; open: boolean; onToggle?: () => void; compact: boolean }) {
  return (
    <div className="flex flex-col gap-1" data-testid="turn-call" data-tool={call.name}>
      <div className="flex items-baseline gap-2 text-[12.5px]">
        <span className="text-accent" aria-hidden>
          ⚙
        </span>
        <span className="font-mono font-semibold text-fg" data-testid="tool-name">
          {call.name || '(no name)'}
        </span>
        {call.id && !compact && <span className="truncate font-mono text-[11px] text-faint">{call.id}</span>}
      </div>
      {call.edit ? (
        <EditDiff edit={call.edit} open={open} />
      ) : call.command !== null ? (
        <Folded text={call.command} open={open} onToggle={onToggle} className={TERMINAL} testid="call-command" render={(t) => <><span className="text-green-400 select-none" aria-hidden>$ </span><TerminalText text={t} /></>} />
      ) : (
        <Folded
          text={call.args}
          open={open}
          onToggle={onToggle}
          testid="call-args"
          className={`${MONO} rounded-md border border-line bg-code px-3 py-1.5 text-fg`}
          render={(t) => (call.argsAreJson ? <JsonText text={t} /> : t)}
        />
      )}
    </div>
  );
}

function Result({ result, open, onToggle, children }: { result: ResultView; open: boolean; onToggle?: () => void; children?: ReactNode }) {
  const kind = result.error ? 'error' : result.role === 'tool' ? 'tool_result' : result.role === 'user' ? 'user' : 'observation';
  const k = KIND[kind];
  return (
    <div className={`flex flex-col gap-1 ${result.error ? 'rounded-md border-l-[3px] border-bad pl-2' : ''}`} data-testid="turn-result" data-error={result.error} data-terminal={result.terminal}>
      <div className={`flex flex-wrap items-baseline gap-x-2 text-[12px] ${k.cls.split(' ').filter((c) => c.startsWith('text-')).join(' ')}`}>
        <span aria-hidden>{k.icon}</span>
        <span className="font-medium">{result.error ? 'error' : result.role === 'tool' ? 'result' : result.role}</span>
        {result.name && <span className="font-mono text-muted">{result.name}</span>}
        {result.exitCode !== null && (
          <span className={`font-mono ${result.exitCode === 0 ? 'text-muted' : 'font-semibold text-bad'}`} data-testid="exit-code">
            exit {result.exitCode}
          </span>
        )}
      </div>
      {result.text === '' ? (
        children ? null : <span className="text-[12px] text-faint italic">(empty)</span>
      ) : (
        <Folded
          text={result.text}
          open={open}
          onToggle={onToggle}
          size={{ bytes: result.bytes, lines: result.lines }}
          testid="result-body"
          className={result.terminal ? TERMINAL : `${result.wrap ? MONO : CODE} rounded-md border border-line bg-code px-3 py-1.5 text-fg`}
          render={(t) => (result.terminal ? <TerminalText text={t} /> : t)}
        />
      )}
      {children}
    </div>
  );
}

interface CardProps {
  view: TurnView;
  /** Long results and arguments shown whole. */
  open: boolean;
  /** The turn's index, given back to onToggle (so one stable callback serves every card). */
  index?: number;
  onToggle?: (index: number) => void;
  /** The compare screen's narrower columns: no call ids, smaller gaps. */
  compact?: boolean;
}

/** The body of a turn's row (the step screen gives the number and the rating chip around it). */
export const TurnCard = memo(function TurnCard({ view, open, index = 0, onToggle: toggleTurn, compact = false }: CardProps) {
  const { turn } = view;
  const onToggle = toggleTurn ? () => toggleTurn(index) : undefined;
  const screenOnly = view.context.length > 0 && view.context.every((c) => !c.text.trim() && view.images.some((s) => s.message === c.message));
  return (
    <div className={`flex min-w-0 flex-col ${compact ? 'gap-1.5' : 'gap-2'}`} data-testid="turn-card" data-turn-id={turn.id} data-kinds={turn.kinds.join(' ')} data-error={view.error}>
      <div className="flex flex-wrap items-center gap-1">
        {turn.kinds.map((k) => (
          <KindBadge key={k} kind={k === 'user' && screenOnly ? 'screen' : k} />
        ))}
        {view.results.some((r) => r.error) && !turn.kinds.includes('error') && <KindBadge kind="error" />}
        {turn.agent && <span className="ml-1 text-[11.5px] text-muted">agent <b className="font-semibold text-fg">{turn.agent}</b></span>}
      </div>
      {view.context.map((c, i) => (
        <div key={i} className="rounded-md border-l-[3px] border-side-r/50 bg-side-r-soft/40 py-1 pr-2 pl-2.5 text-[14px]" data-testid="turn-context">
          <div className="text-[11px] font-semibold tracking-wide text-side-r uppercase">{c.text.trim() || !view.images.some((s) => s.message === c.message) ? c.role : 'screen'}</div>
          {c.text.trim() !== '' && <Markdown text={c.text} className="text-[14px]" headings={false} />}
          <MessageImages view={view} message={c.message} />
        </div>
      ))}
      <ActedOnScreen view={view} />
      {view.said.trim() && (
        <div className={view.thought ? 'text-muted' : ''} data-testid={view.thought ? 'turn-thought' : 'turn-message'}>
          <Markdown text={view.said} className={compact ? 'text-[14px]' : 'text-[15px]'} headings={false} />
        </div>
      )}
      {view.calls.map((c, i) => (
        <Call key={i} call={c} open={open} onToggle={onToggle} compact={compact} />
      ))}
      {view.results.map((r) => (
        <Result key={r.message} result={r} open={open} onToggle={onToggle}>
          {view.images.some((s) => s.message === r.message) ? <MessageImages view={view} message={r.message} /> : null}
        </Result>
      ))}
    </div>
  );
});
