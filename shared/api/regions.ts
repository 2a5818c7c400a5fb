// Region marks as a label revision carries them (LabelBody.regions, shared/regions.ts), checked the same
// way whether the app saves them (saveLabel, saveRanking, saveVerdict, saveRatings, saveRegions) or a
// labels file brings them (electron/core/formats/exchange/labelLine.ts). Checked by hand so that every
// refusal names the mark and the field ("regions[3].box: …") and says what fits there. What the item
// holds (the image, the response) is checked against the item in electron/core/base/labelRules.ts.
import { z } from 'zod';
import { tagOnImage, type RegionMark } from '../regions';
import { shownValue } from './common';

/** At most this many marks in one revision. */
export const REGIONS_MAX = 200;
/** A tag's length in characters. */
export const REGION_TAG_MAX = 40;
/** A note's length in characters. */
export const REGION_NOTE_MAX = 2_000;

const MARK_KEYS = ['image', 'at', 'kind', 'box', 'point', 'tag', 'note'];
const SHA256 = /^[0-9a-f]{64}$/;

type Say = (message: string, path: PropertyKey[]) => void;

const fraction = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 1;
const listed = (values: readonly unknown[]) => `[${values.map((v) => (typeof v === 'number' ? String(v) : shownValue(v))).join(', ')}]`;

/** The problems of one mark, each said at its field. */
function markProblems(mark: unknown, say: Say): void {
  if (mark === null || typeof mark !== 'object' || Array.isArray(mark)) return say(`expected a region mark {"image", "at", "kind", "tag"}, got ${shownValue(mark)}`, []);
  const m = mark as Record<string, unknown>;
  const unknown = Object.keys(m).filter((k) => !MARK_KEYS.includes(k));
  if (unknown.length) say(`expected only ${MARK_KEYS.map((k) => `"${k}"`).join(', ')} in a region mark, not ${unknown.map((k) => `"${k}"`).join(', ')}`, []);
  if (typeof m.image !== 'string' || !SHA256.test(m.image)) say(`expected the image's sha256 (64 lowercase hex digits), got ${shownValue(m.image)}`, ['image']);
  if (m.at !== 'prompt' && !(typeof m.at === 'number' && Number.isInteger(m.at) && m.at >= 0))
    say(`expected where the image is: "prompt" or a response's index in source order (0, 1, …), got ${shownValue(m.at)}`, ['at']);
  const kind = m.kind;
  if (kind !== 'box' && kind !== 'point' && kind !== 'absent') say(`expected a kind: "box", "point" or "absent" (not present), got ${shownValue(kind)}`, ['kind']);
  if (kind === 'box') {
    const box = m.box;
    if (!Array.isArray(box) || box.length !== 4) say(`expected a box [x0, y0, x1, y1] in fractions of the image (0 to 1), got ${shownValue(box)}`, ['box']);
    else if (!box.every(fraction)) say(`expected every corner in fractions of the image, from 0 to 1, got ${listed(box)}`, ['box']);
    else if (!((box[0] as number) < (box[2] as number) && (box[1] as number) < (box[3] as number)))
      say(`expected x0 < x1 and y0 < y1 (left before right, top above bottom, and not empty), got ${listed(box)}`, ['box']);
  } else if (m.box !== undefined) say(`expected no box in a mark of kind ${shownValue(kind)} (a box is for kind "box")`, ['box']);
  if (kind === 'point') {
    const point = m.point;
    if (!Array.isArray(point) || point.length !== 2) say(`expected a point [x, y] in fractions of the image (0 to 1), got ${shownValue(point)}`, ['point']);
    else if (!point.every(fraction)) say(`expected x and y in fractions of the image, from 0 to 1, got ${listed(point)}`, ['point']);
  } else if (m.point !== undefined) say(`expected no point in a mark of kind ${shownValue(kind)} (a point is for kind "point")`, ['point']);
  if (typeof m.tag !== 'string' || m.tag.trim() === '') say(`expected a tag: 1 to ${REGION_TAG_MAX} characters, got ${m.tag === '' ? 'an empty one' : shownValue(m.tag)}`, ['tag']);
  else if (m.tag.length > REGION_TAG_MAX) say(`expected a tag of at most ${REGION_TAG_MAX} characters, got ${m.tag.length}`, ['tag']);
  if (m.note !== undefined) {
    if (typeof m.note !== 'string') say(`expected the note as text, got ${shownValue(m.note)}`, ['note']);
    else if (m.note.length > REGION_NOTE_MAX) say(`expected a note of at most ${REGION_NOTE_MAX.toLocaleString('en')} characters, got ${m.note.length.toLocaleString('en')}`, ['note']);
  }
}

/**
 * The marks of one revision: at most REGIONS_MAX, each checked at its fields; and a tag said to be not
 * present on an image is not also marked there (a box or point with the same tag on the same image).
 */
export const regionMarks = z.custom<RegionMark[]>(() => true).superRefine((value, ctx) => {
  const say: Say = (message, path) => ctx.addIssue({ code: 'custom', message, path, input: value });
  if (!Array.isArray(value)) return say(`expected a list of region marks, got ${shownValue(value)}`, []);
  if (value.length > REGIONS_MAX) return say(`expected at most ${REGIONS_MAX} region marks in one revision, got ${value.length}`, []);
  let bad = false;
  value.forEach((mark, i) =>
    markProblems(mark, (message, path) => {
      bad = true;
      say(message, [i, ...path]);
    }),
  );
  if (bad) return;
  const marks = value as RegionMark[];
  const placed = new Map<string, number>();
  marks.forEach((m, i) => {
    if (m.kind !== 'absent' && !placed.has(tagOnImage(m))) placed.set(tagOnImage(m), i);
  });
  marks.forEach((m, i) => {
    const other = m.kind === 'absent' ? placed.get(tagOnImage(m)) : undefined;
    if (other !== undefined)
      say(`expected "not present" only for a tag not marked on the same image, but regions[${other}] marks "${m.tag}" there: take one of the two out`, [i, 'kind']);
  });
});
