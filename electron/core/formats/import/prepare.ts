// The database-free half of an import: lines → parsed, validated records → the exact column values an
// item row gets (uid included). It runs on the importing thread for small inputs and in the import worker
// for big ones (see ./pool.ts), so that hashing and JSON work overlap with the SQL on the main thread.
// Nothing here may import the store: the worker must not load better-sqlite3.
import type { ImportFormat } from '../../../../shared/formatNames';
import { canonicalJson, itemUidOfCanonical, sha256Hex } from '../../uid';
import { parseArbiter } from '../arbiter';
import { parseHelpsteer2, parseHelpsteer2Preference } from '../helpsteer2';
import { parseHelpsteer3 } from '../helpsteer3';
import { parseHhRlhf } from '../hhRlhf';
import { parseMathShepherd } from '../mathShepherd';
import { parsePrm800k } from '../prm800k';
import { parseProcessbench } from '../processbench';
import { parseRar } from '../rar';
import { parseRewardbench } from '../rewardbench';
import { parseTrlStepwise } from '../stepwise';
import { parseTrl, parseTrlChat, parseTrlChatImplicit, parseTrlImplicit } from '../trl';
import { parseUltrafeedback } from '../ultrafeedback';
import { parseUltrafeedbackBinarized } from '../ultrafeedbackBinarized';
import { parseTrlUnpaired } from '../unpaired';
import { RecordError, type ParsedRecord, type RecordParser, type SourceJudgement } from '../types';
import type { Criterion } from '../../../../shared/rubric';

export const PARSERS: Record<ImportFormat, RecordParser> = {
  arbiter: parseArbiter,
  trl: parseTrl,
  'trl-implicit': parseTrlImplicit,
  'trl-chat': parseTrlChat,
  'trl-chat-implicit': parseTrlChatImplicit,
  'trl-unpaired': parseTrlUnpaired,
  'trl-stepwise': parseTrlStepwise,
  'hh-rlhf': parseHhRlhf,
  rewardbench: parseRewardbench,
  prm800k: parsePrm800k,
  'math-shepherd': parseMathShepherd,
  processbench: parseProcessbench,
  ultrafeedback: parseUltrafeedback,
  'ultrafeedback-binarized': parseUltrafeedbackBinarized,
  // One row; consecutive rows of one prompt become one item (./group.ts).
  helpsteer2: parseHelpsteer2,
  'helpsteer2-preference': parseHelpsteer2Preference,
  helpsteer3: parseHelpsteer3,
  rar: parseRar,
};

/** What JUDGEMENT_FIELD holds: the record's judgements and its own criteria, whichever it has. */
export interface RecordExtras {
  judgements?: SourceJudgement[];
  criteria?: Criterion[];
}

function extrasJson(parsed: ParsedRecord): string | null {
  const judgements = [...(parsed.judgement ? [parsed.judgement] : []), ...(parsed.judgements ?? [])];
  if (!judgements.length && !parsed.criteria) return null;
  const extras: RecordExtras = {};
  if (judgements.length) extras.judgements = judgements;
  if (parsed.criteria) extras.criteria = parsed.criteria;
  return JSON.stringify(extras);
}

export function parseJson(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new RecordError(`invalid JSON: ${(error as Error).message}`);
  }
  if (value === null || typeof value !== 'object') throw new RecordError(`not a JSON object (a ${value === null ? 'null' : typeof value})`);
  if (Array.isArray(value)) throw new RecordError('not a JSON object (a list)');
  return value as Record<string, unknown>;
}

/**
 * A prepared record is RECORD_STRIDE consecutive values of a flat array (cheap to post between threads):
 * uid, external id, prompt JSON, reference, metadata JSON (the item columns, as stored), the number of
 * responses (as a string), the file's preference ('A' or null), then its other judgements and own
 * criteria as JSON (RecordExtras, or null). Its responses follow in a second flat array, RESPONSE_STRIDE values each: content JSON, model,
 * steps JSON (or null).
 */
export const RECORD_STRIDE = 8;
export const RESPONSE_COUNT_FIELD = 5;
export const PREFERENCE_FIELD = 6;
export const JUDGEMENT_FIELD = 7;
export const RESPONSE_STRIDE = 3;

/**
 * A piece of the input, cut at a line end: raw UTF-8 bytes of a file, or lines the caller already has
 * (`clean`: lines chunkLines already gave, to be taken as they are).
 */
export type Chunk = { bytes: Uint8Array } | { lines: string[]; clean?: boolean };

export interface ChunkError {
  /** 1-based, counted from the chunk's first line. */
  line: number;
  reason: string;
  text: string;
}

export interface ChunkResult {
  /** Lines in the chunk, blank ones included. */
  lines: number;
  /** Non-blank lines. */
  records: number;
  /** RECORD_STRIDE values per good record, in line order. */
  rows: (string | null)[];
  /** RESPONSE_STRIDE values per response of each good record, in the same order. */
  responses: (string | null)[];
  errors: ChunkError[];
}

/**
 * The chunk's lines as the importer sees them. Bytes split the way readline does (\n, \r\n or a lone
 * \r); given lines lose one trailing \r. The first chunk's first line loses a byte order mark.
 */
export function chunkLines(chunk: Chunk, first: boolean): string[] {
  let lines: string[];
  if ('bytes' in chunk) {
    const bytes = chunk.bytes;
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
    if (text === '') return [];
    lines = text.includes('\r') ? text.split(/\r\n|\n|\r/) : text.split('\n');
    // A line end at the very end ends the last line; it does not start an empty one.
    const last = text.charCodeAt(text.length - 1);
    if (last === 10 || last === 13) lines.pop();
  } else if (chunk.clean) {
    return chunk.lines;
  } else {
    lines = chunk.lines.map((raw) => (raw.endsWith('\r') ? raw.slice(0, -1) : raw));
  }
  if (first && lines.length && lines[0]!.charCodeAt(0) === 0xfeff) lines[0] = lines[0]!.slice(1);
  return lines;
}

/** Appends the record's item columns and preference to `rows`, its responses to `responses`. */
export function prepareRecord(parsed: ParsedRecord, rows: (string | null)[], responses: (string | null)[]): void {
  const { draft } = parsed;
  const promptJson = JSON.stringify(draft.prompt);
  // canonicalJson of a string is its JSON.stringify: hash and stored text share one stringify.
  const promptCanonical = typeof draft.prompt === 'string' ? promptJson : canonicalJson(draft.prompt);
  const canonical: string[] = [];
  for (const r of draft.responses) {
    const contentJson = JSON.stringify(r.content);
    canonical.push(typeof r.content === 'string' ? contentJson : canonicalJson(r.content));
    responses.push(contentJson, r.model, r.steps === null ? null : JSON.stringify(r.steps));
  }
  const uid = itemUidOfCanonical(promptCanonical, canonical);
  rows.push(
    parsed.identity === undefined ? uid : sha256Hex(`${uid}\u0000${parsed.identity}`).slice(0, 32),
    draft.externalId,
    promptJson,
    draft.reference,
    JSON.stringify(draft.metadata),
    String(draft.responses.length),
    parsed.preference,
    extrasJson(parsed),
  );
}

/**
 * Parses, validates and prepares lines of a known format. With validateOnly (an all-or-nothing import
 * that has already failed) good records are checked but not prepared.
 */
export function prepareLines(parse: RecordParser, lines: string[], validateOnly = false): ChunkResult {
  const result: ChunkResult = { lines: lines.length, records: 0, rows: [], responses: [], errors: [] };
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i]!;
    if (text.trim() === '') continue;
    result.records++;
    try {
      const parsed = parse(parseJson(text));
      if (!validateOnly) prepareRecord(parsed, result.rows, result.responses);
    } catch (error) {
      if (!(error instanceof RecordError)) throw error;
      result.errors.push({ line: i + 1, reason: error.message, text });
    }
  }
  return result;
}
