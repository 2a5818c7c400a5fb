// A trajectory's turns on the step screen, as a virtual list (@tanstack/react-virtual): only the turns in
// and near the view are in the DOM, each measured as it draws, so 200 turns and megabytes of tool output
// cost what a screenful does. The current turn is kept in view as the cursor moves: scrolled to its top
// when it is out of sight, without measuring anything when a new trajectory opens.
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { StepRow, type StepRowProps } from './StepRow';
import type { Mode } from './mode';
import { FOLDED_LINES, isLong, type TrajectoryView, type TurnView } from '../trajectories/turnModel';

interface Props {
  at: string;
  view: TrajectoryView;
  cursor: number;
  version: number;
  firstError: number | null;
  mode: Mode;
  scroller: RefObject<HTMLDivElement | null>;
  unfolded: ReadonlySet<number>;
  onToggleFold(index: number): void;
  row(index: number, extra?: Partial<StepRowProps>): StepRowProps;
}

/** A first guess of a card's height (px) before it is measured: lines shown × line height, plus chrome. */
function estimate(t: TurnView, open: boolean): number {
  const lines = (text: string, n: number) => (open || !isLong(text, n) ? Math.min(n, 400) : FOLDED_LINES + 1);
  let px = 64 + Math.ceil(t.said.length / 90) * 24;
  for (const c of t.calls) px += 28 + (c.edit ? 200 : lines(c.args, c.args.split('\n', 40).length) * 19);
  for (const r of t.results) px += 30 + lines(r.text, r.lines) * 19;
  // A screenshot is drawn at the card's width (about 540 px): most are 16:10 or taller.
  px += t.images.length * 380 + (t.screens.before && !t.screens.before.inTurn && t.actions.length ? 400 : 0);
  return Math.min(px, 4000);
}

export function TurnRows({ at, view, cursor, version, firstError, mode, scroller, unfolded, onToggleFold, row }: Props) {
  const list = useRef<HTMLOListElement>(null);
  const [margin, setMargin] = useState(0);
  const virtualizer = useVirtualizer({
    count: view.turns.length,
    getScrollElement: () => scroller.current,
    estimateSize: (i) => estimate(view.turns[i]!, unfolded.has(i)),
    overscan: 4,
    scrollMargin: margin,
    getItemKey: (i) => `${at}:${version}:${i}`,
  });
  // The scroller's ref is set after this list's first layout effects (a parent's ref comes after its
  // children's), so the list draws once more after it mounts, when the virtualizer can find it.
  const [, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  // Where the list starts in the scroller (a notice may stand above it).
  useLayoutEffect(() => {
    const box = scroller.current;
    const el = list.current;
    if (!box || !el) return;
    const top = el.getBoundingClientRect().top - box.getBoundingClientRect().top + box.scrollTop;
    if (Math.abs(top - margin) > 1) setMargin(top);
  });
  // The cursor's turn in view: nothing measured when a new trajectory opens (it opens at the top).
  const shown = useRef(at);
  useLayoutEffect(() => {
    if (shown.current !== at) {
      shown.current = at;
      return;
    }
    const box = scroller.current;
    if (!box) return;
    const el = list.current?.querySelector<HTMLElement>(`:scope > li[data-index="${cursor}"]`);
    if (!el) {
      virtualizer.scrollToIndex(cursor, { align: 'start' });
      return;
    }
    const b = box.getBoundingClientRect();
    const r = el.getBoundingClientRect();
    const gap = Math.min(48, b.height * 0.08);
    if (r.top < b.top + 8 || r.top > b.bottom - Math.min(r.height, b.height * 0.4) - 8) box.scrollTo({ top: box.scrollTop + (r.top - b.top) - gap });
  }, [cursor, at, mode, version]);

  const items = virtualizer.getVirtualItems();
  return (
    <ol
      ref={list}
      className="relative mx-auto w-full max-w-[900px]"
      style={{ height: virtualizer.getTotalSize() + 16 }}
      data-testid="step-list"
      data-trajectory="true"
      data-version={version}
      data-first-error={firstError ?? ''}
      data-cursor={cursor}
    >
      {items.map((v) => (
        <li
          key={v.key}
          ref={virtualizer.measureElement}
          data-index={v.index}
          className="absolute top-0 left-0 w-full"
          style={{ transform: `translateY(${v.start - margin + 8}px)` }}
        >
          <StepRow {...row(v.index, { turn: view.turns[v.index], open: unfolded.has(v.index), onToggleFold, inner: true, rowRef: undefined })} />
        </li>
      ))}
    </ol>
  );
}
