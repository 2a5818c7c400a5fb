// The `arbiter` command line: a contract that tests and users script against (docs/cli.md).
import { EXPORT_FORMATS, IMPORT_FORMATS, RANKING_PAIRS } from '../../shared/formatNames';
import { REVIEW_TASKS } from '../../shared/api/review';
import { ArbiterError, InvalidFileError, toErrorShape, UnknownFormatError } from '../core/base/errors';
import { defaultDbPath } from '../core/base/paths';
import { commands } from './commands';
import { asksForHelp, processIo, UnknownOptionError, UsageError, type CliIo } from './io';

export const USAGE = `arbiter <command> [options] [--db PATH]

Commands:
  import FILE --project NAME [--format auto|${IMPORT_FORMATS.join('|')}] [--skip-invalid]
         [--images-dir DIR]           (where the file's relative image paths are; default: its folder)
  export --project NAME --format ${EXPORT_FORMATS.join('|')} --out FILE [--force] [--annotator NAME]
         [--neutral true|false] [--ranking-pairs ${RANKING_PAIRS.join('|')}] [--from-ratings]
         [--adjudicated-only] [--min-agreement 0-1] [--view NAME]
         (an existing FILE is left as it is unless --force; trl-vision writes FILE and its images in
         STEM_images/ beside it; trl-vision-parquet, or trl-vision to a .parquet FILE, writes Parquet
         with the Image feature; --view: exactly a saved view's items)
  labels import FILE --project NAME [--skip-invalid]
  rubric import FILE --project NAME
  rubric export --project NAME [--rubric R] [--version N] --out FILE
  rubric list --project NAME [--json]
  items --project NAME [--search Q] [--where FACET=VALUE ...] [--view NAME] [--sort COLUMN[:desc]]
         [--limit N] [--annotator NAME] [--facets] [--json]   (the items page's query: docs/cli.md)
  items views --project NAME [--json]
  stats --project NAME [--json]        (progress, agreement, consensus, people, models, the queue)
  review --project NAME [--task ${REVIEW_TASKS.join('|')}] [--reason annotators|model|uncertain|judge|sent] [--limit N] [--json]
  adjudicate --project NAME --item ID (--choice A|B|tie|both_bad [--strength 1-3] | --verdict good|bad
         | --ranking 2,[0 1] | --first-error A=2,B=-1 and / or --outcome A=failure) [--note TEXT] [--lead NAME]
         (ID: the item's external id (the file's "id"), its uid, or the #N review lists for one without)
  gold --project NAME (--import N | --items ID,...) [--task T] [--unmark] [--lead NAME]
         (a lead marks a file's own labels as gold; alone: the gold per task and the imports with their N)
  evaluate --project NAME [--model NAME ...] [--json] [--export SHAPE --model NAME --out FILE [--force]]
         (people, reward models and judges on the gold, from stored results; SHAPE: rewardbench,
         rewardbench2, rm-bench, processbench, videoalign)
  score --project NAME [--model DIR ...] [--provider auto|cpu|cuda|dml|coreml] [--batch-size N]
  models [--json]
  judge --project NAME --model FILE.gguf|server [--task pairwise|rubric|steps|outcome] [--template N]
         [--parallel N] [--limit N] [--seed N] [--temperature T] [--top-k K] [--top-p P] [--text-max N]
         (a generative judge over the items: GGUF files from the models folders; server: the project's own)
  projects [--json]
  projects rename OLD NEW
  projects delete NAME [--yes]        (asks first on a terminal; --yes where stdin is not one)
  backup [--out FILE]                 (default: <db>.backup-<yyyymmdd-hhmmss>.sqlite beside the database)
  serve [--port N] [--host ADDR] [--no-demo] [--models-dir DIR ...]
  doctor [--json]
  hub init --hub URL                 (creates or updates the hub's schema; a second run changes nothing)
  hub grant --hub URL --annotator NAME --role annotator|lead [--uuid UUID] [--no-password]
         (URL: postgres://USER@HOST:PORT/DB[?sslmode=require|verify-full&sslrootcert=FILE], no password
         in it: ARBITER_HUB_PASSWORD or a prompt; the new login role's from ARBITER_HUB_NEW_PASSWORD or a prompt)
  hub revoke --hub URL --annotator NAME  (their login role may no longer log in nor write; what they pushed stays)
  hub publish --project NAME --hub URL   (the project to the hub: items, images, rubrics, guidelines, settings,
         cuts, the file's own labels; again: adds what is new)
  hub join --project NAME --hub URL      (the hub's project into this database, linked for sync; again: adds what is new)
  sync --project NAME [--hub URL]    (pushes this machine's revisions, pulls the team's; prints {"pushed", "pulled", …};
         the hub from the project's link when --hub is left out)

The database defaults to the desktop app's (${defaultDbPath()}); ARBITER_DB or --db override it
(--db's folder must exist: a mistyped path is refused, not made).`;

/** One command's lines of the usage (its subcommands too, each with its continuation lines), and the --db line. */
export function commandUsage(name: string): string {
  const lines = USAGE.split('\n');
  const mine: string[] = [];
  let inside = false;
  for (const line of lines) {
    if (/^ {2}\S/.test(line)) inside = line.slice(2).split(' ')[0] === name;
    else if (!/^ {3,}\S/.test(line)) inside = false;
    if (inside) mine.push(line);
  }
  return [`arbiter ${name} [options] [--db PATH]`, '', ...mine, '', ...lines.slice(lines.findIndex((l) => l.startsWith('The database defaults')))].join('\n');
}

/** What follows a usage mistake: where the whole usage is, not all of it. */
export const HELP_HINT = 'See arbiter --help for the commands and their options.';

export async function runCli(argv: string[], io: CliIo = processIo()): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    io.out(USAGE);
    return name ? 0 : 2;
  }
  const command = commands[name];
  if (!command) {
    io.err(`arbiter: unknown command "${name}"`);
    io.err(HELP_HINT);
    return 2;
  }
  if (asksForHelp(rest)) {
    io.out(commandUsage(name));
    return 0;
  }
  try {
    return await command(rest, io);
  } catch (error) {
    if (error instanceof UnknownOptionError) {
      io.err(`arbiter ${name}: ${error.message}. See \`arbiter ${name} --help\`.`);
      return 2;
    }
    if (error instanceof UsageError) {
      io.err(`arbiter ${name}: ${error.message}`);
      io.err(HELP_HINT);
      return 2;
    }
    if (error instanceof InvalidFileError) {
      for (const e of error.errors) io.err(`${error.file}:${e.line}: ${e.reason}`);
      io.err(`arbiter ${name}: ${error.errors.length} invalid line(s); nothing was imported. Fix them, or pass --skip-invalid to import the rest.`);
      return 1;
    }
    if (error instanceof UnknownFormatError && error.jsonLines) {
      io.err(`arbiter ${name}: cannot tell the format of ${error.file}: ${error.reason}. Name it with --format (one of: ${IMPORT_FORMATS.join(', ')}).`);
      return 1;
    }
    if (error instanceof ArbiterError) {
      io.err(`arbiter ${name}: ${error.message}`);
      return 1;
    }
    const shape = toErrorShape(error);
    io.err(`arbiter ${name}: ${shape.message}`);
    return 1;
  }
}
