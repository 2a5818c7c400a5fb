// A provider that looks available but fails to start (here: CUDA claimed present, its libraries
// absent) falls back to CPU, and the failure is the recorded reason.
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { scoreProjectInline } from '../../electron/core/scorer';
import { makeDb, tempDir, writeModelFolder } from './helpers';

vi.mock('../../electron/core/scorer/providers', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../electron/core/scorer/providers')>();
  return {
    ...original,
    availableProviders: () => original.availableProviders().map((p) => (p.name === 'cuda' ? { ...p, available: true, reason: 'pretend' } : p)),
  };
});

describe('provider start failure', () => {
  it.skipIf(process.platform !== 'linux')('falls back to CPU and says why', async () => {
    const folder = writeModelFolder(join(tempDir(), 'm'), { kind: 'outcome' });
    const { db, dbPath } = makeDb([{ prompt: 'is the sky blue', responses: [{ content: 'yes' }, { content: 'no' }] }]);
    const result = await scoreProjectInline({ dbPath, project: 'p', dirs: [folder.dir], provider: 'cuda' });
    const report = result.models[0]!.provider;
    if (report.used === 'cuda') return; // a machine with a working CUDA install
    expect(report.used).toBe('cpu');
    expect(report.skipped[0]!.name).toBe('cuda');
    expect(report.skipped[0]!.reason).toMatch(/^failed to start \(.+\); fell back$/);
    expect(result.models[0]!.scored).toBe(2);
    db.close();
  });
});
