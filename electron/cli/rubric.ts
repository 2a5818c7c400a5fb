// `arbiter rubric import FILE --project NAME | export --project NAME [--rubric R] [--version N] --out FILE
// | list --project NAME [--json]` (docs/cli.md). A rubric file is one JSON object, {"name", "criteria"}
// (docs/formats.md "Ratings, rubrics and critiques"); an export writes the same shape with its
// "version", so an exported file imports again as it is. Names are checked with the API's schemas
// before anything opens.
import { readFileSync, writeFileSync } from 'node:fs';
import { decodeUtf8, findRubric, rubricNames, rubricVersion, projects } from '../core/service/direct';
import { resolve } from 'node:path';
import { rubricName } from '../../shared/api/rubrics';
import { checkRubricFile, problemText, scaleText } from '../../shared/rubric';
import { invalidInput } from '../core/base/errors';
import { limit, limitEnvName } from '../core/base/limits';
import { getRubricView, listProjectRubrics, saveProjectRubric } from '../core/service/rubrics';
import { parse, UsageError, withDb, type CliIo } from './io';
import { checkName, requireFile, requireProjectName, requireString } from './options';

type Command = (argv: string[], io: CliIo) => Promise<number>;

const RUBRIC_USAGE = `arbiter rubric import FILE --project NAME
arbiter rubric export --project NAME [--rubric R] [--version N] --out FILE
arbiter rubric list --project NAME [--json]`;

/** A bad rubric file: each problem is printed as `FILE: where: reason`, and nothing is imported. */
class InvalidRubricFile extends Error {
  constructor(
    readonly file: string,
    readonly lines: string[],
  ) {
    super(`${lines.length} problem(s) in ${file}`);
  }
}

/** True when lists and objects nest deeper than `max` (walked without recursion, as the importers do). */
function nestedDeeperThan(root: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[root, 1]];
  while (stack.length) {
    const [value, depth] = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (depth > max) return true;
    for (const child of Object.values(value)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

function readRubricFile(file: string) {
  let json: unknown;
  // Bytes that are not UTF-8 are refused with their line and byte, never read as U+FFFD.
  const text = decodeUtf8(readFileSync(file), file);
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new InvalidRubricFile(file, [`not JSON: ${(error as Error).message}`]);
  }
  const maxDepth = limit('recordMaxDepth');
  if (nestedDeeperThan(json, maxDepth))
    throw new InvalidRubricFile(file, [`nested more than ${maxDepth} levels deep (lists and objects inside one another); ${limitEnvName('recordMaxDepth')} raises the bound`]);
  const checked = checkRubricFile(json);
  if (!checked.ok) throw new InvalidRubricFile(file, checked.problems.map(problemText));
  return checked.value;
}

const importRubric: Command = async (argv, io) => {
  const { values, positionals } = parse(argv, { project: { type: 'string' } });
  if (!positionals[0]) throw new UsageError('FILE is required');
  if (positionals.length > 1) throw new UsageError('rubric import takes one FILE');
  const project = requireProjectName(values);
  const file = requireFile(positionals[0]);
  const rubric = readRubricFile(file);
  return withDb(values, (db) => {
    const saved = saveProjectRubric(db, { project, name: rubric.name, criteria: rubric.criteria });
    io.out(JSON.stringify(saved));
    return 0;
  });
};

function optionalVersion(values: Record<string, unknown>): number | undefined {
  if (values.version === undefined) return undefined;
  const n = Number(values.version);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--version must be a whole number from 1 (it was "${String(values.version)}")`);
  return n;
}

const exportRubric: Command = async (argv, io) => {
  const { values, positionals } = parse(argv, { project: { type: 'string' }, rubric: { type: 'string' }, version: { type: 'string' }, out: { type: 'string' } });
  if (positionals.length) throw new UsageError('rubric export takes no FILE: name the output with --out FILE');
  const project = requireProjectName(values);
  const name = typeof values.rubric === 'string' ? checkName(rubricName, values.rubric, '--rubric') : undefined;
  const version = optionalVersion(values);
  const out = resolve(requireString(values, 'out'));
  return withDb(values, (db) => {
    let rubric = name;
    if (rubric === undefined) {
      // Without --rubric: the project's only rubric, or a list to choose from.
      const names = rubricNames(db, projects.requireProject(db, project).id);
      if (names.length !== 1)
        throw invalidInput(names.length ? `the project “${project}” has ${names.length} rubrics (${names.join(', ')}); choose one with --rubric` : `the project “${project}” has no rubrics yet`);
      rubric = names[0]!;
    }
    const view = getRubricView(db, { project, rubric, version });
    writeFileSync(out, JSON.stringify({ name: view.rubric, version: view.version, criteria: view.criteria }, null, 2) + '\n');
    io.out(JSON.stringify({ rubric: view.rubric, version: view.version, latest: view.latest, criteria: view.criteria.length, out }));
    return 0;
  });
};

const listRubrics: Command = async (argv, io) => {
  const { values, positionals } = parse(argv, { project: { type: 'string' }, json: { type: 'boolean', default: false } });
  if (positionals.length) throw new UsageError('rubric list takes no arguments besides --project NAME [--json]');
  const project = requireProjectName(values);
  return withDb(values, (db) => {
    const list = listProjectRubrics(db, project);
    const projectId = projects.requireProject(db, project).id;
    if (values.json) {
      io.out(JSON.stringify(list));
      return 0;
    }
    if (list.length === 0) io.out(`${project}: no rubrics yet (arbiter rubric import FILE --project ${JSON.stringify(project)})`);
    for (const rubric of list) {
      io.out(`${rubric.name}: ${rubric.versions.length} version(s), v${rubric.latest} in force`);
      for (const v of rubric.versions) {
        // The version in force also says its criteria and their scales.
        const newest = v.version === rubric.latest ? rubricVersion(db, findRubric(db, projectId, rubric.name)!.id, v.version) : null;
        const scales = newest ? `  ${newest.criteria.map((c) => `${c.key} (${scaleText(c.scale)})`).join(', ')}` : '';
        io.out(`  v${v.version}  ${v.createdAt}  ${v.criteria} criteria  ${v.labels} label(s), ${v.revisions} revision(s)${scales}`);
      }
    }
    return 0;
  });
};

export const rubricCommand: Command = async (argv, io) => {
  const [sub, ...rest] = argv;
  try {
    if (sub === 'import') return await importRubric(rest, io);
    if (sub === 'export') return await exportRubric(rest, io);
    if (sub === 'list') return await listRubrics(rest, io);
  } catch (error) {
    if (!(error instanceof InvalidRubricFile)) throw error;
    for (const line of error.lines) io.err(`${error.file}: ${line}`);
    io.err(`arbiter rubric: ${error.lines.length} problem(s) in the rubric file; nothing was imported.`);
    return 1;
  }
  throw new UsageError(`rubric takes a subcommand:\n  ${RUBRIC_USAGE.split('\n').join('\n  ')}`);
};
