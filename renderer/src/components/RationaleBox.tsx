// The rationale box of every labeling screen: one line that grows with its text up to a few lines; `R`
// focuses it (the screen's key), and Esc gives the keys back.
import { forwardRef, useEffect, useRef } from 'react';

export const RationaleBox = forwardRef<HTMLTextAreaElement, { value: string; onChange(text: string): void; onDone(): void }>(function RationaleBox(
  { value, onChange, onDone },
  ref,
) {
  const local = useRef<HTMLTextAreaElement | null>(null);
  useEffect(() => {
    const el = local.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${Math.min(el.scrollHeight, 120)}px`;
  }, [value]);
  return (
    <label className="relative flex min-w-[240px] flex-1 items-start">
      <span className="sr-only">Rationale</span>
      <textarea
        ref={(el) => {
          local.current = el;
          if (typeof ref === 'function') ref(el);
          else if (ref) ref.current = el;
        }}
        rows={1}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        onBlur={onDone}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.preventDefault();
            e.currentTarget.blur();
          }
        }}
        placeholder="Rationale (optional) — R to write, Esc to leave"
        className="max-h-[120px] min-h-8 w-full resize-none rounded-md border border-line-strong bg-bg px-2.5 py-1.5 text-[14px] leading-[1.45] outline-none placeholder:text-faint focus:border-accent"
        data-testid="rationale"
        maxLength={20000}
      />
    </label>
  );
});
