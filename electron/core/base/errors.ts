// Errors that carry a code for programs and a sentence for people; transports map them 1:1.
import type { ApiErrorShape } from '../../../shared/api';
import type { LineError } from '../../../shared/domain';
import { describeInvalidInput, issueDetails, type Issue } from './inputErrors';

export class ArbiterError extends Error {
  constructor(
    readonly code: ApiErrorShape['code'],
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'ArbiterError';
  }
}

export class InvalidFileError extends ArbiterError {
  constructor(
    readonly file: string,
    readonly errors: LineError[],
  ) {
    // The lines themselves travel in `details` (and the CLI prints them as FILE:LINE: reason).
    super('invalid_file', `${errors.length} invalid line(s) in ${file}; nothing was imported.`, errors);
  }
}

/**
 * A file whose format cannot be told: JSON records of no known format (the user can name the format),
 * or no JSON object at all (not JSON Lines: naming a format will not help). The message says what to do
 * in words that fit any screen; the CLI words its own advice (--format).
 */
export class UnknownFormatError extends ArbiterError {
  constructor(
    readonly file: string,
    readonly reason: string,
    readonly jsonLines: boolean,
  ) {
    super('invalid_file', jsonLines ? `Cannot tell the format of ${file}: ${reason}. Choose its format and import it again.` : notJsonLinesMessage(file, reason), { reason });
  }
}

function notJsonLinesMessage(file: string, reason: string): string {
  const convert = /\.(csv|tsv)$/i.test(file) ? 'Convert the table to JSON Lines (one JSON object per row)' : 'Save it as JSON Lines (one JSON object per line)';
  return `${file} is ${reason}; nothing was imported. ${convert}, a .json array, .jsonl.gz or .parquet, then import it again.`;
}

export const notFound = (what: string) => new ArbiterError('not_found', what);
export const conflict = (what: string) => new ArbiterError('conflict', what);
/** A job stopped at the user's request; `details.cancelled` tells programs apart from other conflicts. */
export const cancelledError = (what: string) => new ArbiterError('conflict', what, { cancelled: true });
export const invalidInput = (what: string, details?: unknown) => new ArbiterError('invalid_input', what, details);

export function toErrorShape(error: unknown): ApiErrorShape {
  if (error instanceof ArbiterError) return { code: error.code, message: error.message, details: error.details };
  if (error && typeof error === 'object' && 'issues' in error && Array.isArray((error as { issues: unknown[] }).issues)) {
    const issues = (error as { issues: Issue[] }).issues;
    return { code: 'invalid_input', message: describeInvalidInput(issues), details: issueDetails(issues) };
  }
  return { code: 'internal', message: error instanceof Error ? error.message : String(error) };
}

/** A record that cannot be imported: the message names the field and what is wrong with it. */
export class RecordError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RecordError';
  }
}
