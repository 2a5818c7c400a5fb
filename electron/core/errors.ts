// Errors that carry a code for programs and a sentence for people; transports map them 1:1.
import type { ApiErrorShape } from '../../shared/api';
import type { LineError } from '../../shared/domain';

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

export const notFound = (what: string) => new ArbiterError('not_found', what);
export const conflict = (what: string) => new ArbiterError('conflict', what);
/** A job stopped at the user's request; `details.cancelled` tells programs apart from other conflicts. */
export const cancelledError = (what: string) => new ArbiterError('conflict', what, { cancelled: true });
export const invalidInput = (what: string, details?: unknown) => new ArbiterError('invalid_input', what, details);

export function toErrorShape(error: unknown): ApiErrorShape {
  if (error instanceof ArbiterError) return { code: error.code, message: error.message, details: error.details };
  if (error && typeof error === 'object' && 'issues' in error && Array.isArray((error as { issues: unknown[] }).issues)) {
    const issues = (error as { issues: { path: (string | number)[]; message: string }[] }).issues;
    const message = issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ');
    return { code: 'invalid_input', message: `Invalid input: ${message}`, details: issues };
  }
  return { code: 'internal', message: error instanceof Error ? error.message : String(error) };
}
