// Options every command reads the same way. Names are checked with the API's own schemas (docs/cli.md:
// "the CLI validates names with the same schemas as the API"), before the database is opened, so a
// refused name changes nothing; a missing input file is bad input (exit 1), not a usage error.
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { z } from 'zod';
import { annotatorName, projectName } from '../../shared/api/common';
import { invalidInput } from '../core/base/errors';
import { UsageError, type ParsedArgs } from './io';

export function requireString(values: ParsedArgs['values'], key: string): string {
  const value = values[key];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${key} is required`);
  return value;
}

/** A name as the API would take it (trimmed), or a usage error with the schema's sentence. */
export function checkName(schema: z.ZodType<string>, value: string, what: string): string {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new UsageError(`${what}: ${parsed.error.issues[0]?.message ?? 'not a valid name'}`);
  return parsed.data;
}

export function checkProjectName(value: string, what = '--project'): string {
  return checkName(projectName, value, what);
}

/** `--project NAME`: required and valid. */
export function requireProjectName(values: ParsedArgs['values']): string {
  return checkProjectName(requireString(values, 'project'));
}

/** `--annotator NAME`: optional, valid when given. */
export function optionalAnnotatorName(values: ParsedArgs['values']): string | undefined {
  const value = values.annotator;
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new UsageError('--annotator takes a name');
  return checkName(annotatorName, value, '--annotator');
}

/**
 * The FILE positional: its absence is a usage error; a file that is not there is bad input. With
 * `datasetFolder` a LeRobot dataset folder (it holds meta/info.json) is taken too (`arbiter import`).
 */
export function requireFile(path: string | undefined, datasetFolder = false): string {
  if (!path) throw new UsageError('FILE is required');
  const full = resolve(path);
  if (!existsSync(full)) throw invalidInput(`no such file: ${path}`);
  if (statSync(full).isDirectory() && !(datasetFolder && existsSync(join(full, 'meta', 'info.json'))))
    throw invalidInput(`${path} is a folder, not a file${datasetFolder ? ' (a LeRobot dataset folder holds meta/info.json)' : ''}`);
  return full;
}

