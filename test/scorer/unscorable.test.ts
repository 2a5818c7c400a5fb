// Unscorable responses say why: the run summary groups them by reason, with how many and which, in
// sentences a person can act on; the CLI prints them too.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../electron/cli/main';
import { scoreProjectInline } from '../../electron/core/scorer';
import type { Db } from '../../electron/core/store/db';
import { makeDb, sentence, tempDir, writeModelFolder } from './helpers';

const open: Db[] = [];
afterEach(() => {
  while (open.length) open.pop()!.close();
});

const PRM = (input: Record<string, unknown>) => ({
  kind: 'process',
  input: { system_prompt: 'we check', ...input },
  process: { step_separator: '<extra_0>', score: { type: 'class_probability', class_index: 1 } },
});

describe('unscorable responses', () => {
  it('an empty response and one whose every step tag was cut each get their reason, count and place', async () => {
    const folder = writeModelFolder(join(tempDir(), 'prm'), { kind: 'prm', manifest: PRM({ max_length: 24, truncation_side: 'right' }) });
    const { db, dbPath } = makeDb([
      { prompt: 'two plus two', responses: [{ content: '   ' }, { content: 'four' }] },
      { prompt: sentence(1, 40), responses: [{ content: 'we add\nit is four' }, { content: 'four' }] },
    ]);
    open.push(db);
    const [run] = (await scoreProjectInline({ dbPath, project: 'p', dirs: [folder.dir], provider: 'cpu' })).models;
    expect(run!.unscorable).toBe(3);
    expect(run!.unscorableReasons).toEqual([
      {
        reason: `prompt and response are longer than the model's 24 tokens, and cutting the end to fit removed every step tag, so no step could be scored: use a model with a longer max length, or set "truncation_side": "left" in arbiter-model.json`,
        count: 2,
        examples: ['item q-1, response A', 'item q-1, response B'],
      },
      { reason: 'the response has no steps to score: its text is empty or only spaces', count: 1, examples: ['item q-0, response A'] },
    ]);
  });

  it('the CLI prints each reason on stderr, and its JSON carries them', async () => {
    const folder = writeModelFolder(join(tempDir(), 'prm'), { kind: 'prm', manifest: PRM({}) });
    const { db, dbPath } = makeDb([{ prompt: 'two plus two', responses: [{ content: ' ' }, { content: 'four' }] }]);
    open.push(db);
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(['score', '--project', 'p', '--model', folder.dir, '--provider', 'cpu', '--db', dbPath], { out: (l) => out.push(l), err: (l) => err.push(l) });
    expect(code).toBe(0);
    expect(err).toContain('  1 unscorable: the response has no steps to score: its text is empty or only spaces (item q-0, response A)');
    const result = JSON.parse(out[0]!) as { models: { unscorableReasons: unknown[] }[] };
    expect(result.models[0]!.unscorableReasons).toHaveLength(1);
  });
});
