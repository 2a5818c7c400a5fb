// Hostile values in the video formats' lines are refused with a sentence, like any bad line, never a TypeError:
// - a trl-video message part that is not an object: fuzz-import found `Cannot read properties of null
//   (reading 'type')` in the placeholder check (FUZZ_SEED=831061045);
// - an object whose `toString` is not a function, where videoalign reads a cell (fuzz-api, FUZZ_SEED=656896360:
//   previewImport of JSON lines as videoalign) or video-qa its problem_id (fuzz-import, FUZZ_SEED=827994130):
//   String() of it throws `Cannot convert object to primitive value`.
import { describe, expect, it } from 'vitest';
import { parseTrlVideo } from '../../../electron/core/formats/video/trlVideo';
import { parseVideoAlign } from '../../../electron/core/formats/video/videoAlign';
import { parseVideoQa } from '../../../electron/core/formats/video/videoQa';
import { RecordError } from '../../../electron/core/formats/types';

const said = (record: Record<string, unknown>, parse: (r: Record<string, unknown>) => unknown = parseTrlVideo) => {
  try {
    parse(record);
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

const hostile = { toString: 1, valueOf: 'v', hasOwnProperty: null };

describe('values String() cannot convert', () => {
  it.each(['prompt', 'path_A', 'A_model', 'Overall'])('videoalign refuses an object in %s, naming the column', (column) => {
    const record: Record<string, unknown> = { path_A: 'a.mp4', path_B: 'b.mp4', prompt: 'a ball', A_model: 'm1', B_model: 'm2', Overall: 'A', [column]: hostile };
    const error = said(record, parseVideoAlign);
    expect(error).toBeInstanceOf(RecordError);
    expect((error as Error).message).toMatch(new RegExp(`^${column}: `));
  });

  it('video-qa refuses an object as problem_id', () => {
    const error = said({ problem_id: hostile, problem: 'Which way?', path: 'a.mp4', process: '<think>Right.</think>', solution: '<answer>B</answer>' }, parseVideoQa);
    expect(error).toBeInstanceOf(RecordError);
    expect((error as Error).message).toMatch(/^problem_id: /);
  });
});
