// TRL itself reads Arbiter's exports and takes a training step on them: the files are made with the real CLI
// from fixture projects on a real SQLite file, then test/python/trl_checks.py loads each one with
// `datasets.load_dataset("json")` and runs one step of TRL's DPOTrainer or PRM trainer on a tiny model built
// from a config (no download). It needs the Python environment of scripts/python-env.mjs (made here when
// missing, about a minute from local wheels); where it cannot be made, the tests are skipped with the reason.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../electron/cli/main';
import { ArbiterService } from '../../electron/core/service/index';
import { openDb } from '../../electron/core/store/db';
import { trlEnv } from '../../scripts/python-env.mjs';

const ROOT = join(__dirname, '../..');
const FIXTURES = join(__dirname, '../fixtures/formats');
const CHECKS = join(ROOT, 'test/python/trl_checks.py');

const env = trlEnv({ log: (line) => console.log(line) });
if (!env.python) console.log(`TRL checks skipped: ${env.reason}.`);

interface Check {
  kind: string;
  file: string;
  ok: boolean;
  error?: string;
  rows?: number;
  tokenized?: number;
  steps?: number | number[];
  train_steps?: number;
  loss?: number;
  tools?: string[];
  calls?: string[];
  true?: number;
  completion_tokens?: number[];
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-trl-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli([...args, '--db', join(dir, 'arbiter.db')], { out: (l) => out.push(l), err: (l) => err.push(l), ask: async () => 'no' });
  expect(code, `arbiter ${args.join(' ')}\n${err.join('\n')}`).toBe(0);
  return out;
}

async function importFile(path: string, project: string, format = 'auto') {
  await cli(['import', path, '--project', project, '--format', format]);
}

async function exportAs(project: string, format: string) {
  const out = join(dir, `${project}-${format}.jsonl`);
  await cli(['export', '--project', project, '--format', format, '--out', out]);
  return { out, lines: readFileSync(out, 'utf8').split('\n').filter((l) => l !== '').length };
}

/** Runs the Python checks (`kind=file` each); returns the report, failing with TRL's own words. */
function runChecks(checks: [string, string][]): Check[] {
  const report = join(dir, `report-${Date.now()}.json`);
  const run = spawnSync(env.python!, [CHECKS, '--report', report, ...checks.map(([kind, file]) => `${kind}=${file}`)], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 240_000,
    env: { ...process.env, HF_HOME: join(dir, 'hf'), OMP_NUM_THREADS: '2', PYTHONDONTWRITEBYTECODE: '1' },
  });
  const said = `${run.stdout}\n${run.stderr}`;
  expect(run.error, said).toBeUndefined();
  expect(run.stdout, said).toContain(`TRL checks: ${checks.length} of ${checks.length} passed`);
  expect(run.status, said).toBe(0);
  return (JSON.parse(readFileSync(report, 'utf8')) as { checks: Check[] }).checks;
}

describe.skipIf(!env.python)('TRL trains on the exports (one step, tiny model from a config)', () => {
  it('reads the pairwise (trl, trl-chat) and stepwise (trl-stepwise) exports', async () => {
    copyFileSync(join(FIXTURES, 'trl.jsonl'), join(dir, 'trl.jsonl'));
    copyFileSync(join(FIXTURES, 'trl-chat.jsonl'), join(dir, 'trl-chat.jsonl'));
    const stepwise = join(dir, 'stepwise.jsonl');
    writeFileSync(
      stepwise,
      [
        { prompt: 'Which is larger, 9.8 or 9.11?', completions: ['The fractional part of 9.8 is 0.8.', 'The fractional part of 9.11 is 0.11.', '0.11 is greater than 0.8.', 'Hence, 9.11 > 9.8.'], labels: [true, true, false, false] },
        { prompt: 'What is 6 * 7?', completions: ['6 * 7 = 42.', 'So the answer is 42.'], labels: [true, true] },
      ]
        .map((r) => JSON.stringify(r))
        .join('\n') + '\n',
    );
    await importFile(join(dir, 'trl.jsonl'), 'plain', 'trl');
    await importFile(join(dir, 'trl-chat.jsonl'), 'chat', 'trl-chat');
    await importFile(stepwise, 'steps', 'trl-stepwise');
    const trl = await exportAs('plain', 'trl');
    const chat = await exportAs('chat', 'trl-chat');
    const steps = await exportAs('steps', 'trl-stepwise');

    const report = runChecks([
      ['dpo', trl.out],
      ['dpo', chat.out],
      ['prm', steps.out],
    ]);
    expect(report.map((c) => [c.kind, c.ok, c.rows, c.loss !== undefined && Number.isFinite(c.loss)])).toEqual([
      ['dpo', true, trl.lines, true],
      ['dpo', true, chat.lines, true],
      ['prm', true, steps.lines, true],
    ]);
    expect(report[0]!.tokenized).toBe(trl.lines);
    // A file's chain rated at every step keeps every step with its label (FORMATS.md); one label per step reached TRL.
    expect(report[2]).toMatchObject({ steps: [4, 2], true: 4, train_steps: 1 });
  }, 300_000);

  it('trains on the trajectory exports: trl-tools and corrections-dpo (DPO), corrections-sft (SFT), trl-stepwise-turns and -chat (PRM)', async () => {
    copyFileSync(join(FIXTURES, 'trajectories/openai-tools.jsonl'), join(dir, 'openai-tools.jsonl'));
    await importFile(join(dir, 'openai-tools.jsonl'), 'agents');
    // Labels through the service, on the same SQLite file the CLI wrote.
    const dbPath = join(dir, 'arbiter.db');
    const db = openDb(dbPath);
    try {
      const service = new ArbiterService(db, { dbPath, transport: 'http', version: 't', defaultAnnotator: 'ann' });
      const [lights, weather] = db.prepare("SELECT i.id FROM item i JOIN project p ON p.id = i.project_id WHERE p.name = 'agents' ORDER BY i.seq").pluck().all() as number[];
      const save = (input: object) => service.dispatch('saveSteps', { project: 'agents', annotator: 'ann', ...input } as never);
      await service.dispatch('saveLabel', { project: 'agents', annotator: 'ann', itemId: lights!, choice: 'A', strength: 2, shownOrder: [0, 1] });
      await save({ itemId: lights!, response: 0, steps: { version: 1, ratings: [1, 1], firstError: -1 } });
      await save({ itemId: lights!, response: 1, steps: { version: 1, ratings: [-1, null], firstError: 0, tags: { '0': ['wrong arguments'] }, corrections: { '0': { tool_calls: [{ name: 'control_light', arguments: { room: 'living room', state: 'on' } }] } } } });
      await save({ itemId: weather!, response: 0, steps: { version: 1, ratings: [1, 0], firstError: -1, corrections: { '1': 'It is 14 °C and raining in Paris right now.' } } });
    } finally {
      db.close();
    }
    const files = Object.fromEntries(
      await Promise.all(['trl-tools', 'corrections-dpo', 'corrections-sft', 'trl-stepwise-turns', 'trl-stepwise-turns-chat'].map(async (f) => [f, await exportAs('agents', f)] as const)),
    );
    const report = runChecks([
      ['dpo', files['trl-tools']!.out],
      ['dpo', files['corrections-dpo']!.out],
      ['sft', files['corrections-sft']!.out],
      ['prm', files['trl-stepwise-turns']!.out],
      ['prm-chat', files['trl-stepwise-turns-chat']!.out],
    ]);
    for (const [i, name] of ['trl-tools', 'corrections-dpo', 'corrections-sft', 'trl-stepwise-turns', 'trl-stepwise-turns-chat'].entries()) {
      expect(report[i], name).toMatchObject({ ok: true, rows: files[name]!.lines });
      expect(Number.isFinite(report[i]!.loss), name).toBe(true);
    }
    // DPO saw every tool the rows offer and the chosen trajectory's call, rendered by the chat template.
    expect(report[0]).toMatchObject({ tokenized: 2, tools: ['control_light'], calls: ['control_light'] });
    expect(report[1]).toMatchObject({ tokenized: 2 });
    expect(report[2]).toMatchObject({ tokenized: 2, completion_tokens: [expect.any(Number), expect.any(Number)] });
    // One labeled token per kept turn: 2 turns, 1 (cut at the first error), 2.
    expect(report[3]).toMatchObject({ steps: [2, 1, 2], true: 3, train_steps: 1 });
    expect(report[4]).toMatchObject({ steps: [2, 1, 2], true: 3, train_steps: 1 });
  }, 300_000);
});
