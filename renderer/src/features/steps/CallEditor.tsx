// `c` on a trajectory turn that calls tools: the corrected call(s), each a tool name and its arguments,
// the arguments checked as JSON as they are typed (a line and column where they stop being JSON, or
// "must be an object"); while any is not a JSON object nothing is saved, and the box says so.
// Ctrl+Enter saves; Esc saves what is valid, or leaves without saving when the arguments are not JSON
// (the status line says so). Emptying every name, or leaving the turn's own calls as they were, removes
// the correction.
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { readArgumentsText, type CorrectedCall } from '../../../../shared/stepJudgement';
import { canonical } from '../../../../shared/trajectory';
import { Kbd } from '../../components/Kbd';

export interface CallDraft {
  id?: string;
  name: string;
  args: string;
}

/** What `c` starts from: the correction already made, else the turn's own calls, pretty-printed. */
export function callDrafts(initial: CorrectedCall[] | null, own: { id: string | null; name: string; args: string }[]): CallDraft[] {
  if (initial?.length) return initial.map((c) => ({ id: c.id, name: c.name, args: JSON.stringify(c.arguments, null, 2) }));
  return own.map((c) => ({ id: c.id ?? undefined, name: c.name, args: c.args }));
}

type Checked = { calls: CorrectedCall[] } | { problems: string[] };

/** The drafts as calls, or what is wrong with each, in words. */
export function checkDrafts(drafts: CallDraft[]): Checked {
  const problems: string[] = [];
  const calls: CorrectedCall[] = [];
  drafts.forEach((d, i) => {
    const name = d.name.trim();
    if (!name && !d.args.trim()) return;
    const which = drafts.length > 1 ? `Call ${i + 1}` : 'The call';
    if (!name) problems.push(`${which} has arguments but no tool name`);
    const parsed = readArgumentsText(d.args);
    if ('error' in parsed) problems.push(`${which}’s arguments are ${parsed.error.replace(/^the arguments must be/, 'not an object: they must be')}`);
    else if (name) calls.push(d.id ? { id: d.id, name, arguments: parsed.value } : { name, arguments: parsed.value });
  });
  return problems.length ? { problems } : { calls };
}

/** The calls are the turn's own, unchanged (a correction that corrects nothing is none). */
export function sameAsOwn(calls: CorrectedCall[], own: CallDraft[]): boolean {
  const mine = checkDrafts(own);
  if (!('calls' in mine) || mine.calls.length !== calls.length) return false;
  return calls.every((c, i) => c.name === mine.calls[i]!.name && canonical(c.arguments) === canonical(mine.calls[i]!.arguments));
}

export function CallEditor({ initial, own, onDone }: { initial: CallDraft[]; own: CallDraft[]; onDone(result: { calls: CorrectedCall[] } | { cancelled: string }): void }) {
  const [drafts, setDrafts] = useState(initial.length ? initial : [{ name: '', args: '{}' }]);
  const [refused, setRefused] = useState(false);
  const first = useRef<HTMLInputElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const done = useRef(false);
  const checked = checkDrafts(drafts);
  const problems = 'problems' in checked ? checked.problems : [];
  // Focused in the frame that shows it, so keys typed right after `c` land in the editor.
  useLayoutEffect(() => {
    const el = first.current;
    if (!el) return;
    el.focus();
    el.setSelectionRange(el.value.length, el.value.length);
  }, []);
  // The whole editor, its message included, stays in view as it opens and when a save is refused.
  useEffect(() => {
    // Not an expression body: Chromium's scrollIntoView answers a promise, which React would take for a cleanup.
    void box.current?.scrollIntoView({ block: 'nearest' });
  }, [refused]);
  const finish = (save: boolean) => {
    if (done.current) return;
    if ('problems' in checked) {
      if (save) {
        setRefused(true);
        return;
      }
      done.current = true;
      onDone({ cancelled: `Corrected call not saved: ${checked.problems[0]}` });
      return;
    }
    done.current = true;
    onDone({ calls: sameAsOwn(checked.calls, own) ? [] : checked.calls });
  };
  const set = (i: number, patch: Partial<CallDraft>) => {
    setRefused(false);
    setDrafts((list) => list.map((d, k) => (k === i ? { ...d, ...patch } : d)));
  };
  return (
    <div
      ref={box}
      className="mt-2 w-full max-w-[80ch] rounded-md border border-accent bg-bg p-2 whitespace-normal"
      data-testid="call-editor"
      data-valid={problems.length === 0}
      onKeyDown={(e) => {
        if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
          e.preventDefault();
          e.stopPropagation();
          finish(true);
        } else if (e.key === 'Escape') {
          e.preventDefault();
          e.stopPropagation();
          finish(false);
        }
      }}
    >
      <div className="mb-1.5 flex items-center justify-between text-[11.5px] text-muted">
        <span className="font-semibold tracking-wide text-faint uppercase">Corrected tool call</span>
        <span>
          <Kbd>Tab</Kbd> next field · <Kbd>Ctrl</Kbd>+<Kbd>Enter</Kbd> save · <Kbd>Esc</Kbd> close · no name removes it
        </span>
      </div>
      {drafts.map((d, i) => (
        <div key={i} className="mb-2 flex flex-col gap-1" data-testid="call-draft">
          <label className="flex items-center gap-2 text-[12.5px]">
            <span className="w-20 shrink-0 text-muted">{drafts.length > 1 ? `Call ${i + 1} tool` : 'Tool'}</span>
            <input
              ref={i === 0 ? first : undefined}
              value={d.name}
              onChange={(e) => set(i, { name: e.target.value })}
              maxLength={200}
              className="h-7 flex-1 rounded border border-line-strong bg-surface px-2 font-mono text-[13px] outline-none focus:border-accent"
              data-testid="call-name"
              aria-label={drafts.length > 1 ? `Call ${i + 1}: tool name` : 'Tool name'}
            />
          </label>
          <label className="flex items-start gap-2 text-[12.5px]">
            <span className="w-20 shrink-0 pt-1 text-muted">Arguments</span>
            <textarea
              value={d.args}
              onChange={(e) => set(i, { args: e.target.value })}
              spellCheck={false}
              rows={Math.min(12, Math.max(3, d.args.split('\n').length))}
              className={`flex-1 resize-y rounded border bg-surface px-2 py-1 font-mono text-[13px] leading-[1.45] outline-none ${'error' in readArgumentsText(d.args) ? 'border-bad' : 'border-line-strong focus:border-accent'}`}
              data-testid="call-arguments"
              aria-label={drafts.length > 1 ? `Call ${i + 1}: arguments (JSON)` : 'Arguments (JSON)'}
              aria-invalid={'error' in readArgumentsText(d.args)}
            />
          </label>
        </div>
      ))}
      <div className="min-h-5 text-[12.5px] break-words" aria-live="polite" data-testid="call-editor-check">
        {problems.length ? (
          <p className={refused ? 'rounded bg-bad-soft px-1.5 py-0.5 text-bad ring-1 ring-bad' : 'text-bad'} data-testid="call-editor-error">
            {refused && <b className="font-semibold">Not saved. </b>}
            {problems.join('; ')}.
          </p>
        ) : (
          <span className="text-ok">✓ Arguments are JSON.</span>
        )}
      </div>
    </div>
  );
}
