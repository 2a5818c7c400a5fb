// Agent traces from where teams keep them (issue 21, section 5), through the real CLI on real SQLite files.
// Each fixture in test/fixtures/formats/traces/ is written by hand from its source's documentation
// (test/fixtures/formats/traces/README.md names each source and section). Each is detected from its first
// records, imported (turns, tool names, agents), exported back to its own format record for record, and the
// export imported again gives the same items (same uid) with the same turn ids.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../electron/cli/main';
import { openDb } from '../../electron/core/store/db';
import { trajectoryTurns, type TrajectoryMessage } from '../../shared/trajectory';

const FIXTURES = join(__dirname, '../fixtures/formats/traces');

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-traces-'));
});
afterEach(() => {
  delete process.env.ARBITER_RECORD_MAX_BYTES;
  rmSync(dir, { recursive: true, force: true });
});

async function cli(args: string[], db: string) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli([...args, '--db', join(dir, db)], { out: (l) => out.push(l), err: (l) => err.push(l), ask: async () => 'no' });
  return { code, out, err };
}

async function importFile(path: string, db: string) {
  const run = await cli(['import', path, '--project', 'p'], db);
  expect(run.code, run.err.join('\n')).toBe(0);
  return JSON.parse(run.out[run.out.length - 1]!) as { format: string; items: number; invalid?: number };
}

async function exportAs(format: string, db: string, ext: string) {
  const out = join(dir, `out-${format}.${ext}`);
  const run = await cli(['export', '--project', 'p', '--format', format, '--out', out], db);
  expect(run.code, run.err.join('\n')).toBe(0);
  return out;
}

const lines = (path: string) => readFileSync(path, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as unknown);

/** Each item's uid, external id, and per response the turns (id, tool names, agent, error). */
function stored(db: string) {
  const d = openDb(join(dir, db));
  try {
    const items = d.prepare('SELECT id, uid, external_id FROM item ORDER BY seq').all() as { id: number; uid: string; external_id: string | null }[];
    return items.map((item) => ({
      uid: item.uid,
      externalId: item.external_id,
      runs: (d.prepare('SELECT content FROM response WHERE item_id = ? ORDER BY idx').pluck().all(item.id) as string[]).map((c) =>
        trajectoryTurns(JSON.parse(c) as TrajectoryMessage[]).map((t) => ({ id: t.id, tools: t.calls.map((k) => k.name), agent: t.agent, error: t.error })),
      ),
    }));
  } finally {
    d.close();
  }
}

/** Imports a fixture, checks its format, exports it back (the same records), re-imports the export: the same items and turn ids. */
async function roundTrip(name: string, format: string) {
  const path = join(dir, name);
  copyFileSync(join(FIXTURES, name), path);
  const summary = await importFile(path, 'a.db');
  expect(summary.format).toBe(format);
  const first = stored('a.db');
  const ext = name.split('.').pop()!;
  const back = await exportAs(format, 'a.db', ext);
  expect(lines(back)).toEqual(lines(path));
  expect((await importFile(back, 'b.db')).format).toBe(format);
  expect(stored('b.db')).toEqual(first);
  return first;
}

describe('trace formats: detect, import, export back, re-import the same', () => {
  it('anthropic-messages: tool_use / tool_result / thinking blocks, a failed tool result, text between calls', async () => {
    const items = await roundTrip('anthropic-messages.jsonl', 'anthropic-messages');
    expect(items).toHaveLength(2);
    expect(items.map((i) => i.runs[0]!.map((t) => t.tools))).toEqual([[['get_weather'], []], [['get_weather', 'get_time'], ['get_time'], []]]);
    expect(items[1]!.runs[0]!.map((t) => t.error)).toEqual([true, false, false]);
  });

  it('claude-code: one session file is one item; turn ids are the lines’ uuids; the subagent’s turns keep its name', async () => {
    const items = await roundTrip('claude-code.jsonl', 'claude-code');
    expect(items).toHaveLength(1);
    expect(items[0]!.externalId).toBe('5b1f6a52-9a57-4c43-9f0e-2f8f2c0a1e11');
    const turns = items[0]!.runs[0]!;
    expect(turns.map((t) => t.tools)).toEqual([['Read'], ['Bash'], ['Edit'], []]);
    expect(turns.map((t) => t.agent)).toEqual([null, 'test-runner', null, null]);
    expect(turns.map((t) => t.id)).toEqual(['2', '4', '6', '7'].map((n) => `c3a1e0f2-000${n}-4000-8000-00000000000${n}`));
    expect(turns[1]!.error).toBe(true);
  });

  it('inspect-ai: the epochs of one sample are one item; tool calls by name; message ids are turn ids', async () => {
    const items = await roundTrip('inspect-ai.jsonl', 'inspect-ai');
    expect(items.map((i) => [i.externalId, i.runs.length])).toEqual([
      ['ctf-1', 2],
      ['2', 1],
    ]);
    expect(items[0]!.runs.map((r) => r.map((t) => [t.id, t.tools, t.error]))).toEqual([
      [
        ['Mast1', ['bash'], false],
        ['Mast2', [], false],
      ],
      [
        ['Mast3', ['bash'], true],
        ['Mast4', [], false],
      ],
    ]);
    const d = openDb(join(dir, 'a.db'));
    const outcomes = d.prepare("SELECT l.body FROM label l JOIN annotator a ON a.id = l.annotator_id WHERE a.kind = 'source' AND l.task = 'steps' ORDER BY l.item_id").pluck().all() as string[];
    d.close();
    expect(outcomes.map((b) => (JSON.parse(b) as { outcome: unknown }).outcome)).toEqual([{ A: 'success', B: 'failure' }, { A: 'success' }]);
  });

  it('otel-genai: one OTLP trace is one item; the chat spans are the turns, each with its agent and its span id', async () => {
    const items = await roundTrip('otel-genai.jsonl', 'otel-genai');
    expect(items).toHaveLength(1);
    expect(items[0]!.externalId).toBe('5b8efff798038103d269b633813fc60c');
    expect(items[0]!.runs[0]!.map((t) => [t.id, t.tools, t.agent])).toEqual([
      ['a1b2c3d4e5f60002', ['get_weather'], 'planner'],
      ['a1b2c3d4e5f60005', [], 'weather'],
    ]);
  });

  it('langfuse: one trace is one item; the generations are the turns, each with its AGENT observation and its id', async () => {
    const items = await roundTrip('langfuse.jsonl', 'langfuse');
    expect(items.map((i) => i.externalId)).toEqual(['trace-7f3a9c2e']);
    expect(items[0]!.runs[0]!.map((t) => [t.id, t.tools, t.agent])).toEqual([
      ['obs-gen-1', ['lookup_order'], 'triage'],
      ['obs-gen-2', [], 'orders'],
    ]);
  });

  it('langsmith: one run tree is one item; the llm runs are the turns, each with its LangGraph node and its run id', async () => {
    const items = await roundTrip('langsmith.jsonl', 'langsmith');
    expect(items.map((i) => i.externalId)).toEqual(['1f0a6b4e-9c51-4a8e-b1d2-3c4d5e6f7a80']);
    expect(items[0]!.runs[0]!.map((t) => [t.id, t.tools, t.agent])).toEqual([
      ['7a1c0d2e-0001-4000-8000-000000000001', ['tavily_search'], 'researcher'],
      ['7a1c0d2e-0003-4000-8000-000000000003', [], 'writer'],
    ]);
  });

  it('codex-cli: one rollout file is one item; each function_call a turn, a failed command an error; ids stable on re-import', async () => {
    const items = await roundTrip('codex-cli.jsonl', 'codex-cli');
    expect(items.map((i) => i.externalId)).toEqual(['0199a2d7-41c4-78b1-b7cc-a45d62a89cd5']);
    const turns = items[0]!.runs[0]!;
    expect(turns.map((t) => [t.tools, t.error])).toEqual([
      [['shell'], false],
      [['shell'], true],
      [['apply_patch'], false],
      [[], false],
    ]);
  });

  it('mcp: a JSON-RPC transcript is one item; each tools/call a turn (its request id the turn id), isError and JSON-RPC errors failed', async () => {
    const items = await roundTrip('mcp.jsonl', 'mcp');
    expect(items).toHaveLength(1);
    expect(items[0]!.runs[0]!.map((t) => [t.id, t.tools, t.error])).toEqual([
      ['3', ['get_weather'], true],
      ['4', ['get_weather'], false],
      ['5', ['get_forecast'], true],
    ]);
  });

  it('another format’s trajectories export to each trace format and import again with the same tool calls in order', async () => {
    const path = join(dir, 'openai-tools.jsonl');
    copyFileSync(join(__dirname, '../fixtures/formats/trajectories/openai-tools.jsonl'), path);
    await importFile(path, 'a.db');
    const calls = (db: string) => stored(db).flatMap((i) => i.runs.flatMap((r) => r.flatMap((t) => t.tools)));
    const before = calls('a.db');
    expect(before.length).toBeGreaterThan(2);
    for (const format of ['anthropic-messages', 'claude-code', 'inspect-ai', 'otel-genai', 'langfuse', 'langsmith', 'codex-cli', 'mcp']) {
      const out = await exportAs(format, 'a.db', 'jsonl');
      const summary = await importFile(out, `${format}.db`);
      expect([summary.format, summary.invalid ?? 0]).toEqual([format, 0]);
      expect(calls(`${format}.db`), format).toEqual(before);
    }
  });

  it('inspect-ai: a whole eval log is refused with a sentence saying how to give its samples', async () => {
    const path = join(dir, 'log.json');
    const samples = lines(join(FIXTURES, 'inspect-ai.jsonl'));
    writeFileSync(path, JSON.stringify({ version: 2, status: 'success', eval: { task: 'ctf', model: 'openai/gpt-4o' }, results: {}, samples }, null, 2));
    const run = await cli(['import', path, '--project', 'p'], 'a.db');
    expect(run.code).not.toBe(0);
    expect(run.err.join('\n')).toContain("a whole Inspect eval log (3 samples): Arbiter reads its samples, one a record; write them out first, e.g. `inspect log dump LOG | jq -c '.samples[]' > samples.jsonl`");
  });

  it('otel-genai: a line with spans of two traces is refused with a sentence (one trace is one item), never split or merged', async () => {
    const record = lines(join(FIXTURES, 'otel-genai.jsonl'))[0] as { resourceSpans: { scopeSpans: { spans: { traceId: string }[] }[] }[] };
    record.resourceSpans[0]!.scopeSpans[0]!.spans[0]!.traceId = '0af7651916cd43dd8448eb211c80319c';
    const path = join(dir, 'two.jsonl');
    writeFileSync(path, `${JSON.stringify(record)}\n`);
    const run = await cli(['import', path, '--project', 'p'], 'a.db');
    expect(run.code).not.toBe(0);
    expect(run.err.join('\n')).toContain('the record holds spans of 2 traces; one trace is one item: write one trace a line');
  });

  it('a session too big for one item is refused whole with a sentence naming the bound, never cut', async () => {
    const session = 'aaaaaaaa-0000-4000-8000-000000000000';
    const line = (n: number, type: 'user' | 'assistant') => ({
      parentUuid: n ? `u${n - 1}` : null,
      sessionId: session,
      type,
      uuid: `u${n}`,
      message: type === 'user' ? { role: 'user', content: `step ${n}: ${'x'.repeat(200)}` } : { role: 'assistant', content: [{ type: 'text', text: `done ${n}: ${'y'.repeat(200)}` }] },
    });
    const path = join(dir, 'big.jsonl');
    writeFileSync(path, Array.from({ length: 20 }, (_, n) => JSON.stringify(line(n, n % 2 ? 'assistant' : 'user'))).join('\n'));
    process.env.ARBITER_RECORD_MAX_BYTES = '2KiB';
    const run = await cli(['import', path, '--project', 'p'], 'a.db');
    const said = [...run.out, ...run.err].join('\n');
    expect(said).toMatch(/the session is [\d.]+ ?[KMk]i?B, more than 2(\.0)? ?KiB, the most one item may hold \(recordMaxBytes; ARBITER_RECORD_MAX_BYTES raises it\): it is refused whole, not cut/);
    const d = openDb(join(dir, 'a.db'));
    expect(d.prepare('SELECT COUNT(*) FROM item').pluck().get()).toBe(0);
    d.close();
  });
});
