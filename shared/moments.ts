// Temporal marks on a response's video (issue 24, item 4): an instant or a range, with a tag and a note, and
// an episode's first failure moment (the time analogue of a chain's first error), as a label revision's
// body carries them (LabelBody.moments, LabelBody.first_failure: shared/labelBodies.ts), so labels files
// and the team hub carry them as they carry every body field. Agreement on them: temporal IoU for ranges,
// instants within a tolerance. Pure: the service, review and the screens share it.
import { z } from 'zod';

/** At most this many marks in one revision. */
export const MOMENTS_MAX = 200;
export const MOMENT_TAG_MAX = 40;
export const MOMENT_NOTE_MAX = 2_000;
/** Seconds two instants (or two first failures) may differ by and still agree, unless a caller says. */
export const INSTANT_TOLERANCE_S = 0.5;
/** The IoU from which two ranges are the same mark. */
export const RANGE_MATCH_IOU = 0.5;

const seconds = z.number().finite('expected a number of seconds').min(0, 'expected 0 or more seconds').max(7 * 24 * 3600, 'expected at most a week of seconds');

export const momentSchema = z
  .object({
    /** The response's index in source order (0 is A). */
    at: z.number().int('expected a response index (0, 1, …)').min(0, 'expected a response index (0, 1, …)'),
    /** Seconds into the response's video. */
    from: seconds,
    /** The end of a range; absent for an instant. */
    to: seconds.optional(),
    tag: z.string().trim().min(1, 'expected a tag').max(MOMENT_TAG_MAX, `a tag longer than ${MOMENT_TAG_MAX} characters`),
    note: z.string().max(MOMENT_NOTE_MAX, `a note longer than ${MOMENT_NOTE_MAX} characters`).optional(),
  })
  .strict()
  .refine((m) => m.to === undefined || m.to > m.from, { message: 'a range ends after it starts (to > from)', path: ['to'] });

export const momentsSchema = z.array(momentSchema).max(MOMENTS_MAX, `more than ${MOMENTS_MAX} marks`);

export type Moment = z.infer<typeof momentSchema>;

/** Temporal IoU of two marks: ranges by overlap over union; an instant counts as a range of no length. */
export function temporalIoU(a: Pick<Moment, 'from' | 'to'>, b: Pick<Moment, 'from' | 'to'>): number {
  const [a0, a1] = [a.from, a.to ?? a.from];
  const [b0, b1] = [b.from, b.to ?? b.from];
  const union = Math.max(a1, b1) - Math.min(a0, b0);
  const overlap = Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));
  if (union === 0) return 1;
  return overlap / union;
}

/** Whether two marks are the same: same response and tag; ranges with IoU ≥ RANGE_MATCH_IOU, instants within `tolerance`. */
export function sameMoment(a: Moment, b: Moment, tolerance = INSTANT_TOLERANCE_S): boolean {
  if (a.at !== b.at || a.tag.toLowerCase() !== b.tag.toLowerCase()) return false;
  const instants = a.to === undefined && b.to === undefined;
  if (instants) return Math.abs(a.from - b.from) <= tolerance;
  if ((a.to === undefined) !== (b.to === undefined)) return false;
  return temporalIoU(a, b) >= RANGE_MATCH_IOU;
}

/**
 * How much two people's marks on one item agree, 0 to 1: marks are paired one to one (each with its best
 * unpaired match), and the score is 2 × pairs / (marks of one + marks of the other), an F1. Neither marked
 * anything: 1.
 */
export function momentAgreement(a: readonly Moment[], b: readonly Moment[], tolerance = INSTANT_TOLERANCE_S): number {
  if (!a.length && !b.length) return 1;
  const free = new Set(b.map((_, i) => i));
  let pairs = 0;
  for (const mark of a) {
    let best = -1;
    let bestScore = -1;
    for (const j of free) {
      const other = b[j]!;
      if (!sameMoment(mark, other, tolerance)) continue;
      const score = mark.to === undefined ? -Math.abs(mark.from - other.from) : temporalIoU(mark, other);
      if (score > bestScore) [best, bestScore] = [j, score];
    }
    if (best >= 0) {
      free.delete(best);
      pairs++;
    }
  }
  return (2 * pairs) / (a.length + b.length);
}

/** Whether two first failures agree: both none, or both within `tolerance` seconds. */
export function failuresAgree(a: number | null | undefined, b: number | null | undefined, tolerance = INSTANT_TOLERANCE_S): boolean {
  if (a === null || a === undefined || b === null || b === undefined) return (a ?? null) === (b ?? null);
  return Math.abs(a - b) <= tolerance;
}
