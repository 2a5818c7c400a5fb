// One function per CLI command; each parses its own options and prints what docs/cli.md promises.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { EXPORT_FORMATS, IMPORT_FORMATS, RANKING_PAIRS, TRL_VISION_FORMATS, type ExportFormat, type ImportFormat, type RankingPairs } from '../../shared/formatNames';
import { invalidInput } from '../core/base/errors';
import type * as direct from '../core/service/direct';
import { importNotes } from '../../shared/importNotes';
import { dbPathFrom, openDbFor, parse, UsageError, withDb, type CliIo } from './io';
import { checkName, optionalAnnotatorName, requireFile, requireProjectName, requireString } from './options';
import { viewName } from '../../shared/api/items';

type Command = (argv: string[], io: CliIo) => Promise<number>;

// Core's heavier modules (the formats, the scorer, the service) load when a command uses them: the CLI is
// built in chunks (scripts/build.mjs), so `arbiter stats` starts without them.
const loadDirect = () => import('../core/service/direct');

const importCommand: Command = async (argv, io) => {
  const { values, positionals } = parse(argv, {
    project: { type: 'string' },
    format: { type: 'string', default: 'auto' },
    'skip-invalid': { type: 'boolean', default: false },
    'images-dir': { type: 'string' },
  });
  if (!positionals[0]) throw new UsageError('FILE is required');
  const project = requireProjectName(values);
  const format = String(values.format);
  if (format !== 'auto' && !(IMPORT_FORMATS as readonly string[]).includes(format))
    throw new UsageError(`unknown import format "${format}"; one of: auto, ${IMPORT_FORMATS.join(', ')}`);
  const file = requireFile(positionals[0], true);
  const imagesDir = values['images-dir'];
  if (typeof imagesDir === 'string' && imagesDir.trim() === '') throw new UsageError('--images-dir takes a folder');
  return withDb(values, async (db) => {
    const { importFile } = await loadDirect();
    const summary = await importFile(db, {
      path: file,
      project,
      format: format as ImportFormat | 'auto',
      skipInvalid: values['skip-invalid'] === true,
      createProject: true,
      imagesDir: typeof imagesDir === 'string' ? resolve(imagesDir) : null,
    });
    for (const e of summary.errors) io.err(`${file}:${e.line}: ${e.reason} (skipped)`);
    for (const note of importNotes(summary)) io.err(`arbiter import: ${note}`);
    const { errors: _errors, ...printable } = summary;
    io.out(JSON.stringify(printable));
    return 0;
  });
};

const exportCommand: Command = async (argv, io) => {
  const { values } = parse(argv, {
    project: { type: 'string' },
    format: { type: 'string' },
    out: { type: 'string' },
    annotator: { type: 'string' },
    neutral: { type: 'string' },
    'ranking-pairs': { type: 'string' },
    'from-ratings': { type: 'boolean', default: false },
    'adjudicated-only': { type: 'boolean', default: false },
    'min-agreement': { type: 'string' },
    images: { type: 'string' },
    view: { type: 'string' },
    force: { type: 'boolean', default: false },
  });
  if (values.images !== undefined && values.images !== 'refuse' && values.images !== 'drop') throw new UsageError('--images takes refuse (the default) or drop');
  const project = requireProjectName(values);
  const format = requireString(values, 'format');
  const neutral = values.neutral;
  if (neutral !== undefined && neutral !== 'true' && neutral !== 'false') throw new UsageError('--neutral takes true or false');
  const rankingPairs = values['ranking-pairs'];
  if (rankingPairs !== undefined && !(RANKING_PAIRS as readonly unknown[]).includes(rankingPairs))
    throw new UsageError(`--ranking-pairs takes one of: ${RANKING_PAIRS.join(', ')}`);
  const out = resolve(requireString(values, 'out'));
  if (!(EXPORT_FORMATS as readonly string[]).includes(format))
    throw new UsageError(`unknown export format "${format}"; one of: ${EXPORT_FORMATS.join(', ')}`);
  if (existsSync(out) && values.force !== true) throw invalidInput(`${out} exists; pass --force to overwrite it.`);
  if (format === 'trl-vision-parquet' && !/\.parquet$/i.test(out)) throw new UsageError('--format trl-vision-parquet writes Parquet: name the output .parquet (trl-vision writes JSON Lines with its images in a folder beside it)');
  const annotator = optionalAnnotatorName(values);
  const view = values.view === undefined ? undefined : checkName(viewName, values.view as string, '--view');
  const minAgreement = values['min-agreement'] === undefined ? undefined : Number(values['min-agreement']);
  if (minAgreement !== undefined && !(minAgreement >= 0 && minAgreement <= 1)) throw new UsageError('--min-agreement takes a share from 0 to 1, such as 0.67');
  return withDb(values, async (db) => {
    const { exportProject, projects } = await loadDirect();
    projects.requireProject(db, project);
    // --view: exactly the saved view's items (its query and the clauses in it, as the items page shows them).
    const items = view === undefined ? undefined : new Set((await import('../core/service/itemsQuery')).matchingIds(db, { project, query: '', view }, 10_000_000).ids);
    const summary = await exportProject(db, {
      project,
      format: format as ExportFormat,
      out,
      annotator,
      neutral: neutral === undefined ? undefined : neutral === 'true',
      rankingPairs: rankingPairs as RankingPairs | undefined,
      fromRatings: values['from-ratings'] === true,
      adjudicatedOnly: values['adjudicated-only'] === true,
      minAgreement,
      images: values.images as 'refuse' | 'drop' | undefined,
      items,
    });
    if (summary.imagesDropped.items || (TRL_VISION_FORMATS as readonly string[]).includes(format)) io.err(`arbiter export: ${summary.note}`);
    io.out(JSON.stringify(summary));
    return 0;
  });
};

const labelsCommand: Command = async (argv, io) => {
  const [sub, ...rest] = argv;
  if (sub !== 'import') throw new UsageError('labels takes one subcommand: import FILE --project NAME [--skip-invalid]');
  const { values, positionals } = parse(rest, { project: { type: 'string' }, 'skip-invalid': { type: 'boolean', default: false } });
  if (!positionals[0]) throw new UsageError('FILE is required');
  const project = requireProjectName(values);
  const file = requireFile(positionals[0]);
  return withDb(values, async (db) => {
    const { importLabelsFile, projects } = await loadDirect();
    projects.requireProject(db, project);
    const summary = await importLabelsFile(db, { path: file, project, skipInvalid: values['skip-invalid'] === true });
    for (const e of summary.errors) io.err(`${file}:${e.line}: ${e.reason}`);
    if (summary.skipped) io.err(`arbiter labels: ${summary.skipped} invalid line${summary.skipped === 1 ? '' : 's'} left out, written to ${summary.rejectsFile}; the rest merged.`);
    if (summary.reusedIds)
      io.err(
        `arbiter labels: ${summary.reusedIds} line${summary.reusedIds === 1 ? '' : 's'} reuse${summary.reusedIds === 1 ? 's' : ''} a revision id stored here for a different label and ${summary.reusedIds === 1 ? 'was' : 'were'} not merged (line${summary.reusedIdLines.length === 1 ? '' : 's'} ${summary.reusedIdLines.map((r) => r.line).join(', ')}${summary.reusedIds > summary.reusedIdLines.length ? ', …' : ''}).`,
      );
    io.out(JSON.stringify({ project, file, ...summary }));
    return 0;
  });
};

const doctorCommand: Command = async (argv, io) => {
  const { values } = parse(argv, { json: { type: 'boolean', default: false } });
  const { doctorReport } = await import('../core/service/doctor');
  const report = await doctorReport(dbPathFrom(values));
  if (values.json) io.out(JSON.stringify(report));
  else {
    for (const check of report.checks) io.out(`${check.ok ? 'ok  ' : 'FAIL'} ${check.name}: ${check.detail}`);
    for (const p of report.providers ?? []) io.out(`     provider ${p.name.padEnd(6)} ${p.available ? 'available' : 'unavailable'}: ${p.reason}`);
  }
  return report.checks.every((c) => c.ok) ? 0 : 1;
};

const serveCommand: Command = async (argv, io) => {
  const { values } = parse(argv, {
    port: { type: 'string' },
    host: { type: 'string', default: '127.0.0.1' },
    'no-demo': { type: 'boolean', default: false },
    'models-dir': { type: 'string', multiple: true },
  });
  if (values['no-demo']) process.env.ARBITER_NO_DEMO = '1';
  const { serve, useModelDirs } = await import('./serve');
  useModelDirs(values['models-dir'] as unknown as string[] | undefined);
  const port = values.port === undefined ? 4317 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be a number from 0 to 65535`);
  const { openApp } = await import('../core/service/openApp');
  const service = await openApp(dbPathFrom(values), 'http');
  await serve(service, { port, host: String(values.host), io });
  return 0;
};

const scoreCommand: Command = async (argv, io) => {
  const { values } = parse(argv, {
    project: { type: 'string' },
    model: { type: 'string', multiple: true },
    provider: { type: 'string', default: 'auto' },
    'batch-size': { type: 'string', default: '16' },
  });
  const project = requireProjectName(values);
  const provider = String(values.provider);
  if (!['auto', 'cpu', 'cuda', 'dml', 'coreml'].includes(provider)) throw new UsageError(`--provider must be auto, cpu, cuda, dml or coreml`);
  const batchSize = Number(values['batch-size']);
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 1024) throw new UsageError('--batch-size must be a whole number from 1 to 1024');
  const dirs = ((values.model as unknown as string[] | undefined) ?? []).map((d) => resolve(d));
  const dbPath = dbPathFrom(values);
  const { projects, scorer } = await loadDirect();
  const db = openDbFor(values);
  let modelIds: number[] | undefined;
  try {
    projects.requireProject(db, project);
    if (dirs.length === 0) {
      modelIds = scorer.listModels(db).map((m) => m.id);
      if (modelIds.length === 0) throw new UsageError('no models added yet: pass --model DIR (a folder with model.onnx and tokenizer.json)');
    }
  } finally {
    db.close();
  }
  let lastLine = 0;
  const result = await scorer.scoreProjectInline(
    { dbPath, project, dirs: dirs.length ? dirs : undefined, modelIds, provider: provider as direct.scorer.ProviderRequest, batchSize },
    {
      onProgress: (p) => {
        const now = Date.now();
        if (now - lastLine < 1000 && p.phase !== 'done') return;
        lastLine = now;
        const eta = p.etaSeconds === null ? '' : `, ETA ${Math.ceil(p.etaSeconds)} s`;
        io.err(`${p.model} [${p.provider ?? '…'}]: ${p.done}/${p.total} scored, ${p.cached} cached, ${p.itemsPerSecond.toFixed(0)} responses/s${eta}`);
      },
    },
  );
  for (const model of result.models) {
    const skipped = model.provider.skipped.map((s) => `${s.name} (${s.reason})`).join('; ');
    io.err(`${model.name}: ran on ${model.provider.used}${skipped ? `; skipped ${skipped}` : ''}`);
    for (const { count, reason, examples } of model.unscorableReasons) {
      const more = count > examples.length ? ', …' : '';
      io.err(`  ${count} unscorable: ${reason} (${examples.join('; ')}${more})`);
    }
  }
  io.out(JSON.stringify(result));
  return 0;
};

const modelsCommand: Command = async (argv, io) => {
  const { values } = parse(argv, { json: { type: 'boolean', default: false } });
  const { scorer } = await loadDirect();
  return withDb(values, async (db) => {
    const list = scorer.listModels(db);
    if (values.json) io.out(JSON.stringify(list));
    else for (const m of list) io.out(`${m.id}\t${m.name}\t${m.kind}\t${m.scores} scores\t${m.dir}`);
    return 0;
  });
};

export const commands: Record<string, Command> = {
  score: scoreCommand,
  models: modelsCommand,
  import: importCommand,
  export: exportCommand,
  labels: labelsCommand,
  stats: (argv, io) => import('./stats').then((m) => m.statsCommand(argv, io)),
  projects: (argv, io) => import('./manage').then((m) => m.projectsCommand(argv, io)),
  backup: (argv, io) => import('./manage').then((m) => m.backupCommand(argv, io)),
  doctor: doctorCommand,
  serve: serveCommand,
  judge: (argv, io) => import('./judge').then((m) => m.judgeCommand(argv, io)),
  rubric: (argv, io) => import('./rubric').then((m) => m.rubricCommand(argv, io)),
  review: (argv, io) => import('./review').then((m) => m.reviewCommand(argv, io)),
  adjudicate: (argv, io) => import('./review').then((m) => m.adjudicateCommand(argv, io)),
  hub: (argv, io) => import('./hub').then((m) => m.hubCommand(argv, io)),
  sync: (argv, io) => import('./sync').then((m) => m.syncCommand(argv, io)),
  gold: (argv, io) => import('./gold').then((m) => m.goldCommand(argv, io)),
  evaluate: (argv, io) => import('./evaluate').then((m) => m.evaluateCommand(argv, io)),
  items: (argv, io) => import('./items').then((m) => m.itemsCommand(argv, io)),
};
