// Why a response got no score, said so a person can act on it, and grouped: the run summary lists each
// reason once with how many responses it hit and the first few of them.
import type { ModelSpec, UnscorableReason } from './types';

/** What readScores found wrong with a row's output. */
export type NoScore = 'not_a_number' | 'no_steps' | 'steps_cut';

const EXAMPLES = 3;

/**
 * Why a response of an item holding images gets no score: a text model would read each image as the
 * words "[image]" and score what it cannot see. Such items are kept, and scored once images are shown.
 */
export const HOLDS_IMAGES = 'holds images, which a text model would read as the words "[image]": such items are kept but not scored until images are shown';

export function noScoreReason(why: NoScore, spec: ModelSpec): string {
  switch (why) {
    case 'not_a_number':
      return 'the model returned no number for it (NaN or infinity): check that the model folder holds the model it should';
    case 'no_steps':
      return 'the response has no steps to score: its text is empty or only spaces';
    case 'steps_cut': {
      const cut = spec.truncationSide === 'right' ? 'end' : 'start';
      const other = spec.truncationSide === 'right' ? 'left' : 'right';
      return `prompt and response are longer than the model's ${spec.maxLength} tokens, and cutting the ${cut} to fit removed every step tag, so no step could be scored: use a model with a longer max length, or set "truncation_side": "${other}" in arbiter-model.json`;
    }
  }
}

/** A response's place as people read it: the item's id from the file (else its number) and A / B… in source order. */
export function responseName(item: { externalId: string | null; seq: number }, responseIndex: number): string {
  return `item ${item.externalId ?? `#${item.seq + 1}`}, response ${String.fromCharCode(65 + responseIndex)}`;
}

export class UnscorableLog {
  private readonly byReason = new Map<string, UnscorableReason>();

  add(reason: string, where: string): void {
    let entry = this.byReason.get(reason);
    if (!entry) this.byReason.set(reason, (entry = { reason, count: 0, examples: [] }));
    entry.count++;
    if (entry.examples.length < EXAMPLES) entry.examples.push(where);
  }

  get reasons(): UnscorableReason[] {
    return [...this.byReason.values()].sort((a, b) => b.count - a.count);
  }
}
