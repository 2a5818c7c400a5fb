// MM-RLHF (yifanzhang114/MM-RLHF on the Hub; github.com/Kwai-YuanQi/MM-RLHF): `dpo_pairs.jsonl` in the
// dataset folder beside the unzipped image folders (long/, mcq/, safety/, short/, video/), and
// MM-RLHF-RewardBench's `mm_reward_bench.jsonl` beside its images/ folder, JSON Lines of one pair each:
//   {"id", "prompt", "chosen", "rejected", "chosen_reason", "rejected_reason", "image": "long/…/x.jpg"}
// or "video" (a folder of frames) instead of "image". Written from the repository's readers: the README
// (the folder layout), llava/train/train_dpo.py (prompt / chosen / rejected; `image` a path, or a list,
// joined to the image folder; chosen_reason / rejected_reason the critiques its critic reward model
// learns; `is_tie`, which trl/trainer/reward_trainer.py trains as "the two are equal"; `ls_factor`, the
// MM-DPO weight; the reference log-probabilities its first step adds), llava/eval/eval_mm_reward_bench.py
// (reads the same fields; the pairs of one question share an `id`, which
// cal_performance_mmreweard_bench.py groups by) and scripts/convert_to_swift.py (joins `image` to the
// MM-RLHF folder).
// Import: the image(s) then `prompt` → the prompt (one user turn); chosen → response A, rejected → B; the
// `source` choice A (`is_tie: true` → tie); chosen_reason / rejected_reason → the `source` critiques of A
// and B. A `video` line is refused (a folder of frames is no image). The rest (ls_factor, the reference
// log-probabilities, …) stays in metadata.mm_rlhf in its place.
// Export: a line per decided pair, the same shape, the image written beside the file and `image` relative
// to it; every pair of an item keeps the item's `id` (the benchmark's grouping); a tie is `is_tie: true`.
// Not read: the ranked `data.jsonl` (models_output, per-aspect scores, final_ranking), whose field
// values no public loader or card documents.
import type { ContentPart, ItemRecord } from '../../../../shared/domain';
import { responseLetter } from '../../../../shared/letters';
import { decide, decidePairs, type SkipReason } from '../base/resolve';
import { decideCritique } from '../base/resolveRatings';
import { fill, keptRecord, skeleton } from '../recordSkeleton';
import { critiqueJudgement } from '../ratings/ratingJudgements';
import type { HeadLabel } from '../../store/labels';
import { RecordError, type ParsedRecord, type SourceJudgement } from '../types';
import { externalIdOf, hasOwn } from '../validate';
import { describeValue, promptParts, rawImage, requiredText, responseTextOf, visionPrompt } from './visionParts';

type Json = Record<string, unknown>;

export const MMRLHF_METADATA = 'mm_rlhf';
/** Values computed for the pair in its file's order (chosen first): wrong once the order changes. */
const ORDER_BOUND = ['ls_factor', 'reference_chosen_logp', 'reference_rejected_logp'];

function images(record: Json): ContentPart[] {
  const { image, video } = record;
  if ((image === undefined || image === null) && video !== undefined && video !== null)
    throw new RecordError(
      `video: ${typeof video === 'string' ? JSON.stringify(video) : describeValue(video)} is a video (a folder of frames); Arbiter imports MM-RLHF's image lines only. Leave the video lines out with --skip-invalid`,
    );
  if (Array.isArray(image)) {
    if (image.length === 0) throw new RecordError('image: empty list');
    return image.map((entry, i) => rawImage(entry, `image[${i}]`));
  }
  return [rawImage(image, 'image')];
}

export function parseMmRlhf(record: Json): ParsedRecord {
  const prompt = requiredText(record, 'prompt');
  const parts = images(record);
  const chosen = requiredText(record, 'chosen');
  const rejected = requiredText(record, 'rejected');
  const { is_tie: tie } = record;
  if (!(tie === undefined || tie === null || typeof tie === 'boolean')) throw new RecordError(`is_tie: expected true or false, got ${JSON.stringify(tie)}`);
  const stored = ['id', 'prompt', 'image', 'chosen', 'rejected', 'is_tie'];
  const critiques: Record<string, string> = {};
  for (const [field, letter] of [
    ['chosen_reason', 'A'],
    ['rejected_reason', 'B'],
  ] as const) {
    const value = record[field];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') throw new RecordError(`${field}: expected a string (the critique of the ${field === 'chosen_reason' ? 'chosen' : 'rejected'} response), got ${describeValue(value)}`);
    if (value.length === 0) continue;
    critiques[letter] = value;
    stored.push(field);
  }
  const judgements: SourceJudgement[] = [{ task: 'pairwise', choice: tie === true ? 'tie' : 'A', body: {} }];
  const critique = critiqueJudgement(critiques);
  if (critique) judgements.push(critique);
  return {
    draft: {
      externalId: externalIdOf(record.id),
      prompt: visionPrompt(parts, prompt),
      responses: [
        { content: chosen, model: null, steps: null },
        { content: rejected, model: null, steps: null },
      ],
      reference: null,
      metadata: { [MMRLHF_METADATA]: skeleton(record, stored) },
    },
    preference: null,
    judgements,
  };
}

// ---------------------------------------------------------------------------------------------------
// Export

export interface MmRlhfPair {
  winner: number;
  loser: number;
  /** The deciding label called the two equal (written as the file's order, `is_tie: true`). */
  tie: boolean;
}

/**
 * The pairs an item gives: as every pairwise export decides them, except that a two-response item whose
 * deciding choice is a tie gives its pair with `is_tie` (MM-RLHF trains ties), in source order.
 */
export function decideMmRlhf(count: number, pairwise: readonly HeadLabel[], rankings: readonly HeadLabel[], mode: 'all' | 'best-worst' | 'adjacent', annotator?: string): { pairs: MmRlhfPair[] } | { skip: SkipReason } {
  if (count === 2 && decide(2, pairwise, annotator).skip === 'tie') return { pairs: [{ winner: 0, loser: 1, tie: true }] };
  const decision = decidePairs(count, pairwise, rankings, mode, annotator);
  if (decision.skip) return { skip: decision.skip };
  return { pairs: decision.pairs.map((p) => ({ winner: p.winner, loser: p.loser, tie: false })) };
}

export interface MmRlhfLine extends MmRlhfPair {
  item: ItemRecord;
  /** The prompt's images as the line names them: paths beside the output (or URLs never fetched). */
  images: string[];
  /** The deciding critique of a response by its index, or null. */
  critique: (response: number) => string | null;
}

export function encodeMmRlhf({ item, winner, loser, tie, images: paths, critique }: MmRlhfLine): Json {
  let kept = keptRecord(item, MMRLHF_METADATA);
  if (kept && winner !== 0) kept = Object.fromEntries(Object.entries(kept).filter(([key]) => !ORDER_BOUND.includes(key)));
  return fill(kept, {
    id: item.externalId ?? item.uid,
    prompt: promptParts(item.prompt).text,
    image: paths.length === 1 ? paths[0] : paths,
    chosen: responseTextOf(item.responses[winner]!.content),
    rejected: responseTextOf(item.responses[loser]!.content),
    chosen_reason: critique(winner) ?? undefined,
    rejected_reason: critique(loser) ?? undefined,
    is_tie: tie ? true : kept && hasOwn(kept, 'is_tie') ? false : undefined,
  });
}

/** The deciding critique of each response (by index) among an item's critique labels. */
export function critiquesOf(labels: readonly HeadLabel[], annotator?: string): (response: number) => string | null {
  return (response) => (labels.length ? (decideCritique(labels, responseLetter(response), annotator)?.text ?? null) : null);
}
