// Every shortcut in one place, opened with `?`.
import { useEffect, useRef } from 'react';
import { Kbd } from './Kbd';

const GROUPS: { title: string; keys: [string[], string][] }[] = [
  {
    title: 'Compare',
    keys: [
      [['1'], 'Left is better'],
      [['2'], 'Right is better'],
      [['3'], 'Tie'],
      [['4'], 'Both bad'],
      [['Shift', '1'], 'Left is much better (Shift+2: right)'],
      [['Alt', '1'], 'Left is slightly better (Alt+2: right)'],
      [['s'], 'Arm “slightly” for the next choice'],
      [['r'], 'Write a rationale'],
      [['Esc'], 'Leave the text box, back to the keys'],
      [['→'], 'Next item'],
      [['←'], 'Previous item'],
      [['Ctrl', 'Z'], 'Undo the last label'],
      [['f'], 'Fold / unfold a long prompt'],
      [['v'], 'Show / hide the label the file carried'],
      [['a'], 'Accept the model’s suggestion (assist mode; Shift+A: much better)'],
    ],
  },
  {
    title: 'Anywhere',
    keys: [
      [['c'], 'Compare screen'],
      [['d'], 'Datasets screen (import, items, export)'],
      [['m'], 'Models screen (add, score, providers)'],
      [['?'], 'This list'],
      [['Esc'], 'Close this list'],
    ],
  },
];

export function ShortcutsOverlay({ onClose }: { onClose(): void }) {
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    panel.current?.focus();
  }, []);
  return (
    <div
      className="fixed inset-0 z-50 flex items-center justify-center bg-black/40 p-4 backdrop-blur-[1px]"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
      data-testid="shortcuts"
    >
      <div
        ref={panel}
        tabIndex={-1}
        role="dialog"
        aria-modal="true"
        aria-label="Keyboard shortcuts"
        className="w-full max-w-2xl rounded-lg border border-line bg-surface p-5 shadow-xl outline-none"
      >
        <div className="mb-3 flex items-baseline justify-between">
          <h2 className="text-[15px] font-semibold">Keyboard shortcuts</h2>
          <button className="text-[12px] text-muted hover:text-fg" onClick={onClose}>
            Close <Kbd>Esc</Kbd>
          </button>
        </div>
        <div className="grid gap-6 sm:grid-cols-[1.4fr_1fr]">
          {GROUPS.map((group) => (
            <section key={group.title}>
              <h3 className="mb-2 text-[11px] font-semibold tracking-wide text-faint uppercase">{group.title}</h3>
              <dl className="grid grid-cols-[auto_1fr] items-center gap-x-3 gap-y-1.5 text-[13px]">
                {group.keys.map(([keys, what]) => (
                  <div key={what} className="contents">
                    <dt className="flex items-center gap-1 justify-self-start">
                      {keys.map((k, i) => (
                        <span key={k} className="flex items-center gap-1">
                          {i > 0 && <span className="text-faint">+</span>}
                          <Kbd>{k}</Kbd>
                        </span>
                      ))}
                    </dt>
                    <dd className="text-muted">{what}</dd>
                  </div>
                ))}
              </dl>
            </section>
          ))}
        </div>
        <p className="mt-4 border-t border-line pt-3 text-[12px] text-faint">
          Shortcuts never fire while you type in a text box. Plain 1 / 2 means “clearly better”.
        </p>
      </div>
    </div>
  );
}
