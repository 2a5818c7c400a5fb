// The trl-vision parser (electron/core/formats/vision/trlVision.ts) on rows written after TRL's
// prepare_multimodal_messages (trl/data_utils.py) and DataCollatorForVisionPreference (an `images` list or
// one `image`): which placeholder takes which image, and the errors that name the counts. The raw parts it
// hands over are stored by images/resolve.ts (tested in the integration tests).
import { describe, expect, it } from 'vitest';
import { parseTrlVision } from '../../../electron/core/formats/vision/trlVision';
import { RecordError } from '../../../electron/core/formats/types';

const user = (...content: unknown[]) => [{ role: 'user', content }];
const assistant = (...content: unknown[]) => [{ role: 'assistant', content }];
const text = (t: string) => ({ type: 'text', text: t });
const IMG = { type: 'image' };

const error = (record: Record<string, unknown>) => {
  try {
    parseTrlVision(record);
  } catch (e) {
    if (e instanceof RecordError) return e.message;
    throw e;
  }
  return null;
};

describe('parseTrlVision', () => {
  it('fills placeholders in order across prompt, chosen and rejected, each with its column and index', () => {
    const parsed = parseTrlVision({ id: 7, prompt: user(IMG, text('a'), IMG), chosen: assistant(IMG), rejected: assistant(text('no')), images: ['x.png', 'y.png', 'z.png'], source: 'kept' });
    expect(parsed.draft.externalId).toBe('7');
    expect(parsed.preference).toBe('A');
    expect(parsed.draft.prompt).toEqual(user({ type: 'image', image: 'x.png', column: 'images', index: 0 }, text('a'), { type: 'image', image: 'y.png', column: 'images', index: 1 }));
    expect(parsed.draft.responses[0]!.content).toEqual(assistant({ type: 'image', image: 'z.png', column: 'images', index: 2 }));
    expect(parsed.draft.metadata).toEqual({ source: 'kept' });
  });

  it('takes one `image` (as the collator does), and Parquet struct nulls', () => {
    const cell = { bytes: 'iVBORw0K', path: 'a.png' };
    const parsed = parseTrlVision({ prompt: user({ type: 'image', text: null }, { type: 'text', text: 'q' }), chosen: 'yes', rejected: 'no', image: cell });
    expect(parsed.draft.prompt).toEqual(user({ type: 'image', image: cell, column: 'image', index: 0 }, text('q')));
  });

  it('puts images before a string user message when no placeholder is written (TRL’s rule)', () => {
    const parsed = parseTrlVision({ prompt: 'What is shown?', chosen: 'A', rejected: 'B', images: ['a.png', 'b.png'] });
    expect(parsed.draft.prompt).toEqual(user({ type: 'image', image: 'a.png', column: 'images', index: 0 }, { type: 'image', image: 'b.png', column: 'images', index: 1 }, text('What is shown?')));
  });

  it('leaves a part that carries its own image alone, and a text-only row as it is', () => {
    const own = { type: 'image', url: 'https://example.org/a.png' };
    const parsed = parseTrlVision({ prompt: user(own, text('q')), chosen: 'A', rejected: 'B', images: [] });
    expect(parsed.draft.prompt).toEqual(user(own, text('q')));
    expect(parseTrlVision({ prompt: 'plain', chosen: 'A', rejected: 'B', images: [] }).draft.prompt).toBe('plain');
  });

  it('names both counts when placeholders and images differ, and other mistakes by field', () => {
    expect(error({ prompt: user(IMG, IMG, text('q')), chosen: assistant(IMG), rejected: 'B', images: ['a'] })).toBe(
      'images: 1 image for 3 {"type": "image"} placeholders (2 in prompt, 1 in chosen, 0 in rejected); each placeholder takes the next image in order, so the two counts must be equal',
    );
    expect(error({ prompt: user(text('q')), chosen: 'A', rejected: 'B', images: ['a'] })).toMatch(/^images: 1 image for 0 \{"type": "image"\} placeholders/);
    expect(error({ prompt: user(IMG, text('q')), chosen: 'A', rejected: 'B', images: [null] })).toBe('images[0]: null, not an image');
    expect(error({ prompt: user(IMG, text('q')), chosen: 'A', rejected: 'B', images: ['a'], image: 'b' })).toMatch(/^images, image: both are set/);
    expect(error({ prompt: user(IMG, text('q')), chosen: 'A', rejected: 'B', images: 'a.png' })).toBe('images: expected a list of images, got string');
    expect(error({ chosen: 'A', rejected: 'B', images: [] })).toMatch(/^prompt: missing/);
    expect(error({ prompt: 'q', chosen: '', rejected: 'B', images: [] })).toBe('chosen: empty text');
  });
});
