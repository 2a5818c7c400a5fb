// Region marks on a labeling screen: wraps the item's content (prompt and responses) so that every image
// in it gets a RegionLayer, and gives the keyboard a marking mode. `.` starts marking the focused image (the
// one last hovered or clicked): a crosshair in its middle that the arrows move (Shift: 10%, Alt: 0.5%);
// Enter places a box's first corner, then its opposite one (p: a point, one Enter; b: back to boxes); n
// says a tagged thing is not present on the image; Tab goes to the next image; 1–9 open mark 1–9; Delete
// removes the last mark on the image; Esc takes a placed corner back, then ends marking. Each finished mark
// opens the popover for its tag and note. The screen keeps the marks with the item and saves them in the
// revision of its judgement (onChange).
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import type { ImagePlace, RegionMark } from '../../../../../shared/regions';
import { digitOf, useGlobalKeys } from '../../keys';
import { dotGoesTo, setImageMarking } from '../../mediaFocus';
import { ImageOverlayProvider, type OverlayInfo } from '../overlay';
import { zoomTargets } from '../zoomStore';
import { RegionContext, type ActiveImage, type DrawKind, type Editing, type RegionState } from './context';
import { RegionLayer } from './RegionLayer';
import { RegionPopover } from './RegionPopover';
import { boxFrom, marksOn, markWords, moveCursor, placedTags, samePlace, withMark, withoutMark } from './regionModel';

interface Layer {
  image: string;
  place: ImagePlace;
  element: HTMLElement;
}

export interface RegionMarkingProps {
  /** The item on screen (marking ends when it changes). */
  itemId: number | null;
  marks: readonly RegionMark[];
  /** The marks after an edit, and what changed in words ("Mark 2 (box: artifact)"). */
  onChange(marks: RegionMark[], words: string): void;
  /** The screen's keys are live (no dialog open over it). */
  enabled: boolean;
  /** What a response is called on this screen, for the status line ("Left", "response 3"). */
  placeName?(place: ImagePlace): string;
  children: ReactNode;
}

const overlay = (info: OverlayInfo) => <RegionLayer info={info} />;

export function RegionMarking({ itemId, marks, onChange, enabled, placeName, children }: RegionMarkingProps) {
  const [active, setActive] = useState<ActiveImage | null>(null);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const layers = useRef(new Set<Layer>());
  const lastTag = useRef<string | null>(null);
  const marksRef = useRef(marks);
  marksRef.current = marks;
  const activeRef = useRef(active);
  activeRef.current = active;
  const editingRef = useRef(editing);
  editingRef.current = editing;

  const noticeRef = useRef(notice);
  noticeRef.current = notice;
  // A new item starts with nothing marked. Each set only when needed: a state set to what it holds still
  // renders again right after the item's render (the labeling loop's next item, issue 20).
  useEffect(() => {
    if (activeRef.current !== null) setActive(null);
    if (editingRef.current !== null) setEditing(null);
    if (noticeRef.current !== null) setNotice(null);
  }, [itemId]);

  useEffect(() => setImageMarking(active !== null), [active]);
  // A message outside marking (a refused "not present") goes after a while.
  useEffect(() => {
    if (!notice || active) return;
    const timer = setTimeout(() => setNotice(null), 6000);
    return () => clearTimeout(timer);
  }, [notice, active]);

  const register = useCallback((layer: Layer) => {
    const entry = { ...layer };
    layers.current.add(entry);
    return () => void layers.current.delete(entry);
  }, []);
  /** The page's image layers in reading order. */
  const ordered = useCallback(
    () => [...layers.current].filter((l) => l.element.isConnected).sort((a, b) => (a.element.compareDocumentPosition(b.element) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1)),
    [],
  );
  const layerOf = useCallback((image: string, place: ImagePlace) => ordered().find((l) => l.image === image && samePlace(l.place, place)) ?? null, [ordered]);

  const start = useCallback((layer: Layer, kind: DrawKind = 'box') => {
    setActive({ image: layer.image, place: layer.place, kind, cursor: [0.5, 0.5], anchor: null });
    setNotice(null);
    layer.element.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, []);

  const edit = useCallback((draft: RegionMark, layer: HTMLElement, index?: number) => setEditing({ draft, layer, index }), []);
  const activate = useCallback(
    (image: string, place: ImagePlace, kind: DrawKind) => {
      const a = activeRef.current;
      if (a && a.image === image && samePlace(a.place, place) && a.kind === kind) return setActive(null);
      const layer = layerOf(image, place);
      if (layer) start(layer, kind);
    },
    [layerOf, start],
  );

  const save = useCallback(
    (mark: RegionMark, index: number | undefined) => {
      const next = withMark(marksRef.current, mark, index);
      if (typeof next === 'string') return setNotice(next);
      lastTag.current = mark.tag;
      setEditing(null);
      setNotice(null);
      onChange(next, mark.kind === 'absent' ? `Not present: ${mark.tag}` : `Mark ${markWords(mark, next.indexOf(mark))}`);
    },
    [onChange],
  );
  const remove = useCallback(
    (index: number) => {
      const mark = marksRef.current[index];
      if (!mark) return;
      setEditing(null);
      onChange(withoutMark(marksRef.current, index), `Removed ${mark.kind === 'absent' ? `“not present: ${mark.tag}”` : `mark ${index + 1}`}`);
    },
    [onChange],
  );

  useGlobalKeys(
    (event) => {
      if (editingRef.current || event.ctrlKey || event.metaKey) return;
      const a = activeRef.current;
      if (!a) {
        // With videos on the item too, `.` is theirs unless the mouse last pointed at an image (mediaFocus.ts).
        if (event.key !== '.' || event.altKey || dotGoesTo() !== 'image') return;
        const all = ordered();
        if (!all.length) return;
        const focused = zoomTargets(true)[0];
        const layer = (focused && all.find((l) => focused.element.contains(l.element) && l.image === focused.image.sha256)) ?? all[0]!;
        event.preventDefault();
        start(layer);
        return;
      }
      // Zoom and the list of keys still work while marking.
      if (event.key === 'z' || event.key === 'Z' || event.key === '?') return;
      event.preventDefault();
      const layer = layerOf(a.image, a.place);
      if (!layer) return setActive(null);
      const moved = moveCursor(a.cursor, event.key, event);
      if (moved) return setActive({ ...a, cursor: moved });
      const digit = digitOf(event) || null;
      if (digit) {
        const index = digit - 1;
        const mark = marksRef.current[index];
        const its = mark && layerOf(mark.image, mark.at);
        if (mark && its) edit(mark, its.element, index);
        else setNotice(`There is no mark ${digit} on this item.`);
        return;
      }
      switch (event.key) {
        case 'Enter':
        case ' ': {
          const base = { image: a.image, at: a.place, tag: '' };
          if (a.kind === 'point') return edit({ ...base, kind: 'point', point: a.cursor }, layer.element);
          if (!a.anchor) {
            setActive({ ...a, anchor: a.cursor });
            return setNotice('First corner placed: move to the opposite corner and press Enter (Esc takes it back).');
          }
          const box = boxFrom(a.anchor, a.cursor);
          if (!box) return setNotice('The box has no width or height yet: move the crosshair to the opposite corner first.');
          setActive({ ...a, anchor: null });
          setNotice(null);
          return edit({ ...base, kind: 'box', box }, layer.element);
        }
        case 'b':
        case 'B':
          return setActive({ ...a, kind: 'box' });
        case 'p':
        case 'P':
          return setActive({ ...a, kind: 'point', anchor: null });
        case 'n':
        case 'N':
          return edit({ image: a.image, at: a.place, kind: 'absent', tag: '' }, layer.element);
        case 'Tab': {
          const all = ordered();
          const i = all.indexOf(layer);
          const next = all[(i + (event.shiftKey ? -1 : 1) + all.length) % all.length];
          if (next) start(next, a.kind);
          return;
        }
        case 'Delete':
        case 'Backspace': {
          const here = marksOn(marksRef.current, a.image, a.place);
          const last = here[here.length - 1];
          if (last) remove(last.index);
          else setNotice('No mark on this image to remove.');
          return;
        }
        case 'Escape':
          if (a.anchor) {
            setActive({ ...a, anchor: null });
            return setNotice(null);
          }
          setNotice(null);
          return setActive(null);
        case '.':
          setNotice(null);
          return setActive(null);
      }
    },
    enabled,
    true,
  );

  const state: RegionState = useMemo(() => ({ marks, active, editing, edit, activate, register }), [marks, active, editing, edit, activate, register]);
  const all = active ? ordered() : [];
  const current = active ? all.findIndex((l) => l.image === active.image && samePlace(l.place, active.place)) : -1;
  const where = active ? (active.place === 'prompt' ? 'the prompt' : (placeName?.(active.place) ?? `response ${active.place + 1}`)) : '';
  return (
    <RegionContext.Provider value={state}>
      <ImageOverlayProvider overlay={overlay}>{children}</ImageOverlayProvider>
      {editing && (
        <RegionPopover
          key={`${editing.index ?? 'new'}:${editing.draft.kind}:${JSON.stringify(editing.draft.box ?? editing.draft.point ?? null)}`}
          draft={editing.draft}
          number={editing.index === undefined ? null : editing.index + 1}
          layer={editing.layer}
          placed={placedTags(
            marks.filter((_, i) => i !== editing.index),
            editing.draft.image,
            editing.draft.at,
          )}
          lastTag={lastTag.current}
          onSave={(mark) => save(mark, editing.index)}
          onRemove={() => editing.index !== undefined && remove(editing.index)}
          onCancel={() => setEditing(null)}
        />
      )}
      {(active || notice) &&
        createPortal(
          <div
            className="fixed bottom-28 left-1/2 z-30 max-w-[min(92vw,760px)] -translate-x-1/2 rounded-md border border-line-strong bg-surface px-3 py-1.5 text-[12.5px] text-fg shadow-md"
            role="status"
            data-testid="region-status"
          >
            {active && (
              <span>
                <span className="font-semibold">
                  Marking image {current + 1} of {all.length} ({where}), {active.kind === 'box' ? (active.anchor ? 'box: second corner' : 'box') : 'point'}
                </span>
                <span className="text-muted"> · arrows move (Shift faster) · Enter {active.kind === 'box' ? 'places a corner' : 'places it'} · b box · p point · n not present · 1–9 open a mark · Del removes the last · Tab next image · Esc done</span>
              </span>
            )}
            {notice && <span className={`${active ? 'mt-0.5 block' : ''} text-bad`}>{notice}</span>}
          </div>,
          document.body,
        )}
    </RegionContext.Provider>
  );
}
