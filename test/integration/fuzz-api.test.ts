// Fuzzing the API's inputs (issue 13, "Must hold"): a real `arbiter serve` host gets, for every
// operation in shared/api, seeded hostile JSON bodies: inputs shaped by the operation's own schema (so
// that many pass validation and reach the handler) with fields swapped for wrong types, huge numbers,
// 1e309, -0, NaN-like strings, deep nesting, long strings, NUL, __proto__ / constructor keys and
// duplicate keys; and bodies broken as bytes (truncated JSON, invalid UTF-8, a BOM, NUL bytes, a list
// or a number instead of an object). Properties: every request is answered within its bound (no hang);
// the answer is JSON, `ok: true` with status 200 or `ok: false` with a code and a message that is a
// sentence, never a 500 or a stack trace; the host survives every case and still answers.
// FUZZ_SEED=<seed> sends the same requests again; FUZZ_CASES=<n> changes the cases per operation.
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { API_NAMES, schemas, type ApiName } from '../../shared/api';
import { buildNodeSide, call, startHostProcess, type HostProcess } from '../helpers/host';
import { damageBytes, hostileValue, paths, setAt, toJsonText } from '../helpers/hostile';
import { seededRng, seedFrom, type Rng } from '../helpers/seeded';
import { tempDir } from '../helpers/tmp';

const SEED = seedFrom('FUZZ_SEED');
const CASES = Number(process.env.FUZZ_CASES ?? 100);
/** How long one request may take: past it, the case hangs. */
const REQUEST_LIMIT_MS = 15_000;
const rng = seededRng(SEED);

let host: HostProcess;
const failures: string[] = [];
const tally = { requests: 0, ok: 0, refused: 0, byStatus: new Map<number, number>() };
/** Real ids, so that valid-shaped inputs reach the handlers: items of project p, uploads started. */
const pool = { items: [] as number[], uploads: [] as string[] };

interface Answer {
  status: number;
  text: string;
}

function post(path: string, body: Buffer, headers: Record<string, string> = {}): Promise<Answer> {
  const base = new URL(host.baseUrl);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: base.hostname.replace(/^\[|\]$/g, ''),
        port: host.port,
        method: 'POST',
        path,
        headers: { host: base.host, 'content-type': 'application/json', 'x-arbiter-token': host.token, 'content-length': String(body.length), ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.setTimeout(REQUEST_LIMIT_MS, () => req.destroy(new Error(`no answer within ${REQUEST_LIMIT_MS / 1000} s (a hang)`)));
    req.on('error', reject);
    req.end(body);
  });
}

// ---- Inputs shaped by the schema ------------------------------------------------------------------

type Def = { type: string; [key: string]: unknown };
const defOf = (schema: unknown): Def => (schema as { _zod: { def: Def } })._zod.def;

/** A plausible value for a schema: real names and ids where the key says what it is. */
function conform(schema: z.ZodType, key: string, r: Rng, depth = 0): unknown {
  const def = defOf(schema);
  switch (def.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(def.shape as Record<string, z.ZodType>)) {
        const inner = defOf(v).type;
        if ((inner === 'optional' || inner === 'default') && r.chance(0.4)) continue;
        out[k] = conform(v, k, r, depth + 1);
      }
      return out;
    }
    case 'optional':
    case 'default':
    case 'nullable':
      if (def.type === 'nullable' && r.chance(0.2)) return null;
      return conform(def.innerType as z.ZodType, key, r, depth);
    case 'pipe':
      return conform(def.in as z.ZodType, key, r, depth);
    case 'transform':
      return r.pick(['x', 1, true]);
    case 'union':
      return conform(r.pick(def.options as z.ZodType[]), key, r, depth);
    case 'enum':
      return r.pick(Object.values(def.entries as Record<string, string>));
    case 'literal':
      return r.pick(def.values as unknown[]);
    case 'boolean':
      return r.chance(0.5);
    case 'null':
      return null;
    case 'array': {
      if (depth > 6) return [];
      const n = r.int(4);
      if (/order|shown/i.test(key)) return r.pick([[0, 1], [1, 0], [0, 1, 2], [2, 0, 1]]);
      return Array.from({ length: n }, () => conform(def.element as z.ZodType, key, r, depth + 1));
    }
    case 'record': {
      if (depth > 6) return {};
      const out: Record<string, unknown> = {};
      for (let i = r.int(3); i > 0; i--) out[r.pick(['A', 'B', 'C', 'correctness', 'safe', '0', '1', 'x'])] = conform(def.valueType as z.ZodType, key, r, depth + 1);
      return out;
    }
    case 'number':
      if (/itemId|^item$/i.test(key)) return r.chance(0.8) && pool.items.length ? r.pick(pool.items) : r.pick([0, -1, 999_999_999]);
      if (/seq/i.test(key)) return r.pick([-1, 0, 1, 5, 1e9]);
      if (/size/i.test(key)) return r.pick([0, 10, 1024, 64 * 1024 ** 3]);
      return r.pick([0, 1, 2, 3, -1, 5, 100, 2 ** 31]);
    case 'string':
      if (/^(project|name)$/.test(key)) return r.pick(['p', 'p', 'scratch', 'nope', 'p2']);
      if (/annotator|lead/i.test(key)) return r.pick(['alice', 'bob', 'lead']);
      if (/uploadId/.test(key)) return r.chance(0.7) && pool.uploads.length ? r.pick(pool.uploads) : '0'.repeat(32);
      if (/^id$|revision/i.test(key)) return r.uuid();
      if (/content|head/i.test(key)) return jsonlContent(r);
      if (/data/i.test(key)) return Buffer.from(jsonlContent(r)).toString('base64');
      if (/fileName/i.test(key)) return r.pick(['a.jsonl', 'a.jsonl.gz', 'a.json', 'a.parquet', 'x', '../../x.jsonl']);
      if (/dir|path|folder/i.test(key)) return r.pick(['/tmp', '/nonexistent', 'resources/models/demo-outcome', '../../etc']);
      return r.pick(['x', 'hello', 'A', '']);
    case 'unknown':
    case 'any':
      return hostileValue(r, 1000);
    default:
      return null;
  }
}

/** A few JSON Lines, some of them hostile: what an import's content or a previewed head may hold. */
function jsonlContent(r: Rng): string {
  const lines: string[] = [];
  for (let i = r.int(5); i >= 0; i--) {
    const base = { prompt: `p${i}`, chosen: 'c', rejected: 'r' };
    lines.push(r.chance(0.5) ? toJsonText(setAt(base, [r.pick(['prompt', 'chosen', 'rejected'])], hostileValue(r, 2000))) : JSON.stringify(base));
  }
  return `${lines.join('\n')}\n`;
}

interface Body {
  bytes: Buffer;
  what: string;
}

/** One request body for an operation: conforming, with hostile fields, or broken as bytes. */
function makeBody(name: ApiName, r: Rng): Body {
  let input = conform(schemas[name] as z.ZodType, '', r);
  // Never rename or delete the project the other cases use.
  if ((name === 'deleteProject' || name === 'renameProject') && input && typeof input === 'object') input = { ...input, project: 'scratch' };
  const roll = r();
  let what = 'shaped by its schema';
  if (roll < 0.25) {
    // as it is
  } else if (roll < 0.8) {
    const done: string[] = [];
    for (let i = 1 + r.int(2); i > 0; i--) {
      const path = r.pick(paths(input));
      if ((name === 'deleteProject' || name === 'renameProject') && path[0] === 'project') continue;
      if (path.length && r.chance(0.15)) {
        input = setAt(input, path, undefined, true);
        done.push(`${path.join('.')} removed`);
      } else if (path.length === 0 || r.chance(0.85)) {
        const value = hostileValue(r, 100_000);
        input = setAt(input, path, value);
        done.push(`${path.join('.') || '(the body)'} = ${value.name}`);
      } else {
        input = setAt(input, [...path.slice(0, -1), r.pick(['__proto__', 'constructor', 'extra', 'toString'])], 1);
        done.push(`an extra key beside ${path.join('.')}`);
      }
    }
    what = done.join('; ') || 'shaped by its schema';
  }
  let bytes: Buffer = Buffer.from(toJsonText(input));
  if (roll >= 0.8) {
    const damage = damageBytes(r, bytes, 64 * 1024);
    bytes = damage.bytes;
    what = damage.name;
  }
  return { bytes, what };
}

/** The properties one answer must have; returns a failure or null. */
function judge(answer: Answer): string | null {
  if (answer.status >= 500) return `status ${answer.status}: ${answer.text.slice(0, 300)}`;
  let body: { ok?: unknown; result?: unknown; error?: { code?: unknown; message?: unknown } };
  try {
    body = JSON.parse(answer.text) as typeof body;
  } catch {
    return `status ${answer.status} with a body that is not JSON: ${answer.text.slice(0, 200)}`;
  }
  if (answer.status === 200) return body.ok === true ? null : `status 200 without ok: true: ${answer.text.slice(0, 200)}`;
  if (body.ok !== false || !body.error) return `status ${answer.status} without ok: false and an error: ${answer.text.slice(0, 200)}`;
  const message = body.error.message;
  if (typeof message !== 'string' || !/\w{3,}/.test(message)) return `status ${answer.status} with no message: ${answer.text.slice(0, 200)}`;
  if (/\n\s+at .+[(:]\d+|Maximum call stack|Cannot read propert|is not a function|undefined is not|SQLITE_|FOREIGN KEY constraint/.test(message))
    return `status ${answer.status} with an engine error, not a sentence: ${message.slice(0, 300)}`;
  return null;
}

async function send(name: string, body: Body, overLimit = false): Promise<void> {
  tally.requests++;
  let answer: Answer;
  try {
    answer = await post(`/api/${name}`, body.bytes);
  } catch (error) {
    // A body over its limit may be cut off while it is still being sent (413 and the connection closed).
    if (overLimit && /EPIPE|ECONNRESET/.test((error as Error).message)) return;
    failures.push(`FUZZ_SEED=${SEED} ${name} (${body.what}): ${(error as Error).message}; body ${body.bytes.toString('utf8').slice(0, 200)}`);
    return;
  }
  tally.byStatus.set(answer.status, (tally.byStatus.get(answer.status) ?? 0) + 1);
  if (answer.status === 200) tally.ok++;
  else tally.refused++;
  const broken = judge(answer);
  if (broken) failures.push(`FUZZ_SEED=${SEED} ${name} (${body.what}): ${broken}; body ${body.bytes.toString('utf8').slice(0, 200)}`);
}

async function stillAnswers(after: string): Promise<boolean> {
  if (host.child.exitCode !== null || host.child.signalCode !== null) {
    failures.push(`FUZZ_SEED=${SEED} the host died after ${after} (${host.child.signalCode ?? `exit ${host.child.exitCode}`}):\n${host.output().slice(-1500)}`);
    return false;
  }
  try {
    const info = await call(host, 'listProjects', {});
    if (info.status === 200) return true;
    failures.push(`FUZZ_SEED=${SEED} after ${after}, listProjects answered ${info.status}`);
  } catch (error) {
    failures.push(`FUZZ_SEED=${SEED} after ${after}, the host no longer answers: ${(error as Error).message}`);
  }
  return false;
}

beforeAll(async () => {
  buildNodeSide();
  const dbPath = join(tempDir(), 'fuzz.db');
  host = await startHostProcess(dbPath);
  const lines = Array.from({ length: 20 }, (_, i) => JSON.stringify({ id: `i${i}`, prompt: `Q${i}`, responses: [{ text: 'a', steps: ['s1', 's2'] }, { text: 'b' }, { text: 'c' }] })).join('\n');
  const made = await call(host, 'importContent', { project: 'p', fileName: 'p.jsonl', content: lines, createProject: true });
  if (made.status !== 200) throw new Error(`setup import failed: ${JSON.stringify(made.body)}`);
  for (const name of ['scratch', 'p2']) await call(host, 'createProject', { name });
  const page = await call(host, 'listItems', { project: 'p', limit: 50 });
  pool.items = ((page.body?.result?.rows ?? page.body?.result?.items ?? []) as { id: number }[]).map((row) => row.id).filter((id) => typeof id === 'number');
  if (!pool.items.length) pool.items = Array.from({ length: 20 }, (_, i) => i + 1);
  for (let i = 0; i < 3; i++) {
    const started = await call(host, 'startUpload', { fileName: 'u.jsonl', size: 64 });
    if (started.body?.ok) pool.uploads.push(started.body.result.uploadId as string);
  }
}, 120_000);

afterAll(() => {
  host?.child.kill('SIGKILL');
});

describe('fuzzing the API', () => {
  it('answers every hostile request of every operation with ok or a sentence, never a 500, a hang or a crash', async () => {
    console.log(`fuzz-api seed ${SEED} (FUZZ_SEED=${SEED} sends the same requests)`);
    const started = performance.now();
    for (const name of API_NAMES) {
      for (let i = 0; i < CASES; i++) await send(name, makeBody(name, rng));
      if (!(await stillAnswers(`the ${name} cases`))) break;
    }
    // Paths and bodies outside the operations: malformed % escapes, unknown names, a body over a limit.
    for (const path of ['/api/%E0%A4%A', '/api/save%ZZLabel', '/%', '/%E0%A4%A', '/api/..%2f..%2fetc', '/api/constructor', '/api/__proto__', '/api/toString']) {
      tally.requests++;
      try {
        const answer = await post(path, Buffer.from('{}'));
        if (answer.status >= 500) failures.push(`FUZZ_SEED=${SEED} POST ${path}: status ${answer.status}: ${answer.text.slice(0, 200)}`);
      } catch (error) {
        failures.push(`FUZZ_SEED=${SEED} POST ${path}: ${(error as Error).message}`);
      }
    }
    await send('uploadChunk', { bytes: Buffer.from(JSON.stringify({ uploadId: pool.uploads[0] ?? '0'.repeat(32), offset: 0, data: 'A'.repeat(12 * 1024 * 1024) })), what: 'a 12 MiB chunk, over its limit' }, true);
    await stillAnswers('the paths and the big body');
    const statuses = [...tally.byStatus].sort(([a], [b]) => a - b).map(([s, n]) => `${s}: ${n}`).join(', ');
    console.log(
      `fuzz-api seed ${SEED}: ${tally.requests} requests to ${API_NAMES.length} operations (${tally.ok} ok, ${tally.refused} refused; by status ${statuses}) in ${((performance.now() - started) / 1000).toFixed(0)} s; ${failures.length} failures`,
    );
    expect(failures, failures.join('\n')).toEqual([]);
  }, 300_000);
});
