// What every command shares: the terminal it talks to, its option parser, its usage error and the
// database it opens. Commands import this, never main.ts (which imports the command table).
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { invalidInput } from '../core/base/errors';
import { defaultDbPath } from '../core/base/paths';
import { openDb } from '../core/service/storeDirect';

/** A mistake in how the command was called (exit 2), as opposed to bad input (exit 1). */
export class UsageError extends Error {}

/** An option the command does not take (exit 2): said with the command's own --help. */
export class UnknownOptionError extends UsageError {
  constructor(readonly option: string) {
    super(`Unknown option ${option}`);
  }
}

/** `--help` or `-h` among a command's arguments (before a `--`): the command's own help answers. */
export function asksForHelp(argv: string[]): boolean {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).some((a) => a === '--help' || a === '-h');
}

export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
  /** Asks a person a question and returns their answer; absent where nobody can answer (stdin is no terminal). */
  ask?: (question: string) => Promise<string>;
}

/** Asks on the terminal: the question on stderr (stdout stays JSON for scripts), the answer from stdin. */
function askOnTerminal(question: string): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  return new Promise<string>((answer) => {
    // End of input (Ctrl+D) or Ctrl+C answers "no".
    rl.once('close', () => answer(''));
    rl.once('SIGINT', () => rl.close());
    rl.question(question, (line) => {
      answer(line);
      rl.close();
    });
  });
}

export function processIo(): CliIo {
  return {
    out: (l) => process.stdout.write(l + '\n'),
    err: (l) => process.stderr.write(l + '\n'),
    ask: process.stdin.isTTY ? askOnTerminal : undefined,
  };
}

export type ParsedArgs = { values: Record<string, string | boolean | undefined>; positionals: string[] };

export function parse(argv: string[], options: ParseArgsConfig['options']): ParsedArgs {
  try {
    const { values, positionals } = parseArgs({ args: argv, options: { ...options, db: { type: 'string' } }, allowPositionals: true, strict: true });
    return { values: values as ParsedArgs['values'], positionals };
  } catch (error) {
    // parseArgs says "Unknown option '--x'. To specify a positional argument starting with a '-', …".
    const unknown = (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? /'(-[^']*)'/.exec((error as Error).message) : null;
    if (unknown) throw new UnknownOptionError(unknown[1]!);
    throw new UsageError((error as Error).message);
  }
}

/**
 * The database a command uses: --db, else the default (which the app creates, folders and all). A --db in
 * a folder that does not exist is a mistyped path, refused before anything is made there.
 */
export function dbPathFrom(values: ParsedArgs['values']): string {
  if (typeof values.db !== 'string') return defaultDbPath();
  const path = resolve(values.db);
  const folder = dirname(path);
  if (!existsSync(folder) || !statSync(folder).isDirectory())
    throw invalidInput(`--db names a database in a folder that does not exist: ${folder}. Make the folder first, or check the path.`);
  return path;
}

export function openDbFor(values: ParsedArgs['values']) {
  return openDb(dbPathFrom(values));
}

/** Runs a command's work on the database named by --db (or the default), closing it whatever happens. */
export async function withDb<T>(values: ParsedArgs['values'], work: (db: ReturnType<typeof openDb>) => Promise<T> | T): Promise<T> {
  const db = openDbFor(values);
  try {
    return await work(db);
  } finally {
    db.close();
  }
}
