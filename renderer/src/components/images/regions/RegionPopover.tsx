// The small box beside a mark for its tag and note (and for "not present": which tag is not there). It
// opens with the keyboard on its keys: 1–5 choose a tag (then the note has the keys), t types a tag in
// your own words, Tab goes to the note, Enter saves, Delete removes the mark, Esc cancels. In the note,
// Enter saves (Shift+Enter: a new line) and Esc comes back to the keys. Drawn over the page (a portal),
// so the image's edge never cuts it off.
import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import { createPortal } from 'react-dom';
import { REGION_TAG_MAX, REGION_NOTE_MAX } from '../../../../../shared/api/regions';
import { REGION_TAGS, type RegionMark } from '../../../../../shared/regions';
import { Kbd } from '../../Kbd';
import { digitOf } from '../../keys';

export interface PopoverProps {
  draft: RegionMark;
  /** The mark's number when it exists already (it can be removed). */
  number: number | null;
  layer: HTMLElement;
  /** Tags marked on this image (a "not present" cannot name them). */
  placed: ReadonlySet<string>;
  /** The tag a new mark starts with (the one used last). */
  lastTag: string | null;
  onSave(mark: RegionMark): void;
  onRemove(): void;
  onCancel(): void;
}

const WIDTH = 300;

/** Where the popover goes: under the mark (or above it near the bottom of the window), inside the window. */
function placeOf(layer: HTMLElement, draft: RegionMark): { left: number; top: number } {
  const r = layer.getBoundingClientRect();
  const [fx0, fy1] = draft.kind === 'box' && draft.box ? [draft.box[0], draft.box[3]] : draft.kind === 'point' && draft.point ? [draft.point[0], draft.point[1]] : [0, 1];
  const left = Math.min(Math.max(8, r.left + fx0 * r.width), innerWidth - WIDTH - 8);
  const below = r.top + fy1 * r.height + 10;
  return { left, top: below + 260 > innerHeight ? Math.max(8, below - 290) : below };
}

export function RegionPopover({ draft, number, layer, placed, lastTag, onSave, onRemove, onCancel }: PopoverProps) {
  const isNew = number === null;
  const absent = draft.kind === 'absent';
  const [tag, setTag] = useState(draft.tag || (isNew && lastTag && !(absent && placed.has(lastTag)) ? lastTag : ''));
  const [note, setNote] = useState(draft.note ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const [pos, setPos] = useState(() => placeOf(layer, draft));
  const root = useRef<HTMLDivElement>(null);
  const noteBox = useRef<HTMLTextAreaElement>(null);
  const ownBox = useRef<HTMLInputElement>(null);

  useLayoutEffect(() => {
    root.current?.focus({ preventScroll: true });
  }, []);
  useEffect(() => {
    const update = () => setPos(placeOf(layer, draft));
    addEventListener('scroll', update, true);
    addEventListener('resize', update);
    return () => {
      removeEventListener('scroll', update, true);
      removeEventListener('resize', update);
    };
  }, [layer, draft]);

  const takenHere = (t: string) => absent && placed.has(t);
  const choose = (t: string) => {
    if (takenHere(t)) {
      setProblem(`“${t}” is marked on this image, so it cannot be “not present” here.`);
      return;
    }
    setTag(t);
    setProblem(null);
    noteBox.current?.focus();
  };
  const save = () => {
    const t = tag.trim();
    if (!t) {
      setProblem('Choose a tag (1–5) or write your own (t) first.');
      return;
    }
    if (takenHere(t)) {
      setProblem(`“${t}” is marked on this image, so it cannot be “not present” here.`);
      return;
    }
    const { note: _old, ...rest } = draft;
    onSave({ ...rest, tag: t, ...(note.trim() ? { note } : {}) });
  };

  const onRootKey = (event: ReactKeyboardEvent) => {
    if (event.target !== root.current) return;
    const digit = digitOf(event.nativeEvent) || null;
    const own = event.key === 't' || event.key === 'T';
    if (digit && !event.ctrlKey && !event.metaKey && REGION_TAGS[digit - 1]) choose(REGION_TAGS[digit - 1]!);
    else if (own) ownBox.current?.focus();
    else if (event.key === 'Enter') save();
    else if (event.key === 'Escape') onCancel();
    else if ((event.key === 'Delete' || event.key === 'Backspace') && !isNew) onRemove();
    else if (event.key === 'Tab') {
      // Tab walks the popover's own fields; it never leaves the popover for the screen behind.
      return;
    } else if (event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    event.stopPropagation();
  };
  const onNoteKey = (event: ReactKeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      save();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      root.current?.focus();
    }
    event.stopPropagation();
  };
  const onOwnKey = (event: ReactKeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      if (tag.trim()) noteBox.current?.focus();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      root.current?.focus();
    }
    event.stopPropagation();
  };

  const title = absent ? 'Not present on this image' : isNew ? `New ${draft.kind}` : `Mark ${number} (${draft.kind})`;
  return createPortal(
    <div
      ref={root}
      tabIndex={-1}
      role="dialog"
      aria-modal="true"
      aria-label={title}
      data-own-keys
      className="fixed z-40 flex flex-col gap-2 rounded-md border border-line-strong bg-surface p-3 text-[13px] text-fg shadow-lg outline-none focus:ring-2 focus:ring-accent"
      style={{ left: pos.left, top: pos.top, width: WIDTH }}
      data-testid="region-popover"
      onKeyDown={onRootKey}
      onPointerDown={(e) => e.stopPropagation()}
    >
      <div className="font-semibold">{title}</div>
      <div className="flex flex-wrap gap-1" role="radiogroup" aria-label="Tag">
        {REGION_TAGS.map((t, i) => (
          <button
            key={t}
            type="button"
            role="radio"
            aria-checked={tag === t}
            disabled={takenHere(t)}
            title={takenHere(t) ? `${t} is marked on this image` : undefined}
            className={`rounded border px-1.5 py-0.5 text-[12px] disabled:opacity-40 ${tag === t ? 'border-accent bg-accent-soft font-semibold' : 'border-line-strong'}`}
            onClick={() => choose(t)}
            data-testid="region-tag"
          >
            <Kbd className="mr-1">{i + 1}</Kbd>
            {t}
          </button>
        ))}
      </div>
      <label className="flex items-center gap-2 text-[12px] text-muted">
        <Kbd>t</Kbd> own words
        <input
          ref={ownBox}
          className="min-w-0 flex-1 rounded border border-line-strong bg-surface px-1.5 py-0.5 text-[13px] text-fg"
          maxLength={REGION_TAG_MAX}
          value={(REGION_TAGS as readonly string[]).includes(tag) ? '' : tag}
          placeholder="a tag of your own"
          onChange={(e) => setTag(e.target.value)}
          onKeyDown={onOwnKey}
          data-testid="region-own-tag"
        />
      </label>
      <textarea
        ref={noteBox}
        className="min-h-[3.5em] resize-y rounded border border-line-strong bg-surface px-1.5 py-1 text-[13px] text-fg"
        maxLength={REGION_NOTE_MAX}
        placeholder="Note (optional): what is wrong here"
        value={note}
        onChange={(e) => setNote(e.target.value)}
        onKeyDown={onNoteKey}
        data-testid="region-note"
      />
      {problem && (
        <p className="text-[12px] text-bad" role="alert">
          {problem}
        </p>
      )}
      <div className="flex flex-wrap items-center gap-2">
        <button type="button" className="rounded bg-accent px-2 py-1 text-[12px] font-medium text-white dark:text-[#111]" onClick={save} data-testid="region-save">
          Save <Kbd className="ml-1">Enter</Kbd>
        </button>
        {!isNew && (
          <button type="button" className="rounded border border-line-strong px-2 py-1 text-[12px]" onClick={onRemove} data-testid="region-remove">
            Remove <Kbd className="ml-1">Del</Kbd>
          </button>
        )}
        <button type="button" className="rounded px-2 py-1 text-[12px] text-muted" onClick={onCancel}>
          Cancel <Kbd className="ml-1">Esc</Kbd>
        </button>
      </div>
    </div>,
    document.body,
  );
}
