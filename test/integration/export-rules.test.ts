// The rules every pairwise export follows on a real SQLite file: one prompt shape per text-format file
// (plain text, or HH transcripts for every prompt once one is a conversation), and a margin on every
// OpenRLHF line.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ExportFormat } from '../../shared/formatNames';
import { exportProject, importLines } from '../../electron/core/formats';
import { ensureAnnotator } from '../../electron/core/store/annotators';
import { openDb, type Db } from '../../electron/core/store/db';
import { labelAppender } from '../../electron/core/store/labels';
import { requireProject } from '../../electron/core/store/projects';

let dir: string;
let db: Db;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-export-rules-'));
  db = openDb(join(dir, 'arbiter.db'));
});

afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const hh = (turns: string, chosen: string, rejected: string) => JSON.stringify({ chosen: `${turns}\n\nAssistant: ${chosen}`, rejected: `${turns}\n\nAssistant: ${rejected}` });
const MULTI_TURN = '\n\nHuman: Can you help me bake bread?\n\nAssistant: Sure. What kind?\n\nHuman: Sourdough.';

/** An HH-RLHF file of `n` single-turn pairs with one multi-turn pair at `at` (each carries the file's preference). */
async function importHh(n: number, at: number) {
  const rows = Array.from({ length: n }, (_, i) => (i === at ? hh(MULTI_TURN, 'You need a starter.', 'Buy some.') : hh(`\n\nHuman: Question ${i}?`, `Answer ${i}.`, `Wrong ${i}.`)));
  await importLines(db, { project: 'p', fileName: 'hh.jsonl', lines: rows, sha256: 'x', format: 'hh-rlhf', skipInvalid: false, createProject: true });
  return db.prepare('SELECT id FROM item WHERE project_id = ? ORDER BY seq').pluck().all(requireProject(db, 'p').id) as number[];
}

function label(itemId: number, choice: 'A' | 'B' | 'tie' | null, strength: 1 | 2 | 3 | null = null) {
  const annotator = ensureAnnotator(db, 'alice', 'human');
  labelAppender(db)({ projectId: requireProject(db, 'p').id, itemId, annotatorId: annotator.id, choice, strength, shownOrder: [0, 1] });
}

async function exported(format: ExportFormat) {
  const out = join(dir, `${format}.jsonl`);
  const summary = await exportProject(db, { project: 'p', format, out });
  const rows = readFileSync(out, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  expect(existsSync(`${out}.partial`)).toBe(false);
  return { summary, rows };
}

/** The prompt shape of a line: where the prompt is explicit, its own; an implicit one, the chosen text's start. */
const shapeOf = (row: Record<string, unknown>) => {
  const text = String(row.prompt ?? row.chosen);
  return text.startsWith('\n\nHuman:') ? 'transcript' : 'text';
};

describe('one prompt shape per text-format file', () => {
  for (const format of ['trl', 'trl-implicit', 'openrlhf', 'rewardbench'] as const) {
    it(`${format}: a conversation after 1,500 plain prompts makes every prompt a transcript`, async () => {
      const ids = await importHh(2000, 1500);
      label(ids[3]!, 'tie');
      const { summary, rows } = await exported(format);
      expect(rows).toHaveLength(1999);
      expect(new Set(rows.map(shapeOf))).toEqual(new Set(['transcript']));
      // The pass that met the conversation was thrown away: nothing is counted twice.
      expect(summary).toMatchObject({ written: 1999, skipped: { unlabeled: 0, tie: 1, both_bad: 0, conflict: 0, not_pairwise: 0 } });
      expect(summary.note).toMatch(/Every prompt is an HH-style transcript.*1 prompt\(s\) are conversations, and the 1998 single-turn prompt\(s\) were wrapped as one human turn/);
      expect(summary.note).toMatch(/export TRL conversational \(trl-chat\)/);
    });
  }

  it('a wrapped single-turn prompt reads exactly as HH-RLHF writes it', async () => {
    await importHh(3, 1);
    const { rows } = await exported('trl');
    expect(rows[0]).toEqual({ prompt: '\n\nHuman: Question 0?\n\nAssistant:', chosen: ' Answer 0.', rejected: ' Wrong 0.' });
    expect(rows[1]).toEqual({
      prompt: `${MULTI_TURN}\n\nAssistant:`,
      chosen: ' You need a starter.',
      rejected: ' Buy some.',
    });
  });

  it('stays plain text when the only conversation is left out of the file', async () => {
    const ids = await importHh(5, 2);
    label(ids[2]!, 'tie');
    const { summary, rows } = await exported('trl');
    expect(rows.map((r) => r.prompt)).toEqual(['Question 0?', 'Question 1?', 'Question 3?', 'Question 4?']);
    expect(summary.note).toBeNull();
  });

  it('trl-chat keeps its one shape: every prompt a message list, single turns as one user message', async () => {
    await importHh(3, 1);
    const { summary, rows } = await exported('trl-chat');
    expect(rows[0]!.prompt).toEqual([{ role: 'user', content: 'Question 0?' }]);
    expect((rows[1]!.prompt as unknown[]).length).toBe(3);
    expect(summary.note).toBeNull();
  });
});

describe('OpenRLHF', () => {
  it('every line carries a numeric margin: the strength, or 0 where no label recorded one', async () => {
    const ids = await importHh(6, -1);
    label(ids[0]!, 'B', 3);
    label(ids[1]!, 'A', null);
    const { summary, rows } = await exported('openrlhf');
    expect(rows).toHaveLength(6);
    for (const row of rows) expect(typeof row.margin).toBe('number');
    expect(rows.map((r) => r.margin)).toEqual([3, 0, 0, 0, 0, 0]);
    expect(summary.note).toMatch(/^5 line\(s\) have "margin": 0 because no label recorded a strength.*plain Bradley–Terry/);
  });
});
