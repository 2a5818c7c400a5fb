// TRL itself reads Arbiter's exports and takes a training step on them: the files are made with the real CLI
// from fixture projects on a real SQLite file, then test/python/trl_checks.py loads each one with
// `datasets.load_dataset("json")` and runs one step of TRL's DPOTrainer or PRM trainer on a tiny model built
// from a config (no download). It needs the Python environment of scripts/python-env.mjs (made here when
// missing, about a minute from local wheels); where it cannot be made, the tests are skipped with the reason.
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useCliDir } from '../helpers/cliDir';
import { runPythonChecks } from '../helpers/python';
import { ArbiterService } from '../../electron/core/service/index';
import { openDb } from '../../electron/core/store/db';
import { trlEnv } from '../../scripts/python-env.mjs';
import { skipOrFail } from '../helpers/required';

const ROOT = join(__dirname, '../..');
const FIXTURES = join(__dirname, '../fixtures/formats');
const CHECKS = join(ROOT, 'test/python/trl_checks.py');

const env = trlEnv({ log: (line) => console.log(line) });
skipOrFail('TRL checks', env.python ? null : env.reason);

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

const work = useCliDir('arbiter-trl-');
const cli = work.cli;

async function importFile(path: string, project: string, format = 'auto') {
  await cli(['import', path, '--project', project, '--format', format]);
}

async function exportAs(project: string, format: string) {
  const out = join(work.dir, `${project}-${format}.jsonl`);
  await cli(['export', '--project', project, '--format', format, '--out', out]);
  return { out, lines: readFileSync(out, 'utf8').split('\n').filter((l) => l !== '').length };
}

/** Runs the Python checks (`kind=file` each); returns the report, failing with TRL's own words. */
function runChecks(checks: [string, string][]): Check[] {
  const report = join(work.dir, `report-${Date.now()}.json`);
  runPythonChecks(env.python!, CHECKS, ['--report', report, ...checks.map(([kind, file]) => `${kind}=${file}`)], work.dir, `TRL checks: ${checks.length} of ${checks.length} passed`);
  return (JSON.parse(readFileSync(report, 'utf8')) as { checks: Check[] }).checks;
}

/** The files a check reads: their path and line count. */
type Exported = { out: string; lines: number };

/** Today's pairwise and stepwise exports, from fixture files (the file's own labels decide). */
async function classicExports(): Promise<Record<string, Exported>> {
  copyFileSync(join(FIXTURES, 'trl.jsonl'), join(work.dir, 'trl.jsonl'));
  copyFileSync(join(FIXTURES, 'trl-chat.jsonl'), join(work.dir, 'trl-chat.jsonl'));
  const stepwise = join(work.dir, 'stepwise.jsonl');
  writeFileSync(
    stepwise,
    [
      { prompt: 'Which is larger, 9.8 or 9.11?', completions: ['The fractional part of 9.8 is 0.8.', 'The fractional part of 9.11 is 0.11.', '0.11 is greater than 0.8.', 'Hence, 9.11 > 9.8.'], labels: [true, true, false, false] },
      { prompt: 'What is 6 * 7?', completions: ['6 * 7 = 42.', 'So the answer is 42.'], labels: [true, true] },
    ]
      .map((r) => JSON.stringify(r))
      .join('\n') + '\n',
  );
  await importFile(join(work.dir, 'trl.jsonl'), 'plain', 'trl');
  await importFile(join(work.dir, 'trl-chat.jsonl'), 'chat', 'trl-chat');
  await importFile(stepwise, 'steps', 'trl-stepwise');
  return { trl: await exportAs('plain', 'trl'), 'trl-chat': await exportAs('chat', 'trl-chat'), 'trl-stepwise': await exportAs('steps', 'trl-stepwise') };
}

const TRAJECTORY_EXPORTS = ['trl-tools', 'corrections-dpo', 'corrections-sft', 'trl-stepwise-turns', 'trl-stepwise-turns-chat'] as const;

/** The trajectory exports of the openai-tools fixture, labeled through the service on the file the CLI wrote. */
async function trajectoryExports(): Promise<Record<string, Exported>> {
  copyFileSync(join(FIXTURES, 'trajectories/openai-tools.jsonl'), join(work.dir, 'openai-tools.jsonl'));
  await importFile(join(work.dir, 'openai-tools.jsonl'), 'agents');
  const dbPath = join(work.dir, 'arbiter.db');
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
  const files: Record<string, Exported> = {};
  for (const format of TRAJECTORY_EXPORTS) files[format] = await exportAs('agents', format);
  return files;
}

describe.skipIf(!env.python)('TRL trains on the exports (one step, tiny model from a config)', () => {
  // One Python run for every file (TRL's imports cost seconds): the checks in order, then the tests read the report.
  let files: Record<string, Exported>;
  let report: Record<string, Check>;
  beforeAll(async () => {
    files = { ...(await classicExports()), ...(await trajectoryExports()) };
    const checks: [string, string][] = [
      ['trl', 'dpo'],
      ['trl-chat', 'dpo'],
      ['trl-stepwise', 'prm'],
      ['trl-tools', 'dpo'],
      ['corrections-dpo', 'dpo'],
      ['corrections-sft', 'sft'],
      ['trl-stepwise-turns', 'prm'],
      ['trl-stepwise-turns-chat', 'prm-chat'],
    ];
    const results = runChecks(checks.map(([format, kind]) => [kind, files[format]!.out]));
    report = Object.fromEntries(checks.map(([format], i) => [format, results[i]!]));
  }, 300_000);

  const trained = (format: string) => {
    expect(report[format], format).toMatchObject({ ok: true, rows: files[format]!.lines });
    expect(Number.isFinite(report[format]!.loss), format).toBe(true);
  };

  it('reads the pairwise (trl, trl-chat) and stepwise (trl-stepwise) exports', () => {
    for (const format of ['trl', 'trl-chat', 'trl-stepwise']) trained(format);
    expect(report.trl!.tokenized).toBe(files.trl!.lines);
    expect(report['trl-chat']!.tokenized).toBe(files['trl-chat']!.lines);
    // A file's chain rated at every step keeps every step with its label (docs/formats.md); one label per step reached TRL.
    expect(report['trl-stepwise']).toMatchObject({ steps: [4, 2], true: 4, train_steps: 1 });
  });

  it('trains on the trajectory exports: trl-tools and corrections-dpo (DPO), corrections-sft (SFT), trl-stepwise-turns and -chat (PRM)', () => {
    for (const format of TRAJECTORY_EXPORTS) trained(format);
    // DPO saw every tool the rows offer and the chosen trajectory's call, rendered by the chat template.
    expect(report['trl-tools']).toMatchObject({ tokenized: 2, tools: ['control_light'], calls: ['control_light'] });
    expect(report['corrections-dpo']).toMatchObject({ tokenized: 2 });
    // SFT learns the corrected turn only: some tokens of each row, not all.
    expect(report['corrections-sft']).toMatchObject({ tokenized: 2, completion_tokens: [expect.any(Number), expect.any(Number)] });
    // One labeled token per kept turn: 2 turns, 1 (cut at the first error), 2.
    expect(report['trl-stepwise-turns']).toMatchObject({ steps: [2, 1, 2], true: 3, train_steps: 1 });
    expect(report['trl-stepwise-turns-chat']).toMatchObject({ steps: [2, 1, 2], true: 3, train_steps: 1 });
  });
});
