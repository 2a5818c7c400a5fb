// How the screens edit region marks (renderer/src/components/images/regions/regionModel.ts): a box from
// two corners in any order, a thin drag is no box, the crosshair's steps, "not present" kept consistent
// with the marks on the same image, numbering, and review's per-person styles (never colour alone).
import { describe, expect, it } from 'vitest';
import type { RegionMark } from '../../../shared/regions';
import { boxFrom, labelPlacement, labelStyle, marksOn, moveCursor, personStyle, placedTags, textOn, withMark, withoutMark } from '../../../renderer/src/components/images/regions/regionModel';

const X = 'a'.repeat(64);
const Y = 'b'.repeat(64);
const box: RegionMark = { image: X, at: 0, kind: 'box', box: [0.1, 0.1, 0.4, 0.4], tag: 'artifact' };
const absent: RegionMark = { image: X, at: 0, kind: 'absent', tag: 'artifact' };

describe('region model', () => {
  it('makes a box from two corners in any order, rounded to 4 decimals and kept inside the image', () => {
    expect(boxFrom([0.6, 0.7], [0.2, 0.1])).toEqual([0.2, 0.1, 0.6, 0.7]);
    expect(boxFrom([-0.2, 0.123456], [1.3, 0.5])).toEqual([0, 0.1235, 1, 0.5]);
    expect(boxFrom([0.2, 0.2], [0.2021, 0.6])).toBeNull();
  });

  it('moves the crosshair 2% a press, 10% with Shift, 0.5% with Alt, never off the image', () => {
    expect(moveCursor([0.5, 0.5], 'ArrowRight')).toEqual([0.52, 0.5]);
    expect(moveCursor([0.5, 0.5], 'ArrowUp', { shiftKey: true })).toEqual([0.5, 0.4]);
    expect(moveCursor([0.5, 0.5], 'ArrowDown', { altKey: true })).toEqual([0.5, 0.505]);
    expect(moveCursor([0.99, 0], 'ArrowRight', { shiftKey: true })).toEqual([1, 0]);
    expect(moveCursor([0.5, 0.5], 'Enter')).toBeNull();
  });

  it('keeps "not present" and the marks on one image consistent', () => {
    // A box with the tag takes the tag's "not present" away on that image only.
    const onY: RegionMark = { ...absent, image: Y };
    expect(withMark([absent, onY], box)).toEqual([onY, box]);
    // "Not present" for a tag marked there is refused with a sentence.
    expect(withMark([box], absent)).toBe('“artifact” is marked on this image: it cannot be “not present” there too. Remove that mark first.');
    // Replacing the only box with "not present" is fine (the box is the one replaced).
    expect(withMark([box], absent, 0)).toEqual([absent]);
    expect(placedTags([box, { ...box, tag: 'misaligned', at: 1 }], X, 0)).toEqual(new Set(['artifact']));
    expect(withoutMark([box, absent, onY], 1)).toEqual([box, onY]);
  });

  it('numbers marks by their place in the item', () => {
    const list = [box, { ...box, image: Y }, { ...box, tag: 'other' }];
    expect(marksOn(list, X, 0).map((m) => m.index)).toEqual([0, 2]);
    expect(marksOn(list, X, 'prompt')).toEqual([]);
  });

  it('gives each person a colour, then a line style past seven people, with text that reads on it', () => {
    expect(personStyle(0)).toEqual({ colour: '#E69F00', line: 'solid' });
    expect(personStyle(7)).toEqual({ colour: '#E69F00', line: 'dashed' });
    expect(textOn('#F0E442')).toBe('#111');
    expect(textOn('#0072B2')).toBe('#fff');
  });

  it('puts a label where the image edge does not cut it off', () => {
    expect(labelPlacement({ ...box, box: [0.48, 0.48, 0.68, 0.58] })).toEqual({ inside: false, right: true });
    expect(labelPlacement({ ...box, box: [0.1, 0.05, 0.4, 0.4] })).toEqual({ inside: true, right: false });
    expect(labelPlacement({ ...box, kind: 'point', box: undefined, point: [0.9, 0.5] })).toEqual({ inside: false, right: true });
    // Right-aligned at the box's right edge, never wider than the room to the image's left edge.
    expect(labelStyle({ ...box, box: [0.48, 0.48, 0.68, 0.58] })).toEqual({ position: 'absolute', top: '48.000%', transform: 'translateY(-100%)', right: '32.000%', maxWidth: '68.000%' });
  });
});
