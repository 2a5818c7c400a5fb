// Items holding images are not scored until images are shown (issue 13, finding 21): a text model would
// read each image as the text "[image]". Each such response is unscorable, with its reason and place.
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
  it('are unscorable with the reason "holds images"; the rest are scored', async () => {
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
      { reason: expect.stringMatching(/^holds images/), count: 3, examples: ['item q-0, response A', 'item q-0, response B', 'item q-1, response B'] },
    ]);
  });
});
