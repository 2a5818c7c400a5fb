// The prompt, pinned above the responses; a long one folds to a few lines (key f).
import { useLayoutEffect, useRef, useState } from 'react';
import type { Content } from '../../../../shared/domain';
import { contentText } from '../../../../shared/choices';
import { ContentView } from '../../components/ContentView';
import { Kbd } from '../../components/Kbd';

export function PromptPane({ prompt, folded, onToggle }: { prompt: Content; folded: boolean; onToggle(): void }) {
  const body = useRef<HTMLDivElement>(null);
  const [overflows, setOverflows] = useState(false);
  const text = contentText(prompt);

  useLayoutEffect(() => {
    const el = body.current;
    if (!el) return;
    const measure = () => setOverflows(el.scrollHeight > 150);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [text]);

  return (
    <section className="shrink-0 border-b border-line bg-surface" data-testid="prompt">
      <div className="mx-auto flex max-w-[1800px] gap-3 px-4 pt-2.5 pb-3">
        <div className="w-16 shrink-0 pt-0.5 text-[11px] font-semibold tracking-wide text-faint uppercase">Prompt</div>
        <div className="relative min-w-0 flex-1">
          <div
            className={`overflow-hidden ${folded && overflows ? 'max-h-[132px]' : 'max-h-[38vh] overflow-y-auto'}`}
            style={folded && overflows ? { maskImage: 'linear-gradient(to bottom, black 60%, transparent)' } : undefined}
          >
            <div ref={body} data-testid="prompt-body">
              <ContentView content={prompt} />
            </div>
          </div>
          {overflows && (
            <button className="mt-1 flex items-center gap-1.5 text-[12px] text-muted hover:text-fg" onClick={onToggle} data-testid="prompt-fold">
              {folded ? `Show the whole prompt (${text.length.toLocaleString()} characters)` : 'Fold the prompt'} <Kbd>f</Kbd>
            </button>
          )}
        </div>
      </div>
    </section>
  );
}
