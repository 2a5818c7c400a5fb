// Region agreement (issue 15): where two or more people marked the same image, how well their marks agree.
// Boxes: for each pair of people who boxed the image, their boxes are matched greedily by IoU (the best
// pair first, then the best of the rest…), a box left without a partner counts 0, and the pair's figure is
// the mean over max(their box counts); an image's figure is the mean over its pairs of people, and the
// report's the mean over images (each image once, whatever its number of people). Tags are not compared
// here: two boxes on the same spot agree on where, whatever each calls it. "Not present": for each image
// and tag that someone said is not present, among the people who judged that tag on that image (not
// present, or a box or point with the tag), the share of pairs who say the same; the mean over those
// image-tags. Points are not compared (they have no area).
import type { Figure, RegionAgreement } from '../../../shared/api/review';
import { readLabelBody } from '../../../shared/labelBodies';
import type { RegionMark } from '../../../shared/regions';
import { canonicalJson } from '../../../shared/rubric';

export type Box = [number, number, number, number];

/** Intersection over union of two boxes [x0, y0, x1, y1]. */
export function boxIoU(a: Box, b: Box): number {
  const w = Math.min(a[2], b[2]) - Math.max(a[0], b[0]);
  const h = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
  if (w <= 0 || h <= 0) return 0;
  const inter = w * h;
  const union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter;
  return union > 0 ? inter / union : 0;
}

/** Two people's boxes on one image: greedy matching by IoU, the mean over max(|a|, |b|) (unmatched = 0). */
export function matchedIoU(a: readonly Box[], b: readonly Box[]): number {
  const most = Math.max(a.length, b.length);
  if (most === 0) return 0;
  const pairs: { i: number; j: number; iou: number }[] = [];
  a.forEach((x, i) => b.forEach((y, j) => pairs.push({ i, j, iou: boxIoU(x, y) })));
  // Best first; equal IoUs in a fixed order, so the figure never depends on the order rows were read in.
  pairs.sort((p, q) => q.iou - p.iou || p.i - q.i || p.j - q.j);
  const usedA = new Set<number>();
  const usedB = new Set<number>();
  let sum = 0;
  for (const p of pairs) {
    if (p.iou <= 0) break;
    if (usedA.has(p.i) || usedB.has(p.j)) continue;
    usedA.add(p.i);
    usedB.add(p.j);
    sum += p.iou;
  }
  return sum / most;
}

/** One person's marks on one image (`unit`: the item and the image's place and hash). */
export interface PersonMarks {
  unit: string;
  annotator: string | number;
  marks: readonly RegionMark[];
}

export const mean = (values: number[]) => values.reduce((s, v) => s + v, 0) / values.length;
export const figure = (values: number[], none: string): Figure => (values.length ? { value: mean(values), n: values.length, reason: null } : { value: null, n: 0, reason: none });

export function regionAgreement(entries: Iterable<PersonMarks>): RegionAgreement {
  // unit → person → their marks there (one person's marks from several revisions joined, each mark once).
  const byUnit = new Map<string, Map<string | number, Map<string, RegionMark>>>();
  for (const { unit, annotator, marks } of entries) {
    let people = byUnit.get(unit);
    if (!people) byUnit.set(unit, (people = new Map()));
    let mine = people.get(annotator);
    if (!mine) people.set(annotator, (mine = new Map()));
    for (const mark of marks) mine.set(canonicalJson(mark), mark);
  }
  const boxScores: number[] = [];
  const absentScores: number[] = [];
  for (const people of byUnit.values()) {
    const boxers = [...people.values()].map((marks) => [...marks.values()].filter((m) => m.kind === 'box' && m.box).map((m) => m.box!)).filter((boxes) => boxes.length > 0);
    if (boxers.length >= 2) {
      const pairs: number[] = [];
      for (let i = 0; i < boxers.length; i++) for (let j = i + 1; j < boxers.length; j++) pairs.push(matchedIoU(boxers[i]!, boxers[j]!));
      boxScores.push(mean(pairs));
    }
    // tag → each person's word on it here: not present (true) or marked (false).
    const said = new Map<string, boolean[]>();
    for (const marks of people.values()) {
      const mine = new Map<string, boolean>();
      for (const m of marks.values()) mine.set(m.tag, (mine.get(m.tag) ?? false) || m.kind === 'absent');
      for (const [tag, isAbsent] of mine) said.set(tag, [...(said.get(tag) ?? []), isAbsent]);
    }
    for (const words of said.values()) {
      if (words.length < 2 || !words.includes(true)) continue;
      let agree = 0;
      let pairs = 0;
      for (let i = 0; i < words.length; i++)
        for (let j = i + 1; j < words.length; j++) {
          pairs++;
          if (words[i] === words[j]) agree++;
        }
      absentScores.push(agree / pairs);
    }
  }
  return {
    boxes: figure(boxScores, 'no image was boxed by two or more people'),
    absent: figure(absentScores, 'no image has a tag two or more people judged with one of them saying "not present"'),
  };
}

/**
 * Collects region marks from review rows as they pass (the report reads each task's labels once): a row's
 * body is parsed only when its text holds "regions".
 */
export function regionWatcher() {
  const entries: PersonMarks[] = [];
  const see = (row: { itemId: number; annotatorId: number; body: string }) => {
    if (!row.body.includes('"regions"')) return;
    const regions: unknown = readLabelBody(row.body).regions;
    if (!Array.isArray(regions)) return;
    const byImage = new Map<string, RegionMark[]>();
    for (const mark of regions as RegionMark[]) {
      const unit = `${row.itemId}\u0000${String(mark.at)}\u0000${mark.image}`;
      byImage.set(unit, [...(byImage.get(unit) ?? []), mark]);
    }
    for (const [unit, marks] of byImage) entries.push({ unit, annotator: row.annotatorId, marks });
  };
  return {
    *watch<T extends { itemId: number; annotatorId: number; body: string }>(rows: Iterable<T>): Generator<T> {
      for (const row of rows) {
        see(row);
        yield row;
      }
    },
    /** Rows read apart (the pairwise heads with region marks, as columns carry them). */
    see(rows: Iterable<{ itemId: number; annotatorId: number; body: string }>): void {
      for (const row of rows) see(row);
    },
    result: (): RegionAgreement => regionAgreement(entries),
  };
}
