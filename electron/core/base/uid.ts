// Content hashes: the same item or response has the same id on every machine. Not folded into
// shared/ids.ts (the one id helper, UUIDv7) on purpose: a content hash is a synchronous SHA-256 of every
// item and response an import reads, which needs node:crypto's hash; shared/ is isomorphic (no Node
// built-ins, eslint), Web Crypto's digest is asynchronous, and a SHA-256 in JavaScript would slow the
// import's hot loop. The renderer never makes one: it reads the uid the core stored.
import { hash } from 'node:crypto';
import type { Content } from '../../../shared/domain';

/** JSON with object keys sorted, so that key order in a source file never changes a hash. */
export function canonicalJson(value: unknown): string {
  if (typeof value === 'string' || value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

export function sha256Hex(text: string | Buffer): string {
  return hash('sha256', text, 'hex');
}

export function itemUid(prompt: Content, responses: Content[]): string {
  return itemUidOfCanonical(canonicalJson(prompt), responses.map(canonicalJson));
}

/**
 * itemUid from the canonical JSON of the prompt and of each response's content, for callers that already
 * have those texts (a plain string's canonical JSON is its JSON.stringify). Same text as
 * canonicalJson({ prompt, responses }), built without the intermediate object.
 */
export function itemUidOfCanonical(prompt: string, responses: string[]): string {
  return sha256Hex(`{"prompt":${prompt},"responses":[${responses.join(',')}]}`).slice(0, 32);
}

export function contentHash(content: Content): string {
  return sha256Hex(canonicalJson(content)).slice(0, 32);
}
