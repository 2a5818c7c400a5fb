// What the marking state shares with each image's layer (RegionLayer) and the popover: the item's marks,
// which image the keyboard marks (its crosshair and the corner placed), what is being drawn, and the
// actions a layer calls (open the popover on a drawn mark or an existing one, make an image current).
import { createContext, useContext } from 'react';
import type { ImagePlace, RegionMark } from '../../../../../shared/regions';
import type { Point } from './regionModel';

export type DrawKind = 'box' | 'point';

/** The image the keyboard marks on, and where its crosshair is. */
export interface ActiveImage {
  image: string;
  place: ImagePlace;
  kind: DrawKind;
  cursor: Point;
  /** A box's first corner, once placed (Enter); the second Enter places the opposite one. */
  anchor: Point | null;
}

/** The mark the popover edits: a new one (index undefined) or the mark at `index`. */
export interface Editing {
  draft: RegionMark;
  index?: number;
  /** The image's layer, to place the popover beside the mark. */
  layer: HTMLElement;
}

export interface RegionState {
  marks: readonly RegionMark[];
  active: ActiveImage | null;
  editing: Editing | null;
  /** Opens the popover for a new mark drawn on a layer, or for the mark at `index`. */
  edit(draft: RegionMark, layer: HTMLElement, index?: number): void;
  /** Makes an image the keyboard's (the toolbar's box / point buttons), or none. */
  activate(image: string, place: ImagePlace, kind: DrawKind): void;
  /** Lists a layer on the page, for Tab between images and `.` on the focused one; returns its removal. */
  register(layer: { image: string; place: ImagePlace; element: HTMLElement }): () => void;
}

export const RegionContext = createContext<RegionState | null>(null);

export function useRegionState(): RegionState | null {
  return useContext(RegionContext);
}
