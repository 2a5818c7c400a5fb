// What every command shares: the terminal it talks to, its option parser, its usage error and the
// database it opens. Commands import this, never main.ts (which imports the command table).
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { defaultDbPath } from '../core/paths';
import { openDb } from '../core/store/db';

/** A mistake in how the command was called (exit 2), as opposed to bad input (exit 1). */
export class UsageError extends Error {}

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
    throw new UsageError((error as Error).message);
  }
}

export function dbPathFrom(values: ParsedArgs['values']): string {
  return typeof values.db === 'string' ? resolve(values.db) : defaultDbPath();
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
