// zod schemas shared by the format parsers, and a formatter that turns zod issues into one line-error
// reason that names the field ("chosen: empty text", "prompt[1].content: missing").
import { z } from 'zod';
import type { ChatMessage, Content } from '../../../shared/domain';
import { RecordError } from './types';

export const nonEmptyText = z.string().min(1, 'empty text');
export const anyText = z.string();

const describe = (input: unknown): string =>
  input === null ? 'null' : Array.isArray(input) ? 'a list' : typeof input === 'object' ? 'an object' : typeof input;

/** A typed content part ({type: 'text', text}, {type: 'image_url', image_url: {url}}, …), kept as it is. */
export const contentPartSchema = z.looseObject({ type: z.string().min(1, 'empty part type'), text: z.string().optional() });

/**
 * A chat message: role and content are required; content is a string or a list of typed parts (the
 * Hugging Face and OpenAI shapes). Other keys (name, tool_calls…) are kept as they are.
 */
export const messageSchema = z.looseObject({
  role: z.string().min(1, 'empty role'),
  content: z.union([z.string(), z.array(contentPartSchema)], { error: (issue) => `expected a string or a list of typed parts, got ${describe(issue.input)}` }),
});

export const messagesSchema = z
  .array(messageSchema)
  .min(1, 'empty message list')
  .refine((list) => list.some((m) => m.content.length > 0), 'every message is empty');

/** A prompt or response that is plain text or a chat message list (Arbiter's own format). */
export const contentSchema = z.union([nonEmptyText, messagesSchema]);


export function fieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out;
}

const ARTICLE: Record<string, string> = { string: 'a string', array: 'a list', object: 'an object', number: 'a number', boolean: 'true or false' };

interface LooseIssue {
  code: string;
  path: PropertyKey[];
  message: string;
  expected?: string;
  input?: unknown;
  errors?: LooseIssue[][];
  issues?: LooseIssue[];
}

function issueText(issue: LooseIssue, prefix: PropertyKey[]): string {
  const path = [...prefix, ...issue.path];
  const where = fieldPath(path) || 'record';
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return `${where}: missing`;
      return `${where}: expected ${ARTICLE[issue.expected ?? ''] ?? issue.expected}, got ${describe(issue.input)}`;
    case 'invalid_union': {
      // Report the branch that got furthest (the one whose first issue is deepest): a list prompt with a
      // bad message says which message, rather than "expected a string".
      const branches = (issue.errors ?? []).filter((b) => b.length > 0);
      const deepest = branches.reduce<LooseIssue[] | null>((best, b) => (!best || b[0]!.path.length > best[0]!.path.length ? b : best), null);
      if (deepest && deepest[0]!.path.length > 0) return issueText(deepest[0]!, path);
      if (issue.input === undefined && deepest?.[0]!.code === 'invalid_type' && deepest[0]!.input === undefined) return `${where}: missing`;
      if (issue.message && issue.message !== 'Invalid input') return `${where}: ${issue.message}`;
      if (deepest && deepest[0]!.code !== 'invalid_type') return issueText(deepest[0]!, path);
      // Name what the branches expect: a prompt's text or messages, else each branch's kind.
      const kinds = [...new Set(branches.flatMap((b) => b.filter((i) => i.code === 'invalid_type' && i.path.length === 0).map((i) => i.expected ?? '')))];
      if (kinds.length === 2 && kinds.includes('string') && kinds.includes('array')) return `${where}: expected text or a list of {role, content} messages, got ${describe(issue.input)}`;
      const names = kinds.map((k) => ARTICLE[k] ?? k);
      if (names.length) return `${where}: expected ${names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`}, got ${describe(issue.input)}`;
      return `${where}: not valid, got ${describe(issue.input)}`;
    }
    case 'invalid_value':
      return `${where}: ${issue.message.replace(/^Invalid (option|input): /, '')}`;
    case 'invalid_key': {
      // A record's key (a response letter, say): what the key should have been.
      const inner = issue.issues?.[0]?.message;
      return `${where}: not a key that fits here${inner && !/^Invalid/.test(inner) ? ` (${inner})` : ''}`;
    }
    default:
      return `${where}: ${issue.message}`;
  }
}

/** Parses with a zod schema; on failure throws a RecordError listing every issue (at most 5). */
export function check<T>(schema: z.ZodType<T>, value: unknown, prefix: PropertyKey[] = []): T {
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) return result.data;
  const issues = result.error.issues as unknown as LooseIssue[];
  const texts = issues.slice(0, 5).map((i) => issueText(i, prefix));
  if (issues.length > 5) texts.push(`and ${issues.length - 5} more`);
  throw new RecordError(texts.join('; '));
}

export function asContent(value: string | z.infer<typeof messageSchema>[]): Content {
  return value as string | ChatMessage[];
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Sets an own, enumerable data property, whatever the key: `obj[key] = v` with the key "__proto__" would
 * set the prototype instead and the key would be lost (JSON.parse makes such a key an own property).
 */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}

/** Whether `key` is the object's own (a key such as "toString" is in every object through its prototype). */
export const hasOwn = (target: object, key: string): boolean => Object.prototype.hasOwnProperty.call(target, key);

/** Fields other than `known`, kept as item metadata so that nothing in a source file is dropped. */
export function extraFields(record: Record<string, unknown>, known: ReadonlySet<string>): Record<string, unknown> {
  const extra: Record<string, unknown> = {};
  for (const key of Object.keys(record)) if (!known.has(key)) setOwn(extra, key, record[key]);
  return extra;
}

/** An external id from an `id` field: strings as they are, numbers as their decimal text. */
export function externalIdOf(value: unknown, field = 'id'): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return value.length ? value : null;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  throw new RecordError(`${field}: expected a string or a number, got ${describe(value)}`);
}
