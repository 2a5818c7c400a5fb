// The score cache (re-scoring skips what is done) and the worker-thread job (progress, cancel).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addModel, scoreProjectInline, startScoreJob, type ScoreProgress } from '../../electron/core/scorer';
import { addItems, makeDb, sentence, tempDir, writeModelFolder } from './helpers';

const items = (n: number, offset = 0) =>
  Array.from({ length: n }, (_, i) => ({
    prompt: sentence(i + offset, 4),
    responses: [{ content: sentence(i + offset + 1000, 5 + (i % 30)) }, { content: sentence(i + offset + 2000, 3 + (i % 17)) }],
  }));

describe('score cache', () => {
  it('re-scoring skips responses already scored; new ones are scored', async () => {
    const folder = writeModelFolder(join(tempDir(), 'm'), { kind: 'outcome' });
    const { db, dbPath, projectId } = makeDb(items(5));
    const model = await addModel(db, folder.dir);
    const first = await scoreProjectInline({ dbPath, project: 'p', modelIds: [model.id], provider: 'cpu' });
    expect(first.models[0]).toMatchObject({ scored: 10, cached: 0 });
    const again = await scoreProjectInline({ dbPath, project: 'p', modelIds: [model.id], provider: 'cpu' });
    expect(again.models[0]).toMatchObject({ scored: 0, cached: 10 });
    addItems(db, projectId, items(2, 50));
    const more = await scoreProjectInline({ dbPath, project: 'p', dirs: [folder.dir], provider: 'cpu' });
    // The folder is the same model (same hash): only the new responses are scored.
    expect(more.models[0]).toMatchObject({ modelId: model.id, scored: 4, cached: 10 });
    db.close();
  });

  it('a model whose files changed after it was added is not scored under the old identity', async () => {
    const dir = join(tempDir(), 'm');
    writeModelFolder(dir, { kind: 'outcome', seed: 1 });
    const { db, dbPath } = makeDb(items(1));
    const model = await addModel(db, dir);
    writeModelFolder(dir, { kind: 'outcome', seed: 2 });
    const job = scoreProjectInline({ dbPath, project: 'p', modelIds: [model.id], provider: 'cpu' });
    await expect(job).rejects.toThrow(/changed since model .* was added/);
    db.close();
  });
});

describe('score job in a worker thread', () => {
  it('reports progress and finishes', async () => {
    const folder = writeModelFolder(join(tempDir(), 'm'), { kind: 'outcome' });
    const { db, dbPath } = makeDb(items(300));
    db.close();
    const events: ScoreProgress[] = [];
    const job = startScoreJob({ dbPath, project: 'p', dirs: [folder.dir], provider: 'cpu', batchSize: 4, onProgress: (p) => events.push(p) });
    const result = await job.promise;
    expect(result.cancelled).toBe(false);
    expect(result.models[0]).toMatchObject({ scored: 600, cached: 0 });
    const last = events[events.length - 1]!;
    expect(last).toMatchObject({ phase: 'done', done: 600, total: 600, modelIndex: 0, modelCount: 1, provider: 'cpu' });
    expect(last.itemsPerSecond).toBeGreaterThan(0);
    expect(last.tokensPerSecond).toBeGreaterThan(last.itemsPerSecond);
    expect(events[0]!.phase).toBe('preparing');
  });

  it('can be cancelled, keeping what was scored', async () => {
    const folder = writeModelFolder(join(tempDir(), 'm'), { kind: 'outcome' });
    const { db, dbPath } = makeDb(items(400));
    const job = startScoreJob({
      dbPath,
      project: 'p',
      dirs: [folder.dir],
      provider: 'cpu',
      batchSize: 1,
      onProgress: (p) => {
        if (p.phase === 'preparing') job.cancel();
      },
    });
    const result = await job.promise;
    expect(result.cancelled).toBe(true);
    const scored = db.prepare('SELECT COUNT(*) FROM score').pluck().get() as number;
    expect(scored).toBeLessThan(800);
    // Cancelling leaves a consistent cache: a new job scores only the rest.
    const rest = await scoreProjectInline({ dbPath, project: 'p', dirs: [folder.dir], provider: 'cpu', batchSize: 64 });
    expect(rest.models[0]!.scored).toBe(800 - scored);
    db.close();
  });

  it('turns a bad folder into a rejected promise with the reason', async () => {
    const { db, dbPath } = makeDb(items(1));
    db.close();
    const job = startScoreJob({ dbPath, project: 'p', dirs: [join(tempDir(), 'nothing-here')], provider: 'cpu' });
    await expect(job.promise).rejects.toThrow(/Arbiter cannot read the model folder .*: it is missing or not a folder/);
  });
});
