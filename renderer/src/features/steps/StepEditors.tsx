// The small editors that open on the current step: the tag picker (t), the correction box (c) and the
// split caret (s). The picker and the caret take their keys from the screen (the picker's letters filter it); the box is a text box,
// so no shortcut fires while typing in it, and Esc returns to the keys.
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Kbd } from '../../components/Kbd';
import { CallEditor, callDrafts } from './CallEditor';
import { SeverityPrompt, useTurnJudging } from './TurnJudging';
import { shownTags } from './tagFilter';
import { useOnScreen } from './useOnScreen';

export function TagPicker({ tags, chosen, filter, highlight, onToggle }: { tags: string[]; chosen: string[]; filter: string; highlight: number; onToggle(tag: string): void }) {
  // A trajectory turn: once a tag is applied, the picker asks how bad it is (1 / 2 / 3).
  const judging = useTurnJudging();
  const asking = Boolean(judging?.askSeverity);
  const shown = useMemo(() => shownTags(tags, filter), [tags, filter]);
  const root = useRef<HTMLDivElement>(null);
  const list = useRef<HTMLUListElement>(null);
  useOnScreen(root, list, `${asking}:${shown.length}`);
  // The highlighted row scrolled into view within the list as the arrows move it.
  useLayoutEffect(() => {
    const row = list.current?.children[highlight] as HTMLElement | undefined;
    // Not an expression body: Chromium's scrollIntoView answers a promise, which React would take for a cleanup.
    if (row) void row.scrollIntoView({ block: 'nearest' });
  }, [highlight, shown]);
  return (
    <div ref={root} className="mt-2 w-full max-w-md rounded-md border border-line-strong bg-surface shadow-md" data-testid="tag-picker" role="listbox" aria-label="Error tags" aria-multiselectable>
      <div className="flex flex-wrap items-center justify-between gap-x-2 border-b border-line px-2.5 py-1 text-[11.5px] text-muted">
        <span>Error tags for this step</span>
        <span className="flex items-center gap-1">
          type to filter · <Kbd>↑</Kbd>
          <Kbd>↓</Kbd> <Kbd>Enter</Kbd> toggle · <Kbd>1</Kbd>–<Kbd>9</Kbd> · <Kbd>Tab</Kbd> correct · <Kbd>Esc</Kbd> done
        </span>
      </div>
      {filter && (
        <div className="flex items-center gap-1.5 border-b border-line px-2.5 py-1 text-[12.5px]" data-testid="tag-filter">
          <span className="text-muted">Filter</span>
          <span className="font-mono text-fg">{filter}</span>
          <span className="h-[1.1em] w-px bg-accent" aria-hidden />
          <span className="ml-auto text-faint">
            {shown.length} of {tags.length} · <Kbd>Esc</Kbd> clears
          </span>
        </div>
      )}
      {tags.length === 0 && <p className="px-2.5 py-2 text-[13px] text-muted">This project has no error tags. Add them in the project’s settings.</p>}
      {tags.length > 0 && shown.length === 0 && (
        <p className="px-2.5 py-2 text-[13px] text-muted" data-testid="tag-none">
          No tag holds “{filter}”. <Kbd>Backspace</Kbd> or <Kbd>Esc</Kbd>
        </p>
      )}
      <ul ref={list} className="max-h-64 overflow-y-auto py-1" data-testid="tag-list">
        {shown.map((tag, i) => {
          const on = chosen.includes(tag);
          return (
            <li key={tag}>
              <button
                role="option"
                aria-selected={on}
                tabIndex={-1}
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => onToggle(tag)}
                className={`flex w-full items-center gap-2 px-2.5 py-1 text-left text-[13px] ${i === highlight ? 'bg-accent-soft text-fg' : 'text-fg hover:bg-surface-2'}`}
                data-testid="tag-option"
                data-tag={tag}
                data-on={on}
                data-highlighted={i === highlight}
              >
                <span className={`flex h-4 w-4 items-center justify-center rounded border text-[11px] ${on ? 'border-accent bg-accent text-white dark:text-[#111]' : 'border-line-strong'}`} aria-hidden>
                  {on ? '✓' : ''}
                </span>
                <span className="flex-1">{tag}</span>
                {i < 9 && <Kbd>{i + 1}</Kbd>}
              </button>
            </li>
          );
        })}
      </ul>
      {asking && <SeverityPrompt chosen={judging!.judgement.severity[String(judging!.cursor)]} />}
    </div>
  );
}

/** `c`: the corrected step as text; on a trajectory turn that calls tools, the corrected call(s) instead. */
export function CorrectionBox({ initial, onDone }: { initial: string; onDone(text: string): void }) {
  const judging = useTurnJudging();
  const turn = judging?.turns[judging.cursor];
  if (judging && turn && turn.calls.length) {
    const held = judging.judgement.corrections[String(judging.cursor)];
    const drafts = callDrafts(held && typeof held !== 'string' ? held.tool_calls : null, turn.calls);
    return <CallEditor initial={drafts} own={callDrafts(null, turn.calls)} onDone={judging.onCalls} />;
  }
  return <TextCorrectionBox initial={initial} onDone={onDone} />;
}

function TextCorrectionBox({ initial, onDone }: { initial: string; onDone(text: string): void }) {
  const [text, setText] = useState(initial);
  const box = useRef<HTMLTextAreaElement>(null);
  const done = useRef(false);
  const finish = (value: string) => {
    if (done.current) return;
    done.current = true;
    onDone(value);
  };
  // Focused in the frame that shows it, so the keys typed right after `c` land in the box. The step's
  // text is selected whole: what is typed replaces it (a rewrite, not text added after the old step),
  // and an arrow key keeps it to edit where the caret goes.
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    el.focus();
    el.setSelectionRange(0, el.value.length, 'backward');
  }, []);
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${Math.min(el.scrollHeight + 2, 320)}px`;
  }, [text]);
  return (
    <div className="mt-2 w-full max-w-[80ch]" data-testid="correction-editor">
      <label className="mb-1 flex items-center justify-between text-[11.5px] text-muted">
        <span className="font-semibold tracking-wide text-faint uppercase">Corrected step</span>
        <span>
          <Kbd>Esc</Kbd> or <Kbd>Ctrl</Kbd>+<Kbd>Enter</Kbd> done · empty removes it
        </span>
      </label>
      <textarea
        ref={box}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onBlur={() => finish(text)}
        onKeyDown={(e) => {
          if (e.key === 'Escape' || (e.key === 'Enter' && (e.ctrlKey || e.metaKey))) {
            e.preventDefault();
            e.stopPropagation();
            finish(text);
          }
        }}
        maxLength={20000}
        className="w-full resize-none rounded-md border border-accent bg-bg px-2.5 py-1.5 text-[14.5px] leading-[1.5] outline-none"
        data-testid="correction-input"
        aria-label="Corrected step"
      />
    </div>
  );
}

/** The step's text as written, with a caret where the split would go; the second half is shaded. */
export function SplitView({ text, at }: { text: string; at: number }) {
  const caret = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    // Not an expression body: Chromium's scrollIntoView answers a promise, which React would take for a cleanup.
    void caret.current?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [at]);
  return (
    <div className="w-full max-w-[80ch]" data-testid="split-view" data-at={at}>
      <div className="mb-1.5 flex flex-wrap items-center gap-x-3 gap-y-1 text-[11.5px] text-muted">
        <span className="font-semibold tracking-wide text-accent uppercase">Split this step</span>
        <span>
          <Kbd>←</Kbd> <Kbd>→</Kbd> word · <Kbd>↑</Kbd> <Kbd>↓</Kbd> sentence · <Kbd>Enter</Kbd> split here · <Kbd>Esc</Kbd> cancel
        </span>
      </div>
      <div className="rounded-md border border-line-strong bg-bg px-3 py-2 text-[15px] leading-[1.6] whitespace-pre-wrap">
        <span>{text.slice(0, at)}</span>
        <span
          ref={caret}
          className="relative mx-px inline-block h-[1.2em] w-[2px] translate-y-[0.2em] bg-accent align-baseline"
          aria-label="Split here"
          data-testid="split-caret"
        >
          <span className="absolute -top-[1.05em] -left-[0.45em] text-[11px] text-accent" aria-hidden>
            ✂
          </span>
        </span>
        <span className="rounded-sm bg-accent-soft/70">{text.slice(at)}</span>
      </div>
    </div>
  );
}
