// Fuzzing every importer (issue 13, "Must hold"): a seeded generator writes, for every import format,
// a file of valid records and records made malformed or hostile (wrong types at every field, huge
// numbers, 1e309, -0, NaN-like strings, deep nesting, long strings, invalid UTF-8, BOMs, NUL bytes,
// __proto__ / constructor keys, duplicate keys, empty lists, other formats' records, lines up to and
// over the record cap), and the real `arbiter` CLI imports it. Properties:
// - no crash, no hang: every run exits 0 or 1 within its time bound, never on a signal or a stack trace;
// - every refused line is named (`FILE:LINE: reason`), and the summary accounts for every line;
// - all or nothing without --skip-invalid: a file with a refused line imports nothing;
// - no silent change: a record that imports keeps its values, checked through `arbiter export
//   --format arbiter` (the whole record for Arbiter items; prompt and responses for the pair formats).
// The same for `labels import` (its revisions, checked through `export --format labels`) and `rubric
// import`. FUZZ_SEED=<seed> writes the same files again; FUZZ_LINES=<n> changes the lines per format;
// FUZZ_FORMATS=<a,b> fuzzes only those import formats. The vision and GUI formats' templates hold tiny
// images (test/helpers/fuzzVision.ts); a valid line of theirs must import with exactly its images.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMPORT_FORMATS, type ImportFormat } from '../../shared/formatNames';
import { buildNodeSide, ROOT } from '../helpers/host';
import { fuzzImages, GROUPED_FORMATS, markRecord, storedHashes, visionTemplates, VISION_TEMPLATE_FORMATS } from '../helpers/fuzzVision';
import { damageBytes, hostileValue, paths, setAt, toJsonText } from '../helpers/hostile';
import { seededRng, seedFrom } from '../helpers/seeded';

const SEED = seedFrom('FUZZ_SEED');
const LINES = Number(process.env.FUZZ_LINES ?? 150);
/** FUZZ_FORMATS=a,b: only these import formats (and not the labels, rubric and whole-file cases), to chase one finding. */
const ONLY = process.env.FUZZ_FORMATS ? process.env.FUZZ_FORMATS.split(',').map((f) => f.trim()) : null;
/** The record cap the runs are given (ARBITER_RECORD_MAX_BYTES), small so that lines can reach it. */
const CAP = 256 * 1024;
/** How long one CLI run may take: past it, the case hangs. */
const RUN_LIMIT_MS = 30_000;
const rng = seededRng(SEED);

let work = '';
const failures: string[] = [];
const tally = { records: 0, runs: 0, refused: 0, imported: 0, checkedValues: 0, checkedImages: 0, labelLines: 0, rubricFiles: 0, wholeFiles: 0 };

const FIXTURE_FORMATS = ['arbiter', 'trl', 'trl-implicit', 'trl-chat', 'trl-chat-implicit', 'hh-rlhf', 'rewardbench', 'ultrafeedback', 'ultrafeedback-binarized', 'helpsteer2', 'helpsteer2-preference', 'helpsteer3', 'rar'] as const;
const MORE_TEMPLATES: Partial<Record<ImportFormat, unknown>> = {
  // Video lines name files the fuzz does not make: a line is kept with its video said missing, or refused with a sentence.
  'trl-video': { prompt: 'a red ball bouncing', chosen: [{ role: 'assistant', content: [{ type: 'video_url', video_url: { url: 'videos/a.mp4' } }] }], rejected: [{ role: 'assistant', content: [{ type: 'video_url', video_url: { url: 'videos/b.webm' } }] }] },
  'video-qa': { problem_id: 1, problem: 'Which way does the pattern move?', data_type: 'video', problem_type: 'multiple choice', options: ['A. left', 'B. right'], process: '<think>The bars shift.\n\nSo it moves right.</think>', solution: '<answer>B</answer>', path: 'videos/a.mp4', data_source: 'synthetic' },
  videofeedback: { id: '7000001', images: ['7000001_00.jpg'], 'text prompt': 'A corgi runs along a sunny beach.', 'video link': 'https://example.org/videos/a.mp4', 'visual quality': 3, 'temporal consistency': 2, 'dynamic degree': 3, 'text-to-video alignment': 4, 'factual consistency': 2, conversations: [{ from: 'human', value: 'Rate it.' }, { from: 'gpt', value: 'visual quality: 3' }] },
  'trl-unpaired': { prompt: 'Is 7 prime?', completion: ' Yes.', label: true },
  'trl-stepwise': { prompt: 'Which is larger, 9.8 or 9.11?', completions: ['The fractional part of 9.8 is 0.8.', 'Since 0.11 > 0.8, 9.11 is larger.'], labels: [true, false] },
  prm800k: {
    labeler: 'l1',
    timestamp: '2022-07-17T16:56:51',
    generation: null,
    is_quality_control_question: false,
    is_initial_screening_question: false,
    question: { problem: 'What is 2 + 3?', ground_truth_answer: '5', pre_generated_steps: ['2 + 3 = 5.', '# Answer\n\n5'] },
    label: { steps: [{ completions: [{ text: '2 + 3 = 5.', rating: 1, flagged: null }], human_completion: null, chosen_completion: 0 }, { completions: [{ text: '# Answer\n\n5', rating: 1, flagged: null }], human_completion: null, chosen_completion: 0 }], total_time: 1234, finish_reason: 'solution' },
  },
  'math-shepherd': { input: 'What is 2 + 3? Step 1: 2 + 3 = 5. ки\nStep 2: The answer is 5. ки', label: 'What is 2 + 3? Step 1: 2 + 3 = 5. +\nStep 2: The answer is 5. +', task: 'GSM8K' },
  processbench: { id: 'gsm8k-17', generator: 'm', problem: 'What is 2 + 3?', steps: ['2 + 3 = 6.', 'So 6.'], final_answer_correct: false, label: 0 },
};

/**
 * Formats whose input is not JSON Lines, so a mutated JSON record means nothing to them: a VideoAlign CSV (its
 * suite, test/integration/video-formats.test.ts, refuses a bad winner column) and a LeRobot dataset folder (its
 * damaged folders: test/integration/lerobot-damaged.test.ts).
 */
const NOT_JSON_LINES = new Set<string>(['videoalign', 'lerobot']);

/**
 * A valid record per format: from the table above, else the first record of the format's own fixture
 * (test/fixtures/formats[/<family>]/<format>.jsonl, .json or .traj). A format with neither is a failure:
 * a new format is fuzzed from the day it is listed.
 */
function templates(): Partial<Record<ImportFormat, unknown>> {
  const out: Partial<Record<ImportFormat, unknown>> = { ...MORE_TEMPLATES, ...vision.templates };
  for (const format of FIXTURE_FORMATS) out[format] = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/formats', `${format}.jsonl`), 'utf8').split('\n')[0]!);
  const base = join(ROOT, 'test/fixtures/formats');
  const folders = [base, ...readdirSync(base, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => join(base, d.name))];
  for (const format of IMPORT_FORMATS) {
    if (format in out || NOT_JSON_LINES.has(format)) continue;
    for (const folder of folders) {
      const name = ['jsonl', 'json', 'traj'].map((ext) => `${format}.${ext}`).find((n) => existsSync(join(folder, n)));
      if (!name) continue;
      const text = readFileSync(join(folder, name), 'utf8');
      const first: unknown = name.endsWith('.jsonl') ? JSON.parse(text.split('\n').find((l) => l.trim())!) : JSON.parse(text);
      out[format] = Array.isArray(first) ? first[0] : first;
      break;
    }
    if (!(format in out)) failures.push(`FUZZ_SEED=${SEED} import format ${format} has no template here and no fixture (test/fixtures/formats/…/${format}.jsonl): it is not fuzzed`);
  }
  return out;
}

/** The text a record's values must keep through an import and an export (null: not checked). */
function keptValues(format: ImportFormat, record: Record<string, unknown>): { prompt?: unknown; responses?: string[]; whole?: boolean } | null {
  const strings = (...values: unknown[]) => (values.every((v) => typeof v === 'string') ? (values as string[]) : null);
  switch (format) {
    case 'arbiter':
      return { whole: true };
    case 'trl':
    case 'rewardbench': {
      const responses = strings(record.chosen, record.rejected);
      return typeof record.prompt === 'string' && responses ? { prompt: record.prompt, responses } : null;
    }
    case 'trl-unpaired': {
      const responses = strings(record.completion);
      return typeof record.prompt === 'string' && responses ? { prompt: record.prompt, responses } : null;
    }
    case 'helpsteer2-preference': {
      const responses = strings(record.response_1, record.response_2);
      return typeof record.prompt === 'string' && responses ? { prompt: record.prompt, responses } : null;
    }
    default:
      return null;
  }
}

/** Formats where each line is one item (helpsteer2 rows and trajectory events group lines into items). */
const ONE_ITEM_PER_LINE = new Set<string>(
  IMPORT_FORMATS.filter((f) => FIXTURE_FORMATS.includes(f as never) || f in MORE_TEMPLATES || VISION_TEMPLATE_FORMATS.includes(f)).filter((f) => f !== 'helpsteer2' && !GROUPED_FORMATS.has(f)),
);

/** The vision and GUI templates (test/helpers/fuzzVision.ts), their images written beside the fuzzed files. */
let vision: ReturnType<typeof visionTemplates>;

interface Case {
  line: number;
  bytes: Buffer;
  what: string;
  /** The record as JSON.parse reads the line, when it does. */
  parsed: unknown;
}

/** One line: the template, a valid variant, or a malformed / hostile one. */
function makeCase(format: ImportFormat, template: unknown, others: unknown[], line: number): Case {
  const marker = `[case ${line}]`;
  // Every record gets a marker where it has a prompt-like string, so that records differ (no duplicates).
  let record = markRecord(format, template, marker, line) ?? template;
  for (const key of record === template ? ['prompt', 'instruction', 'question', 'problem', 'input'] : []) {
    const value = (template as Record<string, unknown>)[key];
    if (typeof value === 'string') {
      record = setAt(record, [key], `${value} ${marker}`);
      if (format === 'math-shepherd') record = setAt(record, ['label'], `${(template as Record<string, string>).label!.replace(/^(.*?)( Step 1)/, `$1 ${marker}$2`)}`);
      break;
    }
  }
  if (format === 'arbiter') record = setAt(record, ['id'], `fz-${line}`);
  if (format === 'trl-implicit' || format === 'hh-rlhf' || format === 'trl-chat-implicit' || format === 'helpsteer3' || format === 'prm800k') {
    // No top-level prompt string: vary a response instead.
    const key = format === 'helpsteer3' ? 'response1' : format === 'prm800k' ? 'labeler' : 'chosen';
    const value = (record as Record<string, unknown>)[key];
    record = setAt(record, [key], typeof value === 'string' ? `${value} ${marker}` : [...(value as unknown[]), { role: 'assistant', content: marker }]);
  }
  let what = 'valid';
  const roll = rng();
  if (roll < 0.2) {
    // valid as it is
  } else if (roll < 0.75) {
    const n = 1 + rng.int(3);
    const done: string[] = [];
    for (let i = 0; i < n; i++) {
      const all = paths(record);
      // Arbiter items keep their metadata as it is: hostile keys and values go there often.
      const path = format === 'arbiter' && rng.chance(0.35) ? ['metadata', rng.pick(['k', '__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', 'n'])] : rng.pick(all);
      const where = path.length ? path.join('.') : '(the record)';
      if (path.length && rng.chance(0.2)) {
        record = setAt(record, path, undefined, true);
        done.push(`${where} removed`);
      } else {
        const value = hostileValue(rng, Math.min(CAP / 4, 50_000));
        record = setAt(record, path, value);
        done.push(`${where} = ${value.name}`);
      }
    }
    what = done.join('; ');
  } else if (roll < 0.8) {
    record = rng.pick(others);
    what = 'a record of another format';
  }
  let bytes: Buffer = Buffer.from(toJsonText(record));
  if (roll >= 0.8) {
    const damage = damageBytes(rng, bytes, CAP);
    bytes = damage.bytes;
    what = damage.name;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    parsed = undefined;
  }
  return { line, bytes, what, parsed };
}

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
  timedOut: boolean;
}

function arbiter(db: string, args: string[]): Promise<Run> {
  const started = performance.now();
  const child = spawn(process.execPath, [join(ROOT, 'bin/arbiter.mjs'), ...args, '--db', db], {
    env: { ...process.env, ARBITER_NO_DEMO: '1', ARBITER_RECORD_MAX_BYTES: String(CAP) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, RUN_LIMIT_MS);
  tally.runs++;
  return new Promise((resolve) =>
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, ms: performance.now() - started, timedOut });
    }),
  );
}

/** A JavaScript engine's TypeError text, which a person cannot act on: a parser met a value it did not check. */
const ENGINE_ERROR = /Cannot convert object to primitive value|Cannot convert a Symbol|Cannot convert undefined or null to object|Cannot read properties of|Cannot set properties of|is not a function|is not iterable/;

/** No crash, no hang, no stack trace: the properties every run must have. */
function ranCleanly(run: Run, where: string): boolean {
  if (run.timedOut) failures.push(`FUZZ_SEED=${SEED} ${where}: no answer within ${RUN_LIMIT_MS / 1000} s (a hang)`);
  else if (run.signal) failures.push(`FUZZ_SEED=${SEED} ${where}: the process died on ${run.signal}\n${run.stderr.slice(-1500)}`);
  else if (run.code !== 0 && run.code !== 1) failures.push(`FUZZ_SEED=${SEED} ${where}: exit code ${run.code} (a crash)\n${run.stderr.slice(-1500)}`);
  else if (/^\s+at .+[(:]\d+/m.test(run.stderr) || /Maximum call stack|Cannot create a string longer|FATAL ERROR|heap out of memory/.test(run.stderr) || ENGINE_ERROR.test(run.stderr))
    failures.push(`FUZZ_SEED=${SEED} ${where}: a stack trace or an engine error instead of a sentence:\n${run.stderr.slice(0, 1500)}`);
  else return true;
  return false;
}

/** `FILE:LINE: reason` lines on stderr, by line number. */
function reportedLines(stderr: string, file: string): Map<number, string> {
  const out = new Map<number, string>();
  for (const text of stderr.split('\n')) {
    if (!text.startsWith(`${file}:`)) continue;
    const match = text.slice(file.length + 1).match(/^(\d+): (.*)$/);
    if (match) out.set(Number(match[1]), match[2]!);
  }
  return out;
}

/** JSON with sorted keys, where 1e309 (Infinity) is not written as null, so that turning it into null shows. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_k, v: unknown) => {
    if (typeof v === 'number' && !Number.isFinite(v)) return `<non-finite number ${v}>`;
    return v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as object).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v;
  });

/** Whether an exported item has the prompt and responses of a record (the item's uid is made of them). */
function sameContent(exported: Record<string, unknown>, record: Record<string, unknown>): boolean {
  const texts = (r: Record<string, unknown>) => canonical(Array.isArray(r.responses) ? r.responses.map((x: { text?: unknown }) => x?.text) : null);
  return canonical(exported.prompt) === canonical(record.prompt) && texts(exported) === texts(record);
}

/** The arbiter record an item's export should equal, from an Arbiter items record that imported. */
function expectedArbiter(record: Record<string, unknown>): string {
  // An absent model, reference, steps or metadata is written as nothing; null and "" models the same.
  const responses = Array.isArray(record.responses)
    ? record.responses.map((r: unknown) => {
        if (!r || typeof r !== 'object') return r;
        const copy = { ...(r as Record<string, unknown>) };
        if (copy.model === null || copy.model === '') delete copy.model;
        if (copy.steps === null) delete copy.steps;
        return copy;
      })
    : record.responses;
  const out: Record<string, unknown> = { id: record.id, prompt: record.prompt, responses };
  if (record.reference !== undefined && record.reference !== null) out.reference = record.reference;
  if (record.metadata !== undefined && record.metadata !== null && !(typeof record.metadata === 'object' && Object.keys(record.metadata as object).length === 0)) out.metadata = record.metadata;
  return canonical(out);
}

async function fuzzFormat(format: ImportFormat, template: unknown, others: unknown[]): Promise<void> {
  const db = join(work, `${format}.db`);
  const cases = Array.from({ length: LINES }, (_, i) => makeCase(format, template, others, i + 1));
  tally.records += cases.length;
  const file = join(work, `${format}.jsonl`);
  writeFileSync(file, Buffer.concat(cases.flatMap((c) => [c.bytes, Buffer.from('\n')])));
  const where = (c?: Case) => `${format}${c ? ` line ${c.line} (${c.what})` : ''} [${file}]`;

  // All or nothing: without --skip-invalid, a refused line means nothing is imported.
  // Half the time the format is told, half the time detected from the hostile file itself.
  const strict = await arbiter(db, ['import', file, '--project', 'strict', '--format', rng.chance(0.5) ? format : 'auto']);
  if (ranCleanly(strict, `${where()} import`)) {
    const named = reportedLines(strict.stderr, file);
    if (strict.code === 1 && named.size === 0 && !/arbiter import: /.test(strict.stderr)) failures.push(`FUZZ_SEED=${SEED} ${where()}: import refused the file without a sentence: ${strict.stderr.slice(0, 500)}`);
    if (strict.code === 1) {
      const listed = await arbiter(db, ['projects', '--json']);
      if (ranCleanly(listed, `${where()} projects`) && (JSON.parse(listed.stdout || '[]') as { name: string; items: number }[]).some((p) => p.name === 'strict' && p.items > 0))
        failures.push(`FUZZ_SEED=${SEED} ${where()}: the refused import left items in project "strict"`);
    }
  }

  const lenient = await arbiter(db, ['import', file, '--project', 'fz', '--format', format, '--skip-invalid']);
  if (!ranCleanly(lenient, `${where()} import --skip-invalid`)) return;
  if (lenient.code !== 0) {
    // A refusal of the whole file must be a sentence (a record over the cap stops the import, with its line).
    const named = reportedLines(lenient.stderr, file);
    if (!/arbiter import: .+/.test(lenient.stderr) && named.size === 0) failures.push(`FUZZ_SEED=${SEED} ${where()}: --skip-invalid import failed without a sentence: ${lenient.stderr.slice(0, 500)}`);
    return;
  }
  const summary = JSON.parse(lenient.stdout.trim().split('\n').pop()!) as { lines: number; items: number; duplicates: number; rejected: number };
  const refused = reportedLines(lenient.stderr, file);
  tally.refused += refused.size;
  tally.imported += summary.items;
  for (const [line, reason] of refused) {
    if (line < 1 || line > LINES) failures.push(`FUZZ_SEED=${SEED} ${where()}: a refusal names line ${line}, outside the file's ${LINES} lines`);
    if (!/\w{3,}/.test(reason.replace(/\(skipped\)$/, ''))) failures.push(`FUZZ_SEED=${SEED} ${where(cases[line - 1])}: refused with no reason: "${reason}"`);
  }
  if (summary.rejected !== refused.size) failures.push(`FUZZ_SEED=${SEED} ${where()}: the summary says ${summary.rejected} rejected, stderr names ${refused.size} lines`);
  if (ONE_ITEM_PER_LINE.has(format) && summary.items + summary.duplicates + summary.rejected !== LINES)
    failures.push(`FUZZ_SEED=${SEED} ${where()}: ${LINES} lines, but ${summary.items} items + ${summary.duplicates} duplicates + ${summary.rejected} rejected (lines unaccounted for)`);
  for (const c of cases) {
    if (c.parsed === undefined && !refused.has(c.line) && !/BOM/.test(c.what)) failures.push(`FUZZ_SEED=${SEED} ${where(c)}: a line that is not valid JSON / UTF-8 was imported, not refused`);
  }

  // No silent change: what imported keeps its values through an export.
  const out = join(work, `${format}.export.jsonl`);
  const exported = await arbiter(db, ['export', '--project', 'fz', '--format', 'arbiter', '--out', out]);
  if (!ranCleanly(exported, `${where()} export`)) return;
  if (exported.code !== 0) {
    if (summary.items > 0) failures.push(`FUZZ_SEED=${SEED} ${where()}: export of the imported items failed: ${exported.stderr.slice(0, 500)}`);
    return;
  }
  const records = readFileSync(out, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { id?: string; prompt: unknown; responses: { text: unknown }[] });
  // Items may share an external id (two lines of the file may say the same id): every item with it.
  const byId = new Map<string | undefined, (typeof records)[number][]>();
  for (const r of records) byId.set(r.id, [...(byId.get(r.id) ?? []), r]);
  const byPrompt = new Map<string, (typeof records)[number][]>();
  for (const r of records) byPrompt.set(canonical(r.prompt), [...(byPrompt.get(canonical(r.prompt)) ?? []), r]);
  for (const c of cases) {
    if (refused.has(c.line) || !c.parsed || typeof c.parsed !== 'object' || Array.isArray(c.parsed)) continue;
    const kept = keptValues(format, c.parsed as Record<string, unknown>);
    if (!kept) continue;
    tally.checkedValues++;
    if (kept.whole) {
      const record = c.parsed as Record<string, unknown>;
      if (typeof record.id !== 'string' || record.id.trim() === '') continue;
      const got = byId.get(record.id) ?? [];
      // The same prompt and responses as an earlier line: a duplicate (counted in the summary), not an item.
      if (!got.length && records.some((r) => sameContent(r, record))) continue;
      if (!got.length) failures.push(`FUZZ_SEED=${SEED} ${where(c)}: imported (not refused) but item ${record.id} is not in the export`);
      else if (!got.some((g) => canonical(g) === expectedArbiter(record)))
        failures.push(`FUZZ_SEED=${SEED} ${where(c)}: imported with values changed (silent change):\n  file:   ${expectedArbiter(record).slice(0, 400)}\n  export: ${canonical(got[0]).slice(0, 400)}`);
      continue;
    }
    const matches = byPrompt.get(canonical(kept.prompt)) ?? [];
    const texts = (r: (typeof records)[number]) => r.responses.map((x) => x.text);
    if (!matches.some((r) => kept.responses!.every((t) => texts(r).includes(t))))
      failures.push(
        `FUZZ_SEED=${SEED} ${where(c)}: imported, but no exported item has its prompt and responses as they were (silent change): prompt ${JSON.stringify(kept.prompt).slice(0, 120)}, responses ${JSON.stringify(kept.responses).slice(0, 200)}${matches[0] ? `; exported as ${JSON.stringify(texts(matches[0])).slice(0, 200)}` : ''}`,
      );
  }
  if (format in vision.hashes) checkImages(format, cases, refused, records, where);
}

/**
 * Vision and GUI formats: a line left valid imports (it is not refused), and its item holds exactly the
 * template's images, stored under their own sha256 (the bytes the file held, not a copy changed on the way).
 */
function checkImages(format: ImportFormat, cases: Case[], refused: Map<number, string>, records: unknown[], where: (c?: Case) => string): void {
  const expected = [...vision.hashes[format]!].sort();
  const texts = records.map((r) => JSON.stringify(r));
  for (const c of cases) {
    if (c.what !== 'valid') continue;
    if (refused.has(c.line)) {
      failures.push(`FUZZ_SEED=${SEED} ${where(c)}: a valid line was refused: ${refused.get(c.line)}`);
      continue;
    }
    tally.checkedImages++;
    const item = texts.find((t) => t.includes(`[case ${c.line}]`));
    if (!item) failures.push(`FUZZ_SEED=${SEED} ${where(c)}: a valid line imported, but no exported item holds its text`);
    else if (storedHashes(item).join() !== expected.join())
      failures.push(`FUZZ_SEED=${SEED} ${where(c)}: its item's images are ${storedHashes(item).join(', ') || 'none'}, the file's ${expected.join(', ')} (an image lost or changed)`);
  }
}

/** Label revisions, one hostile field each, in files of ten good lines and one bad. */
async function fuzzLabels(): Promise<void> {
  const db = join(work, 'labels.db');
  const items = Array.from({ length: 5 }, (_, i) => JSON.stringify({ id: `L${i}`, prompt: `Q${i}`, responses: [{ text: 'a' }, { text: 'b' }, { text: 'c' }] })).join('\n');
  writeFileSync(join(work, 'labels-items.jsonl'), `${items}\n`);
  const setup = await arbiter(db, ['import', join(work, 'labels-items.jsonl'), '--project', 'lab']);
  if (!ranCleanly(setup, 'labels setup') || setup.code !== 0) {
    failures.push(`FUZZ_SEED=${SEED} labels setup failed: ${setup.stderr}`);
    return;
  }
  const good = () => ({
    id: rng.uuid(),
    item: `L${rng.int(5)}`,
    annotator: rng.pick(['ann', 'ben']),
    task: 'pairwise',
    choice: rng.pick(['A', 'B', 'tie']),
    strength: 1 + rng.int(3),
    shown_order: [1, 0, 2],
    rationale: 'because',
    created_at: new Date(Date.UTC(2026, 0, 1) + rng.int(1e9)).toISOString(),
  });
  for (let f = 0; f < 24; f++) {
    const lines: Buffer[] = [];
    const bad = rng.int(11);
    let what = '';
    let badRecord: Record<string, unknown> | null = null;
    for (let i = 0; i < 11; i++) {
      let record: Record<string, unknown> = good();
      if (i === bad && f === 0) {
        // The first file, whatever the seed: a revision id with a lone surrogate escape.
        record = { ...record, id: { raw: '"lone \\ud800 id"', name: 'a lone surrogate escape' } };
        what = 'id = a lone surrogate escape';
        badRecord = record;
      } else if (i === bad) {
        if (rng.chance(0.25)) {
          const damage = damageBytes(rng, Buffer.from(JSON.stringify(record)), CAP);
          lines.push(damage.bytes);
          what = damage.name;
          // A BOM that opens the file is how some editors save UTF-8, and every importer takes it: the
          // line must then merge with its values as they were, like any good line.
          if (i === 0 && damage.name === 'a UTF-8 BOM before the record') badRecord = record;
          continue;
        }
        const key = rng.pick(['id', 'item', 'annotator', 'task', 'choice', 'strength', 'shown_order', 'rationale', 'created_at', 'ranking', 'steps', 'first_error', 'ratings', 'rubric_version', 'time_ms', 'prelabel_visible', 'verdict', 'critique']);
        const value = hostileValue(rng, 20_000);
        record = { ...record, [key]: value };
        what = `${key} = ${value.name}`;
        badRecord = record;
      }
      lines.push(Buffer.from(toJsonText(record)));
    }
    tally.labelLines += lines.length;
    const file = join(work, `labels-${f}.jsonl`);
    writeFileSync(file, Buffer.concat(lines.flatMap((l) => [l, Buffer.from('\n')])));
    const where = `labels import file ${f} line ${bad + 1} (${what}) [${file}]`;
    const run = await arbiter(db, ['labels', 'import', file, '--project', 'lab']);
    if (!ranCleanly(run, where)) continue;
    if (run.code === 1) {
      if (!new RegExp(`:${bad + 1}\\b|line ${bad + 1}\\b`).test(run.stderr)) failures.push(`FUZZ_SEED=${SEED} ${where}: refused without naming line ${bad + 1}: ${run.stderr.slice(0, 400)}`);
      continue;
    }
    // Merged: the hostile line's values must be there as they were, or the line reported as naming an
    // item this project lacks (the rest merges).
    const merged = JSON.parse(run.stdout.trim().split('\n').pop() || '{}') as { unmatchedItems?: { line: number }[] };
    if (merged.unmatchedItems?.some((u) => u.line === bad + 1)) continue;
    if (!badRecord) {
      failures.push(`FUZZ_SEED=${SEED} ${where}: a damaged line was merged, not refused`);
      continue;
    }
    const out = join(work, `labels-${f}.export.jsonl`);
    const exported = await arbiter(db, ['export', '--project', 'lab', '--format', 'labels', '--out', out]);
    if (!ranCleanly(exported, `${where} export`) || exported.code !== 0) continue;
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(toJsonText(badRecord)) as Record<string, unknown>;
    } catch {
      failures.push(`FUZZ_SEED=${SEED} ${where}: a line that is not JSON was merged`);
      continue;
    }
    const got = readFileSync(out, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>).find((r) => r.id === parsed.id);
    if (!got) {
      failures.push(`FUZZ_SEED=${SEED} ${where}: merged (exit 0), but no revision with id ${JSON.stringify(parsed.id)} is in the labels export (stored under another id: silent change)`);
      continue;
    }
    for (const key of ['choice', 'strength', 'shown_order', 'rationale', 'ranking', 'steps', 'first_error', 'ratings', 'rubric_version', 'time_ms', 'prelabel_visible'])
      if (key in parsed && canonical(parsed[key]) !== canonical(got[key]) && !(parsed[key] === null && got[key] === undefined))
        failures.push(`FUZZ_SEED=${SEED} ${where}: merged with ${key} changed (silent change): file ${canonical(parsed[key]).slice(0, 120)}, export ${canonical(got[key]).slice(0, 120)}`);
  }
}

/** Rubric files with one hostile field. */
async function fuzzRubrics(): Promise<void> {
  const db = join(work, 'labels.db');
  const template = { name: 'default', criteria: [{ key: 'correctness', description: 'Is it right?', scale: { type: 'likert', min: 1, max: 5 }, weight: 2 }, { key: 'safe', description: 'Harmless', scale: { type: 'binary' } }] };
  for (let f = 0; f < 12; f++) {
    // The first file, whatever the seed: a description nested thousands of levels deep.
    const path = f === 0 ? ['criteria', 0, 'description'] : rng.pick(paths(template));
    const value = f === 0 ? { raw: `${'['.repeat(5000)}${']'.repeat(5000)}`, name: 'deeply nested lists' } : hostileValue(rng, 20_000);
    let bytes: Buffer = Buffer.from(toJsonText(setAt(template, path, value)));
    let what = `${path.join('.') || '(the file)'} = ${value.name}`;
    if (f > 0 && rng.chance(0.3)) {
      const damage = damageBytes(rng, bytes, CAP);
      bytes = damage.bytes;
      what = damage.name;
    }
    tally.rubricFiles++;
    const file = join(work, `rubric-${f}.json`);
    writeFileSync(file, bytes);
    const run = await arbiter(db, ['rubric', 'import', file, '--project', 'lab']);
    if (ranCleanly(run, `rubric import file ${f} (${what}) [${file}]`) && run.code === 1 && !/arbiter rubric.*: .{10,}|rubric.*:\d+/.test(run.stderr))
      failures.push(`FUZZ_SEED=${SEED} rubric import file ${f} (${what}): refused without a sentence: ${run.stderr.slice(0, 300)}`);
  }
}

/** Whole files that are broken as files: a cut gzip, a BOM alone, an empty file, a cut JSON array. */
async function fuzzWholeFiles(): Promise<void> {
  const db = join(work, 'whole.db');
  const lines = `${Array.from({ length: 200 }, (_, i) => JSON.stringify({ prompt: `p${i}`, chosen: 'c', rejected: 'r' })).join('\n')}\n`;
  const gz = gzipSync(lines);
  const files: [string, Buffer][] = [
    ['cut.jsonl.gz', gz.subarray(0, Math.floor(gz.length / 2))],
    ['garbage.jsonl.gz', Buffer.from('not gzip at all')],
    ['bom-only.jsonl', Buffer.from([0xef, 0xbb, 0xbf])],
    ['empty.jsonl', Buffer.alloc(0)],
    ['cut.json', Buffer.from(`[${lines.trim().split('\n').join(',').slice(0, 500)}`)],
    ['hostile.json', Buffer.from(`[${toJsonText({ prompt: hostileValue(rng, 1000), chosen: 'c', rejected: 'r' })}, 1e309, null, ${'['.repeat(5000)}${']'.repeat(5000)}]`)],
    ['utf16.jsonl', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(lines.slice(0, 300), 'utf16le')])],
    ['not.parquet', Buffer.from('PAR1 but not really PAR1')],
    ['nul.jsonl', Buffer.alloc(4096)],
    ['over-cap.jsonl', Buffer.from(`${lines.split('\n').slice(0, 3).join('\n')}\n${JSON.stringify({ prompt: 'x'.repeat(CAP + 1), chosen: 'c', rejected: 'r' })}\n${lines}`)],
  ];
  for (const [name, bytes] of files) {
    const file = join(work, name);
    writeFileSync(file, bytes);
    tally.wholeFiles++;
    const run = await arbiter(db, ['import', file, '--project', `w-${name.replace(/\W/g, '-')}`, ...(rng.chance(0.5) ? ['--skip-invalid'] : [])]);
    if (!ranCleanly(run, `whole file ${name}`)) continue;
    if (run.code === 1 && !/arbiter import: .{10,}|:\d+: /.test(run.stderr)) failures.push(`FUZZ_SEED=${SEED} whole file ${name}: refused without a sentence: ${run.stderr.slice(0, 300)}`);
    if (name === 'over-cap.jsonl' && !run.stderr.includes(`${file}:4:`)) failures.push(`FUZZ_SEED=${SEED} whole file ${name}: line 4, over the ${CAP}-byte record cap, is not named (exit ${run.code}): ${run.stderr.slice(0, 300)}`);
  }
}

/**
 * Fixed cases every run makes, whatever the seed: hostile values that once changed silently. A line is
 * refused with its number, or imports and exports as it was.
 */
async function fuzzFixedCases(): Promise<void> {
  const db = join(work, 'fixed.db');
  const cases = [
    { id: 'f1', prompt: { raw: '"lone \\ud800 surrogate"', name: 'a lone surrogate' }, responses: [{ text: 'a' }, { text: 'b' }] },
    { id: 'f2', prompt: 'P2', responses: [{ text: { raw: '"\\udc00 low half"', name: 'a lone low surrogate' } }, { text: 'b' }] },
    { id: 'f6', prompt: 'P6', responses: [{ text: 'a', model: { raw: '"m \\ud800"', name: 'a lone surrogate' } }, { text: 'b' }], reference: { raw: '"r \\udbff"', name: 'a lone surrogate' } },
    { id: 'f3', prompt: 'P3', responses: [{ text: 'a' }, { text: 'b' }], metadata: { big: { raw: '1e309', name: '1e309' } } },
    { id: 'f4', prompt: 'P4', responses: [{ text: 'a' }, { text: 'b' }], metadata: { raw: '{"__proto__":{"x":1},"constructor":2,"toString":3,"valueOf":4,"hasOwnProperty":5}', name: 'prototype keys' } },
    { id: 'f5', prompt: 'P5', responses: [{ text: 'a' }, { text: 'b' }], metadata: { n: { raw: '-0', name: '-0' }, s: 'x\u0000y' } },
  ];
  const file = join(work, 'fixed.jsonl');
  const texts = cases.map((c) => toJsonText(c));
  writeFileSync(file, `${texts.join('\n')}\n`);
  tally.records += cases.length;
  const run = await arbiter(db, ['import', file, '--project', 'fixed', '--format', 'arbiter', '--skip-invalid']);
  if (!ranCleanly(run, 'fixed cases import') || run.code !== 0) {
    if (run.code !== 0) failures.push(`FUZZ_SEED=${SEED} fixed cases: the import failed: ${run.stderr.slice(0, 300)}`);
    return;
  }
  const refused = reportedLines(run.stderr, file);
  const out = join(work, 'fixed.export.jsonl');
  const exported = await arbiter(db, ['export', '--project', 'fixed', '--format', 'arbiter', '--out', out]);
  if (!ranCleanly(exported, 'fixed cases export')) return;
  const byId = new Map(readFileSync(out, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>).map((r) => [r.id, r]));
  texts.forEach((text, i) => {
    if (refused.has(i + 1)) return;
    tally.checkedValues++;
    const record = JSON.parse(text) as Record<string, unknown>;
    const got = byId.get(record.id);
    if (!got || canonical(got) !== expectedArbiter(record))
      failures.push(`FUZZ_SEED=${SEED} fixed case line ${i + 1} (${cases[i]!.id}): imported with values changed (silent change):\n  file:   ${expectedArbiter(record)}\n  export: ${got ? canonical(got) : '(missing)'}`);
  });
}

beforeAll(async () => {
  buildNodeSide();
  work = mkdtempSync(join(tmpdir(), 'arbiter-fuzz-import-'));
  vision = visionTemplates(work, await fuzzImages(), ROOT);
});

afterAll(() => {
  if (work && !process.env.FUZZ_KEEP) rmSync(work, { recursive: true, force: true });
});

describe('fuzzing every importer', () => {
  it('never crashes or hangs, names every refused line, and changes nothing it imports', async () => {
    console.log(`fuzz-import seed ${SEED} (FUZZ_SEED=${SEED} writes the same files; FUZZ_KEEP=1 keeps them in ${work})`);
    const started = performance.now();
    const all = templates();
    const list = Object.values(all);
    for (const format of IMPORT_FORMATS) if (format in all && (!ONLY || ONLY.includes(format))) await fuzzFormat(format, all[format], list);
    if (!ONLY) {
      await fuzzLabels();
      await fuzzRubrics();
      await fuzzWholeFiles();
      await fuzzFixedCases();
    }
    console.log(
      `fuzz-import seed ${SEED}: ${tally.records} records in ${IMPORT_FORMATS.length} formats (${tally.imported} items imported, ${tally.refused} lines refused, ${tally.checkedValues} records' values and ${tally.checkedImages} records' images checked through an export), ` +
        `${tally.labelLines} label lines, ${tally.rubricFiles} rubric files, ${tally.wholeFiles} broken files; ${tally.runs} CLI runs in ${((performance.now() - started) / 1000).toFixed(0)} s; ${failures.length} failures`,
    );
    expect(failures, failures.join('\n')).toEqual([]);
  }, 300_000);
});
