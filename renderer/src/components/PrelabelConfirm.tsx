// Blind / assist is the project's setting, the lead's call: it changes what every annotator of the
// project sees. So the switch (key b, or the header's buttons) asks first, in one small box: Enter
// switches, Esc keeps things as they are. While it is open it owns the keys.
import { useEffect, useRef } from 'react';
import type { PrelabelMode } from '../context';
import { Kbd } from './Kbd';

interface Props {
  project: string;
  to: PrelabelMode;
  onConfirm(): void;
  onCancel(): void;
}

const WHAT: Record<PrelabelMode, string> = {
  assist: 'Model pre-labels will be shown up front, before a choice, to everyone labeling this project.',
  blind: 'Model pre-labels will stay hidden until a choice is made, for everyone labeling this project.',
};

export function PrelabelConfirm({ project, to, onConfirm, onCancel }: Props) {
  const confirmButton = useRef<HTMLButtonElement>(null);
  const done = useRef({ onConfirm, onCancel });
  done.current = { onConfirm, onCancel };
  useEffect(() => {
    confirmButton.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.isComposing || event.key === 'Tab') return;
      // Nothing else acts while the question is open.
      event.preventDefault();
      if (event.key === 'Enter') done.current.onConfirm();
      else if (event.key === 'Escape') done.current.onCancel();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, []);
  return (
    <div className="fixed inset-0 z-50 flex items-start justify-center bg-black/25 pt-[18vh] dark:bg-black/55" onMouseDown={(e) => e.target === e.currentTarget && onCancel()}>
      <div
        role="alertdialog"
        aria-modal="true"
        aria-labelledby="prelabels-confirm-title"
        className="w-[min(440px,92vw)] rounded-lg border border-line-strong bg-surface p-4 text-[13.5px] shadow-xl"
        data-testid="prelabels-confirm"
        data-to={to}
      >
        <h2 id="prelabels-confirm-title" className="text-[14.5px] font-semibold">
          Switch “{project}” to {to}?
        </h2>
        <p className="mt-1.5 text-muted">{WHAT[to]} It is a project setting: every annotator sees the change.</p>
        <div className="mt-4 flex justify-end gap-2">
          <button className="flex h-8 items-center gap-1.5 rounded-md border border-line-strong px-3 text-muted hover:bg-surface-2 hover:text-fg" onClick={onCancel} data-testid="prelabels-cancel">
            Keep {to === 'assist' ? 'blind' : 'assist'} <Kbd>Esc</Kbd>
          </button>
          <button ref={confirmButton} className="flex h-8 items-center gap-1.5 rounded-md bg-accent px-3 font-medium text-white dark:text-[#111]" onClick={onConfirm} data-testid="prelabels-switch">
            Switch to {to} <Kbd>Enter</Kbd>
          </button>
        </div>
      </div>
    </div>
  );
}
