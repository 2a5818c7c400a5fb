import type { ReactNode } from 'react';

/** A key cap shown on a control, so the shortcut is learnt by looking. */
export function Kbd({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <kbd
      className={`inline-flex min-w-[1.35em] items-center justify-center rounded border border-line-strong bg-surface-2 px-1 font-mono text-[11px] leading-[1.5] font-medium text-muted ${className ?? ''}`}
    >
      {children}
    </kbd>
  );
}
