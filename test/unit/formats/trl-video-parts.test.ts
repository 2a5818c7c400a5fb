// A trl-video line whose messages hold a part that is not an object (null, a number) is refused with a
// sentence, like any bad line, never a TypeError: fuzz-import found `Cannot read properties of null
// (reading 'type')` in the placeholder check (FUZZ_SEED=831061045).
import { describe, expect, it } from 'vitest';
import { parseTrlVideo } from '../../../electron/core/formats/video/trlVideo';
import { RecordError } from '../../../electron/core/formats/types';

const said = (record: Record<string, unknown>) => {
  try {
    parseTrlVideo(record);
    return null;
  } catch (error) {
    return error;
  }
};

describe('trl-video parts that are not objects', () => {
  it.each([null, 7, 'text'])('refuses a %s part with a sentence naming where it is', (part) => {
    const error = said({
      prompt: 'a red ball',
      chosen: [{ role: 'assistant', content: [part] }],
      rejected: [{ role: 'assistant', content: [{ type: 'video', video: 'b.webm' }] }],
    });
    expect(error).toBeInstanceOf(RecordError);
    expect((error as Error).message).toMatch(/chosen\[0\]\.content\[0\]/);
  });
});
