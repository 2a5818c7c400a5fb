// The pairwise heads' columns (store/reviewHeads.ts) are sized from the progress counters before the
// read: by the people's current judgements only, since models' and the file's own are never read. A
// project two reward models pre-labelled throughout and a person judged three items of gets room for
// about those three, not for every model label.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureAnnotator } from '../../electron/core/store/annotators';
import { labelAppender } from '../../electron/core/store/labels';
import { pairwiseHeads } from '../../electron/core/store/reviewHeads';
import { writeNow } from '../../electron/core/store/write';
import { pairProject } from '../helpers/project';
import { tempDir } from '../helpers/tmp';

describe('the pairwise heads read', () => {
  it('makes room for the people’s judgements, not the models’', () => {
    const { db, project, ids } = pairProject(join(tempDir(), 'arbiter.db'), { items: 1500, texts: (i) => [`a${i}`, `b${i}`], annotator: 'ann', visibleSeq: 'all' });
    const models = ['rm-1', 'rm-2'].map((name) => ensureAnnotator(db, name, 'model'));
    const ann = ensureAnnotator(db, 'ann', 'human');
    const append = labelAppender(db);
    writeNow(db, () => {
      for (const itemId of ids) for (const m of models) append({ projectId: project.id, itemId, annotatorId: m.id, task: 'pairwise', choice: 'A', strength: null, shownOrder: [0, 1], body: {} });
      for (const itemId of ids.slice(0, 3)) append({ projectId: project.id, itemId, annotatorId: ann.id, task: 'pairwise', choice: 'B', strength: 2, shownOrder: [1, 0], body: {} });
    });
    expect(db.prepare("SELECT SUM(done) FROM progress WHERE project_id = ? AND task = 'pairwise'").pluck().get(project.id)).toBe(3003);
    const heads = pairwiseHeads(db, project.id);
    expect(heads.length).toBe(3);
    expect([...heads.choice]).toEqual([1, 1, 1]);
    // The columns are views of buffers made once: room for the 1,024 a read starts with.
    expect(heads.savedMs.buffer.byteLength).toBe(1024 * 8);
    db.close();
  });
});
