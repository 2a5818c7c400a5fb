// The project's guidelines while labeling: `g` opens a drawer on the right, `g` or Esc closes it. It does
// not take the keyboard: the screen's keys keep working while it is open (reading the rules beside the
// item is the point). Read fresh each time it opens, so a teammate's edit shows.
import { useEffect, useRef, useState } from 'react';
import type { Guidelines } from '../../../../shared/api';
import { api, errorMessage } from '../../api';
import { Kbd } from '../../components/Kbd';
import { isTypingTarget } from '../../components/keys';
import { Markdown } from '../../components/Markdown';

export function GuidelinesDrawer({ project, onClose, onEdit }: { project: string; onClose(): void; onEdit(): void }) {
  const [doc, setDoc] = useState<Guidelines | null>(null);
  const [error, setError] = useState<string | null>(null);
  const body = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let live = true;
    api
      .getGuidelines({ project })
      .then((g) => live && setDoc(g))
      .catch((e: unknown) => live && setError(errorMessage(e)));
    return () => {
      live = false;
    };
  }, [project]);
  // Esc closes the drawer before anything on the screen sees it (a capturing listener runs first), but
  // not before a modal layer opened over it (the zoom view, the ? list, a popover): the topmost closes first.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented || isTypingTarget(event.target)) return;
      if (document.querySelector('[aria-modal="true"]')) return;
      event.preventDefault();
      event.stopPropagation();
      onClose();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [onClose]);
  return (
    <aside
      className="fixed top-11 right-0 bottom-0 z-40 flex w-[min(520px,92vw)] flex-col border-l border-line bg-surface shadow-[-8px_0_24px_rgba(0,0,0,0.08)] dark:shadow-[-8px_0_24px_rgba(0,0,0,0.45)]"
      role="complementary"
      aria-label="Guidelines"
      data-testid="guidelines-drawer"
    >
      <div className="flex shrink-0 items-center gap-2 border-b border-line px-4 py-2">
        <h2 className="text-[14px] font-semibold">Guidelines</h2>
        {doc && doc.revision > 0 && (
          <span className="text-[12px] text-faint" title={doc.updatedAt ?? undefined}>
            revision {doc.revision}
            {doc.author ? ` · ${doc.author}` : ''}
          </span>
        )}
        <button className="ml-auto text-[12px] text-accent hover:underline" onClick={onEdit} data-testid="guidelines-edit">
          Edit
        </button>
        <button className="flex items-center gap-1 text-[12px] text-muted hover:text-fg" onClick={onClose} data-testid="guidelines-close">
          Close <Kbd>Esc</Kbd>
        </button>
      </div>
      <div ref={body} className="min-h-0 flex-1 overflow-y-auto px-5 py-4" data-testid="guidelines-body">
        {error ? (
          <p className="text-[13px] text-bad" role="alert">
            The guidelines could not be read: {error}
          </p>
        ) : !doc ? (
          <p className="text-[13px] text-muted">Loading…</p>
        ) : doc.text.trim() ? (
          <Markdown text={doc.text} className="md-doc" />
        ) : (
          <div className="text-[13px] text-muted">
            <p>This project has no guidelines yet.</p>
            <p className="mt-1">
              Write them on the Rubric screen (<button className="text-accent hover:underline" onClick={onEdit}>Guidelines</button>): what a good response is, how to use each
              criterion, and the hard cases.
            </p>
          </div>
        )}
      </div>
    </aside>
  );
}
