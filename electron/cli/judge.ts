// `arbiter judge --project P --model FILE.gguf|server [--task KIND] [--template N] …` (docs/cli.md): runs a
// generative judge over a project's items and stores each answer as a pre-label, as the app's job does.
// Progress goes to stderr, the run's summary (one JSON line) to stdout. Every option is checked with the
// API's schemas before anything opens.
import { judgeParams, JUDGE_KINDS } from '../../shared/api/judges';
import type { JudgeKind } from '../../shared/judgeAnswers';
import { judgeProject } from '../core/service/judges';
import { dbPathFrom, parse, UsageError, withDb, type CliIo } from './io';
import { requireProjectName, requireString } from './options';

function whole(values: Record<string, unknown>, name: string, min: number): number | undefined {
  const raw = values[name];
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`--${name} takes a whole number of ${min} or more`);
  return n;
}

function decimal(values: Record<string, unknown>, name: string): number | undefined {
  const raw = values[name];
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n)) throw new UsageError(`--${name} takes a number`);
  return n;
}

export async function judgeCommand(argv: string[], io: CliIo): Promise<number> {
  const { values } = parse(argv, {
    project: { type: 'string' },
    model: { type: 'string' },
    task: { type: 'string', default: 'pairwise' },
    template: { type: 'string' },
    parallel: { type: 'string' },
    limit: { type: 'string' },
    seed: { type: 'string' },
    temperature: { type: 'string' },
    'top-k': { type: 'string' },
    'top-p': { type: 'string' },
    'text-max': { type: 'string' },
    'timeout-ms': { type: 'string' },
  });
  const project = requireProjectName(values);
  const model = requireString(values, 'model');
  const kind = String(values.task);
  if (!(JUDGE_KINDS as readonly string[]).includes(kind)) throw new UsageError(`--task is one of ${JUDGE_KINDS.join(', ')}`);
  const checked = judgeParams.safeParse({
    seed: whole(values, 'seed', 0),
    temperature: decimal(values, 'temperature'),
    topK: whole(values, 'top-k', 0),
    topP: decimal(values, 'top-p'),
    textMax: whole(values, 'text-max', 8),
    timeoutMs: whole(values, 'timeout-ms', 1000),
  });
  if (!checked.success) throw new UsageError(checked.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  const parallel = whole(values, 'parallel', 1) ?? 2;
  if (parallel > 16) throw new UsageError('--parallel takes 1 to 16');
  const dbPath = dbPathFrom(values);
  return withDb(values, async (db) => {
    let last = 0;
    const summary = await judgeProject(
      db,
      { dbPath, transport: 'ipc' },
      { project, kind: kind as JudgeKind, model, template: whole(values, 'template', 1), params: checked.data, parallel, limit: whole(values, 'limit', 1) },
      undefined,
      ({ done, total, etaMs }) => {
        if (Date.now() - last < 1000 && done !== total) return;
        last = Date.now();
        io.err(`arbiter judge: ${done}/${total}${etaMs !== null ? `, about ${Math.ceil(etaMs / 1000)} s left` : ''}`);
      },
    );
    io.out(JSON.stringify({ project, task: kind, ...summary }));
    return summary.failed > 0 && summary.failed === summary.results ? 1 : 0;
  });
}
