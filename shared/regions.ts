// Region marks: a box, a point or "not present" on one image, kept in the label revision it was saved
// with (LabelBody.regions) and exported with it. Images themselves: shared/images.ts.

/** Where an image sits in an item: the prompt, or a response by its source-order index. */
export type ImagePlace = 'prompt' | number;

/** Tags offered for a region; a project may use its own short words too. */
export const REGION_TAGS = ['artifact', 'misaligned', 'hallucinated object', 'unreadable text', 'other'] as const;

/**
 * A mark on one image tied to the judgement it is saved with. Coordinates are fractions of the image
 * as shown (after EXIF orientation), origin top-left: box [x0, y0, x1, y1] with x0 < x1, y0 < y1; point
 * [x, y]. 'absent' says the tagged thing was looked for and is not present (RichHF-style "no artifact").
 */
export interface RegionMark {
  /** sha256 of the image (ImageRef.sha256). */
  image: string;
  at: ImagePlace;
  kind: 'box' | 'point' | 'absent';
  box?: [number, number, number, number];
  point?: [number, number];
  tag: string;
  note?: string;
}

/**
 * A tag on one image in one place (the prompt's, or a response's): "not present" for a tag conflicts
 * with a box or point of the same tag there. The host's check (shared/api/regions.ts) and the marking
 * screen (regionModel.ts, by image and samePlace) use this same rule.
 */
export const tagOnImage = (m: Pick<RegionMark, 'image' | 'at' | 'tag'>): string => `${m.image}\u0000${String(m.at)}\u0000${m.tag}`;
