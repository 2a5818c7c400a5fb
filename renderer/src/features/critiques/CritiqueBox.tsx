// The critique box under a response: one line that grows with its text, `k` to write (Shift+K: the right
// response), Esc to leave. When the item came with a critique (a file's or a model's) the box starts with
// it, says so, and can show the original beside an edit. The flag "right verdict, wrong reasoning" sits
// on the same line.
import { forwardRef, useEffect, useRef, useState } from 'react';
import { SaveMark } from '../../components/SaveMark';
import type { Critiques } from './useCritiques';

interface Props {
  critiques: Critiques;
  letter: string;
  /** "Left", "Right", or "Response". */
  side: string;
  /** The key that focuses this box, shown in its placeholder. */
  keyHint: string;
  /** Show the save mark here (the box written last). */
  showStatus?: boolean;
}

export const CritiqueBox = forwardRef<HTMLTextAreaElement, Props>(function CritiqueBox({ critiques, letter, side, keyHint, showStatus }, ref) {
  const local = useRef<HTMLTextAreaElement | null>(null);
  const [showOriginal, setShowOriginal] = useState(false);
  const text = critiques.texts[letter] ?? '';
  const original = critiques.original?.critique[letter];
  const edited = original !== undefined && text !== original;
  const id = `critique-${side.toLowerCase()}`;
  useEffect(() => {
    const el = local.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${Math.min(el.scrollHeight, 160)}px`;
  }, [text]);
  if (!critiques.ready) return null;
  return (
    <div className="shrink-0 border-t border-line bg-bg/60 px-3 py-1.5" data-testid={id}>
      {original !== undefined && (
        <div className="mb-1 flex items-center gap-2 text-[11.5px] text-faint">
          <span data-testid={`${id}-origin`}>
            {edited ? 'Your edit of the' : 'The'} {critiques.original!.annotatorKind === 'model' ? 'model' : 'imported'} critique ({critiques.original!.annotator})
          </span>
          {edited && (
            <button className="text-accent hover:underline" onClick={() => setShowOriginal((v) => !v)} data-testid={`${id}-show-original`}>
              {showOriginal ? 'hide original' : 'show original'}
            </button>
          )}
        </div>
      )}
      {showOriginal && edited && (
        <div className="mb-1 max-h-32 overflow-y-auto rounded border border-dashed border-line-strong px-2 py-1 text-[12.5px] whitespace-pre-wrap text-muted" data-testid={`${id}-original`}>
          {original}
        </div>
      )}
      <div className="flex items-start gap-3">
        <label htmlFor={`${id}-text`} className="sr-only">
          {/^response$/i.test(side) ? 'Critique of the response' : `Critique of the ${side.toLowerCase()} response`}
        </label>
        <textarea
          id={`${id}-text`}
          ref={(el) => {
            local.current = el;
            if (typeof ref === 'function') ref(el);
            else if (ref) ref.current = el;
          }}
          rows={1}
          value={text}
          onChange={(e) => critiques.edit(letter, e.target.value)}
          onBlur={critiques.flush}
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.preventDefault();
              e.currentTarget.blur();
            }
          }}
          placeholder={`Critique${side.toLowerCase() === 'response' ? '' : ` of the ${side.toLowerCase()} response`} — ${keyHint} to write, Esc to leave`}
          className="block max-h-40 min-h-7 min-w-0 flex-1 resize-none rounded-md border border-line bg-surface px-2 py-1 text-[13.5px] leading-[1.45] outline-none placeholder:text-faint focus:border-accent"
          maxLength={50_000}
          data-testid={`${id}-text`}
        />
        <label className="flex shrink-0 cursor-pointer items-center gap-1.5 pt-1 text-[12px] text-muted" title="The response reaches the right verdict or answer, but its reasoning is wrong">
          <input type="checkbox" checked={Boolean(critiques.wrong[letter])} onChange={() => critiques.toggleWrong(letter)} className="accent-[var(--bad)]" data-testid={`${id}-wrong-reasoning`} />
          right verdict, wrong reasoning
        </label>
      </div>
      {showStatus && critiques.status && critiques.status.state !== 'info' && (
        <div className="mt-0.5 text-[12px]" data-testid="critique-status" data-state={critiques.status.state}>
          <span className="text-faint">{critiques.status.text}</span> <SaveMark status={critiques.status} onRetry={critiques.retryNow} />
        </div>
      )}
    </div>
  );
});
