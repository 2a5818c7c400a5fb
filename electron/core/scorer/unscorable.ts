// Why a response got no score, said so a person can act on it, and grouped: the run summary lists each
// reason once with how many responses it hit and the first few of them.
import type { Content } from '../../../shared/domain';
import { holdsImages } from '../../../shared/images';
import { videosOf } from '../../../shared/videos';
import type { ModelSpec, UnscorableReason } from './types';

/** What readScores found wrong with a row's output. */
export type NoScore = 'not_a_number' | 'no_steps' | 'steps_cut';

const EXAMPLES = 3;

/** A text model on a generated image (text-to-image pairs, rankings of images): it cannot see it. */
export const IMAGE_RESPONSE = 'the responses are images, which a text model cannot see: load an image reward model (docs/models.md, "Image reward models")';

/**
 * A text model on a question about an image (text answers): it would read the image as the words
 * "[image]" and score what it cannot see.
 */
export const VISION_LANGUAGE =
  'the prompt holds images, which a text model would read as the words "[image]": a vision-language reward model is not supported yet; image reward models score generated images';

/** An image model on a text response. */
export const TEXT_RESPONSE = 'the response is text, not an image: an image reward model scores generated images';

/** An image model on an item whose prompt holds images. */
export const IMAGE_PROMPT =
  "the prompt holds images, and an image reward model reads a prompt's text only: image-to-image and vision-language items are not scored by it";

/** A text model on a generated video. */
export const VIDEO_RESPONSE = 'the responses are videos, which a text model cannot see: load a video reward model (docs/models.md, "Video reward models")';

/** An image model on a generated video. */
export const IMAGE_MODEL_VIDEO = 'the response is a video: an image reward model scores one generated image (load a video reward model)';

/** A video model on a text response. */
export const VIDEO_TEXT_RESPONSE = 'the response is text, not a video: a video reward model scores generated videos';

/** A video model on a generated image (the demo's text-to-image pairs, when a whole project is scored). */
export const VIDEO_MODEL_IMAGE = 'the response is an image, not a video: a video reward model scores generated videos (load an image reward model)';

/** A video model on an item whose prompt holds images or videos (video question answering, image-to-video). */
export const VIDEO_PROMPT = "the prompt holds images or videos, and a video reward model reads a prompt's text only: video questions and image-to-video items are not scored by it";

/**
 * Responses a model does not take by design, in a few words: the Models screen says them as notes, not
 * as warnings (a demo project scored by its text and image models is not six problems).
 */
const BY_DESIGN = new Map<string, string>([
  [IMAGE_RESPONSE, 'image responses (a text model reads text)'],
  [VISION_LANGUAGE, 'prompts with images (a vision-language reward model is not supported yet)'],
  [TEXT_RESPONSE, 'text responses (an image reward model scores generated images)'],
  [IMAGE_PROMPT, 'prompts with images (image-to-image and vision-language items are not for an image reward model)'],
  [VIDEO_RESPONSE, 'video responses (a text model reads text)'],
  [IMAGE_MODEL_VIDEO, 'video responses (an image reward model scores generated images)'],
  [VIDEO_TEXT_RESPONSE, 'text responses (a video reward model scores generated videos)'],
  [VIDEO_MODEL_IMAGE, 'image responses (a video reward model scores generated videos)'],
  [VIDEO_PROMPT, 'prompts with images or videos (not for a video reward model)'],
]);

/** Why a text model cannot score this response (it or its prompt holds images), or null when it can. */
export function textModelCannotRead(prompt: Content, response: Content): string | null {
  if (holdsImages(response)) return IMAGE_RESPONSE;
  if (videosOf(response).length) return VIDEO_RESPONSE;
  if (holdsImages(prompt)) return VISION_LANGUAGE;
  return null;
}

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
    if (!entry) {
      const byDesign = BY_DESIGN.get(reason);
      this.byReason.set(reason, (entry = { reason, count: 0, examples: [], ...(byDesign ? { byDesign } : {}) }));
    }
    entry.count++;
    if (entry.examples.length < EXAMPLES) entry.examples.push(where);
  }

  get reasons(): UnscorableReason[] {
    return [...this.byReason.values()].sort((a, b) => b.count - a.count);
  }
}
