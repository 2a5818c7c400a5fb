// The bar under the responses: the rank order as it builds up ("1st 3 · 2nd 1 = 4 · 3rd 2"), the
// responses not placed yet, and the keys. Chips drag: onto a gap (·) for a place of their own, onto a
// group to tie with it, back to "not placed" to take them out. Clicking · between two places ties them;
// clicking = unties.
import { DndContext, DragOverlay, MeasuringStrategy, PointerSensor, pointerWithin, useDraggable, useDroppable, useSensor, useSensors, type DragEndEvent, type DragStartEvent } from '@dnd-kit/core';
import { forwardRef, useState, type ReactNode } from 'react';
import { Kbd } from '../../components/Kbd';
import type { Status } from '../../components/outbox';
import { RationaleBox } from '../../components/RationaleBox';
import { BarButton, keepFocus, StatusLine } from '../../components/screenParts';
import { PositionMark } from './RankCards';
import { ordinal, positionOf, type Pick } from './ranking';

interface Props {
  order: number[];
  /** Every pick, the implied last one included. */
  picks: Pick[];
  implied: number | null;
  unplaced: number[];
  tieArmed: boolean;
  complete: boolean;
  /** The ranking differs from the one saved (or none is saved yet). */
  dirty: boolean;
  saved: boolean;
  status: Status | null;
  rationale: string;
  onRationale(text: string): void;
  onRationaleDone(): void;
  onDrop(response: number, target: DropTarget): void;
  onToggleTie(pickIndex: number): void;
  onTie(): void;
  onBack(): void;
  onSave(): void;
  onPrev(): void;
  onNext(): void;
  onUndo(): void;
  onRetry(): void;
}

const MEASURING = { droppable: { strategy: MeasuringStrategy.Always } };

export type DropTarget = { kind: 'gap'; gap: number } | { kind: 'group'; group: number } | { kind: 'unplaced' };

function targetOf(id: string | number): DropTarget | null {
  const [kind, n] = String(id).split(':');
  if (kind === 'gap') return { kind: 'gap', gap: Number(n) };
  if (kind === 'group') return { kind: 'group', group: Number(n) };
  if (kind === 'unplaced') return { kind: 'unplaced' };
  return null;
}

function Chip({ response, position, first, implied, placed }: { response: number; position: number; first: boolean; implied: boolean; placed: boolean }) {
  const { attributes, listeners, setNodeRef, isDragging } = useDraggable({ id: `r:${response}`, data: { response } });
  return (
    <span
      ref={setNodeRef}
      {...listeners}
      {...attributes}
      // Dragged with the mouse, never focused by it: Enter still saves after a drop.
      tabIndex={-1}
      onMouseDown={keepFocus}
      className={`inline-flex cursor-grab touch-none rounded-md outline-offset-1 ${isDragging ? 'opacity-30' : ''} ${implied ? 'rounded-md outline-1 outline-dashed outline-faint' : ''}`}
      title={implied ? `Response ${position}: the only one left, placed last. Drag it, or press = first to tie it.` : `Response ${position}: drag to move it`}
      data-testid="strip-chip"
      data-position={position}
      data-implied={implied ? 'true' : undefined}
    >
      <PositionMark position={position} placed={placed} first={first} size="sm" />
    </span>
  );
}

function Gap({ gap, dragging, onClick, title, children }: { gap: number; dragging: boolean; onClick?: () => void; title?: string; children?: ReactNode }) {
  const { setNodeRef, isOver } = useDroppable({ id: `gap:${gap}` });
  return (
    <span
      ref={setNodeRef}
      className={`inline-flex h-7 items-center justify-center rounded text-faint transition-[width,background-color] ${
        dragging ? `w-6 border border-dashed ${isOver ? 'border-accent bg-accent-soft' : 'border-line-strong'}` : 'w-3'
      }`}
      data-testid="strip-gap"
      data-gap={gap}
    >
      {!dragging && children !== undefined && (
        <button className="h-full w-full rounded hover:bg-surface-2 hover:text-fg" onClick={onClick} onMouseDown={keepFocus} title={title} tabIndex={-1}>
          {children}
        </button>
      )}
    </span>
  );
}

function Group({ index, dragging, children }: { index: number; dragging: boolean; children: ReactNode }) {
  const { setNodeRef, isOver } = useDroppable({ id: `group:${index}` });
  return (
    <span
      ref={setNodeRef}
      className={`inline-flex h-7 items-center gap-1 rounded-md px-1 ${isOver ? 'bg-accent-soft ring-2 ring-accent' : dragging ? 'ring-1 ring-line-strong' : ''}`}
      data-testid="strip-group"
      data-group={index}
      title={dragging ? 'Drop here to tie with this place' : undefined}
    >
      {children}
    </span>
  );
}

function Unplaced({ dragging, children }: { dragging: boolean; children: ReactNode }) {
  const { setNodeRef, isOver } = useDroppable({ id: 'unplaced' });
  return (
    <span
      ref={setNodeRef}
      className={`inline-flex h-7 items-center gap-1.5 rounded-md px-1.5 ${isOver ? 'bg-surface-2 ring-2 ring-line-strong' : dragging ? 'ring-1 ring-dashed ring-line' : ''}`}
      data-testid="strip-unplaced"
    >
      {children}
    </span>
  );
}

export const RankBar = forwardRef<HTMLTextAreaElement, Props>(function RankBar(p, rationaleRef) {
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 4 } }));
  const [active, setActive] = useState<number | null>(null);
  const dragging = active !== null;

  const groups: { picks: { pick: Pick; index: number }[] }[] = [];
  p.picks.forEach((pick, index) => {
    if (pick.tied && groups.length) groups[groups.length - 1]!.picks.push({ pick, index });
    else groups.push({ picks: [{ pick, index }] });
  });
  const pos = (r: number) => positionOf(p.order, r);

  const onDragStart = (event: DragStartEvent) => setActive((event.active.data.current as { response: number }).response);
  const onDragEnd = (event: DragEndEvent) => {
    setActive(null);
    const target = event.over ? targetOf(event.over.id) : null;
    const response = (event.active.data.current as { response: number } | undefined)?.response;
    if (target && response !== undefined) p.onDrop(response, target);
  };

  return (
    <footer className="shrink-0 border-t border-line bg-surface px-3 py-2" data-testid="rank-bar">
      <div className="mx-auto flex max-w-[1800px] flex-wrap items-center gap-x-3 gap-y-2">
        <DndContext
          sensors={sensors}
          collisionDetection={pointerWithin}
          // The gaps open up once a drag starts: measure the drop targets where they are now, not where they were.
          measuring={MEASURING}
          onDragStart={onDragStart}
          onDragEnd={onDragEnd}
          onDragCancel={() => setActive(null)}
        >
          <div
            className="flex min-h-9 w-full min-w-0 flex-wrap items-center gap-x-0.5 gap-y-1 rounded-md border border-line bg-bg px-2 py-1 text-[13px] xl:w-auto xl:flex-1"
            role="group"
            aria-label="Rank order"
            data-testid="rank-strip"
            data-complete={p.complete ? 'true' : 'false'}
          >
            {groups.length === 0 && !dragging && (
              <span className="px-1 text-muted" data-testid="strip-empty">
                Press the number of the best response, then the next. <Kbd>=</Kbd> before a number ties it with the one before.
              </span>
            )}
            {groups.length === 0 && dragging && <Gap gap={0} dragging />}
            {groups.map((group, g) => (
              <span key={g} className="inline-flex items-center">
                <Gap
                  gap={g}
                  dragging={dragging}
                  onClick={g > 0 ? () => p.onToggleTie(group.picks[0]!.index) : undefined}
                  title={g > 0 ? `Tie ${ordinal(g + 1)} with ${ordinal(g)}` : undefined}
                >
                  {g > 0 ? '·' : undefined}
                </Gap>
                <Group index={g} dragging={dragging}>
                  <span className={`mr-0.5 text-[12px] font-semibold ${g === 0 ? 'text-accent' : 'text-muted'}`} data-testid="strip-ordinal">
                    {ordinal(g + 1)}
                  </span>
                  {group.picks.map(({ pick, index }, k) => (
                    <span key={pick.response} className="inline-flex items-center gap-1">
                      {k > 0 && (
                        <button
                          className="rounded px-0.5 font-semibold text-tie hover:bg-surface-2 hover:text-fg"
                          onClick={() => p.onToggleTie(index)}
                          onMouseDown={keepFocus}
                          title={`Untie: response ${pos(pick.response)} takes the next place`}
                          tabIndex={-1}
                          data-testid="strip-tie"
                        >
                          =
                        </button>
                      )}
                      <Chip response={pick.response} position={pos(pick.response)} first={g === 0} implied={pick.response === p.implied} placed />
                    </span>
                  ))}
                </Group>
              </span>
            ))}
            {groups.length > 0 && <Gap gap={groups.length} dragging={dragging} />}
            {p.tieArmed && !p.complete && (
              <span className="ml-1 rounded bg-tie-soft px-1.5 py-0.5 text-[12px] font-semibold text-tie" data-testid="tie-armed">
                = next pick ties with {ordinal(groups.length)}
              </span>
            )}
            {(p.unplaced.length > 0 || dragging) && (
              <span className="ml-auto inline-flex items-center gap-1.5 pl-2 text-[12px] text-faint">
                <span className="h-5 border-l border-line" aria-hidden />
                <Unplaced dragging={dragging}>
                  <span>not placed</span>
                  {p.unplaced.map((r) => (
                    <Chip key={r} response={r} position={pos(r)} first={false} implied={false} placed={false} />
                  ))}
                </Unplaced>
              </span>
            )}
          </div>
          <DragOverlay dropAnimation={null}>
            {active !== null ? (
              <span className="inline-flex cursor-grabbing rounded-md shadow-lg">
                <PositionMark position={pos(active)} placed first={false} size="sm" />
              </span>
            ) : null}
          </DragOverlay>
        </DndContext>

        <div className="flex items-center gap-1.5">
          <BarButton
            onClick={p.onTie}
            title="Tie the next pick with the one before (=)"
            testid="tie-next"
            disabled={p.picks.length === 0 || (p.complete && p.implied === null)}
            pressed={p.tieArmed}
          >
            <Kbd>=</Kbd> Tie next
          </BarButton>
          <BarButton onClick={p.onBack} title="Take the last pick back (Backspace; Shift+Backspace: all)" testid="take-back" disabled={p.picks.length === 0}>
            <Kbd>⌫</Kbd> Take back
          </BarButton>
          <BarButton
            onClick={p.onSave}
            title={p.complete ? (p.dirty ? 'Save this ranking and go to the next item (Enter)' : 'Saved; go to the next item (Enter)') : 'Place every response first'}
            testid="save-ranking"
            disabled={!p.complete}
            primary={p.complete && p.dirty}
          >
            <Kbd>Enter</Kbd> {p.complete && !p.dirty && p.saved ? 'Saved · next' : 'Save'}
          </BarButton>
        </div>
        <div className="ml-auto flex items-center gap-1.5">
          <BarButton onClick={p.onUndo} title="Undo the last save here (Ctrl+Z)" testid="undo">
            <Kbd>Ctrl Z</Kbd> Undo
          </BarButton>
          <BarButton onClick={p.onPrev} title="Previous item to rank (←)" testid="prev">
            <Kbd>←</Kbd> Prev
          </BarButton>
          <BarButton onClick={p.onNext} title="Next item to rank (→)" testid="next">
            Next <Kbd>→</Kbd>
          </BarButton>
        </div>
      </div>
      <div className="mx-auto mt-2 flex max-w-[1800px] flex-wrap items-start gap-3">
        <RationaleBox ref={rationaleRef} value={p.rationale} onChange={p.onRationale} onDone={p.onRationaleDone} />
        <div className="w-full md:w-[460px] md:shrink-0">
          <StatusLine
            status={p.status}
            onRetry={p.onRetry}
            hint={
              <>
                All placed? <Kbd>Enter</Kbd> saves, and the next item follows.
              </>
            }
          />
        </div>
      </div>
    </footer>
  );
});
