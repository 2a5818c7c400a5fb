// A text model does not score items holding images (issue 13, finding 21; issue 15): it would read each
// image as the text "[image]". A question about an image (VL) waits for vision-language reward models; a
// generated image is for an image reward model (image-model.test.ts). Each says so, with its place.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { addModel, scoreProjectInline } from '../../electron/core/scorer';
import type { Db } from '../../electron/core/store/db';
import { makeDb, tempDir, writeModelFolder } from './helpers';

const open: Db[] = [];
afterEach(() => {
  while (open.length) open.pop()!.close();
});

describe('items holding images', () => {
  it('are unscorable by a text model with the reason for each kind; the rest are scored', async () => {
    const folder = writeModelFolder(join(tempDir(), 'm'), { kind: 'outcome', withTokenTypes: true });
    const image = { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } };
    const { dbPath, db } = makeDb([
      { prompt: [{ role: 'user', content: [{ type: 'text', text: 'what is this' }, image] }], responses: [{ content: 'a cat' }, { content: 'a dog' }] },
      { prompt: 'two plus two', responses: [{ content: 'four' }, { content: [{ role: 'assistant', content: [image] }] }] },
      { prompt: 'is the sky blue', responses: [{ content: 'yes' }, { content: 'no' }] },
    ]);
    open.push(db);
    const model = await addModel(db, folder.dir, 'tiny');
    const [run] = (await scoreProjectInline({ dbPath, project: 'p', modelIds: [model.id], provider: 'cpu' })).models;
    expect(run).toMatchObject({ scored: 3, unscorable: 3 });
    expect(run!.unscorableReasons).toEqual([
      {
        reason: 'the prompt holds images, which a text model would read as the words "[image]": a vision-language reward model is not supported yet; image reward models score generated images',
        count: 2,
        examples: ['item q-0, response A', 'item q-0, response B'],
        // Not a problem: the Models screen says it as a note (models-notes e2e).
        byDesign: 'prompts with images (a vision-language reward model is not supported yet)',
      },
      {
        reason: 'the responses are images, which a text model cannot see: load an image reward model (docs/models.md, "Image reward models")',
        count: 1,
        examples: ['item q-1, response B'],
        byDesign: 'image responses (a text model reads text)',
      },
    ]);
  });
});
