// Which images are on the page, which one has the focus (the one the mouse last hovered or clicked), and
// which are zoomed. `z` zooms the focused image; with exactly two images on screen (two generated images,
// say), both, side by side and synced; Shift+Z only the focused one. One key listener serves the page
// while any image is there.
import { useSyncExternalStore } from 'react';
import type { ImagePart, ImagePlace, ImageRef } from '../../../../shared/images';
import { isTypingTarget } from '../keys';
import { pointAt } from '../mediaFocus';
import type { ImageOverlay } from './overlay';

export interface ZoomEntry {
  id: number;
  element: HTMLElement;
  project: string;
  part: ImagePart;
  image: ImageRef;
  place: ImagePlace;
  overlay: ImageOverlay | null;
}

const entries = new Map<number, ZoomEntry>();
let nextId = 1;
let focused: number | null = null;
let open: readonly ZoomEntry[] | null = null;
const subscribers = new Set<() => void>();

function changed(): void {
  for (const notify of [...subscribers]) notify();
}

export function newImageId(): number {
  return nextId++;
}

/** Lists an image shown on the page; returns its removal. */
export function registerImage(entry: ZoomEntry): () => void {
  entries.set(entry.id, entry);
  if (entries.size === 1) listen();
  return () => {
    if (entries.get(entry.id) !== entry) return;
    entries.delete(entry.id);
    if (focused === entry.id) focused = null;
    // The item changed under the zoom view: it closes rather than show an image no longer on the page.
    if (open?.some((e) => e.id === entry.id)) closeZoom();
    if (entries.size === 0) unlisten();
  };
}

/** The image the mouse hovered or clicked last. */
export function focusImage(id: number): void {
  focused = id;
  pointAt('image');
}

function onScreen(el: HTMLElement): boolean {
  if (!el.isConnected || el.closest('[inert], [aria-hidden="true"]')) return false;
  if (typeof el.checkVisibility === 'function' && !el.checkVisibility({ visibilityProperty: true, opacityProperty: true })) return false;
  const rect = el.getBoundingClientRect();
  if (rect.width < 1 || rect.height < 1) return false;
  return rect.bottom > 0 && rect.right > 0 && rect.top < innerHeight && rect.left < innerWidth;
}

/** Which images `z` zooms now (document order), or none when no image is on screen. */
export function zoomTargets(onlyFocused: boolean): ZoomEntry[] {
  const visible = [...entries.values()]
    .filter((e) => onScreen(e.element))
    .sort((a, b) => (a.element.compareDocumentPosition(b.element) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
  if (!visible.length) return [];
  if (!onlyFocused && visible.length === 2) return visible;
  return [visible.find((e) => e.id === focused) ?? visible[0]!];
}

export function openZoom(targets: ZoomEntry[]): void {
  if (!targets.length) return;
  open = targets;
  changed();
}

export function closeZoom(): void {
  if (!open) return;
  open = null;
  changed();
}

function subscribe(notify: () => void): () => void {
  subscribers.add(notify);
  return () => subscribers.delete(notify);
}

/** The zoomed images (null while the zoom view is closed). */
export function useZoomed(): readonly ZoomEntry[] | null {
  return useSyncExternalStore(
    subscribe,
    () => open,
    () => null,
  );
}

function onKey(event: KeyboardEvent): void {
  if (open || event.defaultPrevented || event.isComposing) return;
  if (event.code !== 'KeyZ' && event.key.toLowerCase() !== 'z') return;
  if (event.ctrlKey || event.metaKey || event.altKey || event.repeat) return;
  if (isTypingTarget(event.target)) return;
  // A dialog (the shortcuts list, a question) has the keyboard.
  if (document.querySelector('[aria-modal="true"]')) return;
  const targets = zoomTargets(event.shiftKey);
  if (!targets.length) return;
  event.preventDefault();
  openZoom(targets);
}

function listen(): void {
  if (typeof window !== 'undefined') window.addEventListener('keydown', onKey);
}

function unlisten(): void {
  if (typeof window !== 'undefined') window.removeEventListener('keydown', onKey);
}
