// The item's marks in time (momentMarks.ts), drawn on the one scrub bar (MomentSpans: a range as a
// coloured span, an instant as a tick, each with its response letter and tag) and listed under the
// filmstrip (MomentList): time (click: go there), response, tag (the project's error tags offered, any
// word taken), note, remove. Keys: Shift+T marks an instant at the playhead, Shift+L turns the loop range
// into a mark, Shift+N / Shift+P go to the next / previous mark, Shift+X removes the selected one,
// Ctrl+Z takes the last change back (VideoTransport.tsx owns them). A mark made while paused opens its
// tag box (Enter: on to the note; Enter again or Esc: back to the keys).
import { useEffect, useRef, useState } from 'react';
import { timecode } from '../../../../shared/videos';
import type { Moment } from '../../../../shared/moments';
import { Kbd } from '../Kbd';
import { momentHue, momentMarks, useMoments } from './momentMarks';
import { videoSync } from './syncGroup';

const letter = (at: number) => String.fromCharCode(65 + at);

/**
 * What the screen calls response `at`: on Compare, the side it is shown on (the leading video, the first
 * on the page, is the left one's), elsewhere its letter in source order (as review and exports say it).
 */
export function sideNamer(anchor: Element | null, firstPlace: number): (at: number) => string {
  const left = anchor?.closest('[data-testid="response-body-left"]');
  if (!left || !anchor?.closest('[data-testid="compare"]')) return letter;
  return (at) => (at === firstPlace ? 'Left' : 'Right');
}
const hue = momentHue;

const when = (m: Moment) => (m.to === undefined ? timecode(m.from) : `${timecode(m.from)}–${timecode(m.to)}`);

/** The marks on the scrub bar (under the range input; they never take the pointer). */
export function MomentSpans({ duration, nameOf = letter }: { duration: number; nameOf?: (at: number) => string }) {
  const { marks, selected } = useMoments();
  if (!duration || !marks.length) return null;
  const pct = (t: number) => `${Math.min(100, (100 * t) / duration)}%`;
  return (
    <>
      {marks.map((m, i) => (
        <div
          key={i}
          className={`pointer-events-none absolute top-0 h-full ${m.to === undefined ? 'w-0.5' : 'rounded-[2px] opacity-40'} ${i === selected ? 'ring-1 ring-fg' : ''}`}
          style={{ left: pct(m.from), width: m.to === undefined ? undefined : pct(m.to - m.from), background: hue(m.at) }}
          title={`${nameOf(m.at)} ${m.tag} ${when(m)}`}
          data-testid="video-moment-span"
          data-kind={m.to === undefined ? 'instant' : 'range'}
        />
      ))}
      <div className="pointer-events-none absolute -top-3.5 left-0 h-3 w-full">
        {marks.map((m, i) => (
          <span key={i} className="absolute truncate text-[10px] leading-3 font-medium" style={{ left: pct(m.from), color: hue(m.at), maxWidth: 90 }}>
            {nameOf(m.at)} {m.tag}
          </span>
        ))}
      </div>
    </>
  );
}

/** The list of marks under the filmstrip, with the keys that make them. */
export function MomentList({ focus, letters, nameOf = letter }: { focus: number; letters: number; nameOf?: (at: number) => string }) {
  const { marks, selected, status, tags } = useMoments();
  const list = useRef<HTMLOListElement>(null);
  // A mark made while paused opens its tag box.
  useEffect(() => {
    const i = takePendingOpen();
    if (i === null) return;
    const box = list.current?.querySelectorAll<HTMLInputElement>('[data-testid="video-moment-tag"]')[i];
    box?.focus();
    box?.select();
  });
  return (
    <section className="flex flex-col gap-0.5 text-[12px]" data-testid="video-moments">
      <div className="flex flex-wrap items-center gap-x-2 text-faint">
        <span className="font-semibold text-muted">Marks in time</span>
        <span>
          <Kbd>T</Kbd> instant · <Kbd>L</Kbd> loop → range · <Kbd>N</Kbd> <Kbd>P</Kbd> next / previous · <Kbd>X</Kbd> remove · <Kbd>Ctrl Z</Kbd> undo · on {letters > 1 ? `${nameOf(focus)} (point at a video)` : 'the response'}
        </span>
        {status && (
          <span className={`ml-auto shrink-0 ${status === 'saved' || status === 'saving…' ? 'text-faint' : 'text-bad'}`} data-testid="video-moments-status">
            {status}
          </span>
        )}
      </div>
      <datalist id="video-moment-tags">
        {tags.map((t) => (
          <option key={t} value={t} />
        ))}
      </datalist>
      {marks.length > 0 && (
        <ol ref={list} className="flex flex-col" data-testid="video-moment-list">
          {marks.map((m, i) => (
            <MomentRow key={i} mark={m} index={i} selected={i === selected} name={nameOf(m.at)} />
          ))}
        </ol>
      )}
    </section>
  );
}

/** A text box that shows `value` until typed in, and hands its text over when left. */
function useDraft(value: string): [string, (v: string) => void] {
  const [draft, setDraft] = useState(value);
  // The mark changed under it (a change taken back, another mark in this row's place): show it.
  useEffect(() => setDraft(value), [value]);
  return [draft, setDraft];
}

function MomentRow({ mark: m, index: i, selected, name }: { mark: Moment; index: number; selected: boolean; name: string }) {
  const [tag, setTag] = useDraft(m.tag);
  const [note, setNote] = useDraft(m.note ?? '');
  return (
    <li
      className={`grid grid-cols-[1.5em_12em_2.5em_9em_minmax(0,1fr)_auto] items-center gap-2 rounded-[3px] px-1 ${selected ? 'bg-surface-2' : ''}`}
      data-testid="video-moment"
      data-at={m.at}
      data-selected={selected || undefined}
      onFocus={() => momentMarks.select(i)}
    >
      <span className="text-right tabular-nums text-faint">{i + 1}</span>
      <button type="button" className="text-left font-mono whitespace-nowrap tabular-nums text-fg hover:underline" onClick={() => (momentMarks.select(i), videoSync.seek(m.from))} title="Go there" data-testid="video-moment-time">
        {when(m)}
      </button>
      <span className="font-semibold" style={{ color: hue(m.at) }}>
        {name}
      </span>
      <input
        className="rounded-[3px] border border-line bg-surface px-1 text-fg"
        value={tag}
        list="video-moment-tags"
        maxLength={40}
        aria-label={`Mark ${i + 1} tag`}
        data-testid="video-moment-tag"
        onChange={(e) => setTag(e.currentTarget.value)}
        onBlur={() => (tag.trim() ? momentMarks.edit(i, { tag }) : setTag(m.tag))}
        onKeyDown={(e) => {
          if (e.key === 'Enter') (e.currentTarget.closest('li')?.querySelector('[data-testid="video-moment-note"]') as HTMLInputElement | null)?.focus();
          if (e.key === 'Escape') e.currentTarget.blur();
        }}
      />
      <input
        className="min-w-0 rounded-[3px] border border-line bg-surface px-1 text-fg placeholder:text-faint"
        value={note}
        placeholder="note"
        maxLength={2000}
        aria-label={`Mark ${i + 1} note`}
        data-testid="video-moment-note"
        onChange={(e) => setNote(e.currentTarget.value)}
        onBlur={() => momentMarks.edit(i, { note })}
        onKeyDown={(e) => (e.key === 'Enter' || e.key === 'Escape') && e.currentTarget.blur()}
      />
      <button type="button" className="px-1 text-faint hover:text-bad" onClick={() => momentMarks.remove(i)} aria-label={`Remove mark ${i + 1}`} data-testid="video-moment-remove">
        ×
      </button>
    </li>
  );
}

let pendingOpen: number | null = null;

/** Asks the list to open mark `index`'s tag box at its next render. */
export function openTagBox(index: number): void {
  pendingOpen = index;
}

function takePendingOpen(): number | null {
  const i = pendingOpen;
  pendingOpen = null;
  return i;
}
