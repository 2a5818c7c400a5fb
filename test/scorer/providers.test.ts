// Asking for a GPU provider on a machine without one runs on CPU and records why.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { availableProviders, listModels, scoreProjectInline } from '../../electron/core/scorer';
import { describeReport } from '../../electron/core/scorer/session';
import { inputHash } from '../../electron/core/scorer/inputs';
import { providerOrder } from '../../electron/core/scorer/providers';
import { getScore, listModelRows } from '../../electron/core/store/models';
import { makeDb, tempDir, writeModelFolder } from './helpers';

describe('execution providers', () => {
  it('lists every provider with a status and a reason', () => {
    const list = availableProviders();
    expect(list.map((p) => p.name)).toEqual(['cuda', 'dml', 'coreml', 'cpu']);
    expect(list.find((p) => p.name === 'cpu')).toMatchObject({ available: true });
    for (const p of list) expect(p.reason.length).toBeGreaterThan(5);
    if (process.platform === 'linux') expect(list.find((p) => p.name === 'dml')?.reason).toMatch(/Windows only/);
  });

  it('auto tries GPUs first and CPU last; an explicit provider falls back to CPU', () => {
    expect(providerOrder('auto')).toEqual(['cuda', 'dml', 'coreml', 'cpu']);
    expect(providerOrder('cuda')).toEqual(['cuda', 'cpu']);
    expect(providerOrder('cpu')).toEqual(['cpu']);
  });

  it("'cuda' without CUDA binaries scores on CPU and records the reason", async () => {
    const cuda = availableProviders().find((p) => p.name === 'cuda')!;
    const folder = writeModelFolder(join(tempDir(), 'm'), { kind: 'outcome' });
    const { db, dbPath } = makeDb([{ prompt: 'is the sky blue', responses: [{ content: 'yes' }, { content: 'no' }] }]);
    const result = await scoreProjectInline({ dbPath, project: 'p', dirs: [folder.dir], provider: 'cuda' });
    const report = result.models[0]!.provider;
    expect(report.requested).toBe('cuda');
    if (!cuda.available) {
      expect(report.used).toBe('cpu');
      expect(report.skipped).toEqual([{ name: 'cuda', reason: cuda.reason }]);
      expect(cuda.reason).toMatch(/installed without CUDA binaries/);
      const model = listModelRows(db)[0]!;
      const stored = getScore(db, model.id, inputHash('outcome', { prompt: 'is the sky blue', response: 'yes', steps: null, segmentation: 'auto' }))!;
      expect(stored.provider).toBe('cpu');
      // The model remembers the last run's report, for the models list.
      expect(listModels(db)[0]!.lastProvider).toEqual(report);
      expect(describeReport(report)).toMatch(/^cpu \(cuda: onnxruntime-node was installed without CUDA binaries/);
    } else {
      expect(['cuda', 'cpu']).toContain(report.used);
    }
    db.close();
  });
});
