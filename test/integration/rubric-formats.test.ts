// Rating, rubric and critique formats on a real SQLite file (docs/formats.md; issue 9, items 6 and 7):
// UltraFeedback raw and HelpSteer2 round-trip with every rating exactly ("N/A" included) and the lines as
// they came; HelpSteer3 keeps every annotator's preference; the file's ratings are labels of its source
// annotator under a rubric made from its aspects; Prometheus lines have the Feedback Collection's exact
// fields; pairs from weighted rubric totals are opt-in and report ties instead of guessing; rar items
// carry their own weighted criteria.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../electron/cli/main';
import { exportProject, importFile, type ExportOptions } from '../../electron/core/formats';
import { PROMETHEUS_FIELDS } from '../../electron/core/formats/ratings/prometheus';
import { ArbiterService } from '../../electron/core/service/index';
import { openDb, type Db } from '../../electron/core/store/db';
import { requireProject } from '../../electron/core/store/projects';
import type { ExportFormat, ImportFormat } from '../../shared/formatNames';
import { tempDir } from '../helpers/tmp';

const FIXTURES = join(__dirname, '..', 'fixtures', 'formats');
const fixture = (name: string) => join(FIXTURES, name);
const linesOf = (path: string) => readFileSync(path, 'utf8').split('\n').filter((l) => l !== '');
const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

let dir: string;
let dbPath: string;
let db: Db;
let service: ArbiterService;

beforeEach(() => {
  dir = tempDir('arbiter-rubric-formats-');
  dbPath = join(dir, 'arbiter.db');
  db = openDb(dbPath);
  service = new ArbiterService(db, { dbPath, transport: 'http', version: 't', defaultAnnotator: 'ann' });
  return () => db.close();
});

async function load(path: string, format: ImportFormat | 'auto' = 'auto') {
  return importFile(db, { path, project: 'p', createProject: true, format });
}

async function loadRows(name: string, rows: unknown[], format: ImportFormat | 'auto' = 'auto') {
  const path = join(dir, name);
  writeFileSync(path, jsonl(rows));
  return load(path, format);
}

async function exported(format: ExportFormat, options: Partial<ExportOptions> = {}) {
  const out = join(dir, `out-${format}-${Math.random().toString(36).slice(2)}.jsonl`);
  const summary = await exportProject(db, { project: 'p', format, out, ...options });
  const lines = linesOf(out);
  return { summary, lines, rows: lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

const count = (sql: string, ...params: unknown[]) => db.prepare(sql).pluck().get(...params) as number;
const itemIds = () => db.prepare('SELECT id FROM item WHERE project_id = ? ORDER BY seq').pluck().all(requireProject(db, 'p').id) as number[];
const labelsOf = (annotator: string, task: string) =>
  db
    .prepare('SELECT l.choice, l.strength, l.body, l.rubric_version_id FROM label l JOIN annotator a ON a.id = l.annotator_id WHERE a.name = ? AND l.task = ? ORDER BY l.seq')
    .all(annotator, task) as { choice: string | null; strength: number | null; body: string; rubric_version_id: number | null }[];

describe('UltraFeedback, raw', () => {
  it('round-trips: every rating exactly ("N/A" included), the critiques, rationales and scores, each line as it came', async () => {
    const input = linesOf(fixture('ultrafeedback.jsonl'));
    const summary = await load(fixture('ultrafeedback.jsonl'));
    expect(summary).toMatchObject({ format: 'ultrafeedback', items: 2, rejected: 0 });
    expect(summary.formatReason).toContain('UltraFeedback, raw');

    // The aspects became a rubric, and the ratings the source annotator's labels under it.
    const rubric = await service.dispatch('getRubric', { project: 'p', rubric: 'ultrafeedback' });
    expect(rubric).toMatchObject({ version: 1, labels: 2 });
    expect(rubric.criteria.map((c) => [c.key, c.scale])).toEqual(
      ['instruction_following', 'honesty', 'truthfulness', 'helpfulness'].map((k) => [k, { type: 'likert', min: 1, max: 5 }]),
    );
    const ratings = labelsOf('source', 'rubric');
    expect(ratings.every((l) => l.rubric_version_id !== null)).toBe(true);
    expect(JSON.parse(ratings[0]!.body)).toMatchObject({
      rubric: 'ultrafeedback',
      rubric_version: 1,
      ratings: {
        A: { instruction_following: 5, honesty: 5, truthfulness: 5, helpfulness: 4 },
        B: { instruction_following: 3, honesty: null, truthfulness: 1, helpfulness: 1 },
        C: { instruction_following: 5, honesty: 4, truthfulness: 5, helpfulness: null },
      },
    });
    expect(JSON.parse(labelsOf('source', 'critique')[0]!.body).critique.B).toBe('Neither number is prime.');
    const models = db.prepare('SELECT model FROM response ORDER BY item_id, idx').pluck().all();
    expect(models).toEqual(['model-a', 'model-b', 'model-c', 'model-a', 'model-b']);

    const { lines, summary: out } = await exported('ultrafeedback');
    expect(out.written).toBe(2);
    expect(lines).toEqual(input);

    // Importing the same file again adds nothing: no item, no label, no rubric version.
    const before = count('SELECT COUNT(*) FROM label');
    expect(await load(fixture('ultrafeedback.jsonl'))).toMatchObject({ items: 0, duplicates: 2, labels: 0 });
    expect(count('SELECT COUNT(*) FROM label')).toBe(before);
    expect(count('SELECT COUNT(*) FROM rubric_version')).toBe(1);
  });

  it("writes a person's ratings where they decide, without the file's rationales beside them", async () => {
    await load(fixture('ultrafeedback.jsonl'));
    const [first] = itemIds();
    await service.dispatch('saveRatings', {
      project: 'p',
      annotator: 'alice',
      itemId: first!,
      rubric: 'ultrafeedback',
      version: 1,
      ratings: { A: { instruction_following: 4, honesty: null, truthfulness: 4, helpfulness: 2 }, B: { helpfulness: 1 }, C: { helpfulness: 5 } },
    });
    const { rows, summary } = await exported('ultrafeedback');
    const completions = rows[0]!.completions as Record<string, unknown>[];
    expect(completions[0]!.annotations).toEqual({ instruction_following: { Rating: '4' }, honesty: { Rating: 'N/A' }, truthfulness: { Rating: '4' }, helpfulness: { Rating: '2' } });
    expect(completions[1]!.annotations).toEqual({ helpfulness: { Rating: '1' } });
    expect(completions[0]).not.toHaveProperty('overall_score');
    expect(completions[0]!.critique).toBe('Correct and brief; naming why they are prime would help.');
    expect(summary.note).toMatch(/1 line\(s\) carry people's ratings/);
    // The other item is still the file's own, rationales and all.
    expect(rows[1]).toEqual(JSON.parse(linesOf(fixture('ultrafeedback.jsonl'))[1]!));
  });
});

describe('UltraFeedback, binarized', () => {
  it('round-trips, and takes its scores from rubric totals where there are ratings', async () => {
    const input = linesOf(fixture('ultrafeedback-binarized.jsonl'));
    expect(await load(fixture('ultrafeedback-binarized.jsonl'))).toMatchObject({ format: 'ultrafeedback-binarized', items: 2, labels: 2 });
    expect((await exported('ultrafeedback-binarized')).lines).toEqual(input);

    // UltraFeedback raw rated per aspect, no choice: pairs and scores come from the ratings, when asked.
    await load(fixture('ultrafeedback.jsonl'));
    const plain = await exported('ultrafeedback-binarized');
    expect(plain.rows).toHaveLength(2);
    const { rows, summary } = await exported('ultrafeedback-binarized', { fromRatings: true, rankingPairs: 'best-worst' });
    const primes = rows.find((r) => r.prompt === 'Name two prime numbers greater than 10.')!;
    // A: 5,5,5,4 → 4.75; C: 5,4,5,N/A → 4.666667; B: 3,N/A,1,1 → 1.666667 (N/A is skipped, not a zero).
    expect(primes).toMatchObject({ score_chosen: 4.75, score_rejected: 1.666667 });
    expect((primes.chosen as { content: string }[])[1]!.content).toBe('11 and 13.');
    expect(primes.prompt_id).toMatch(/^[0-9a-f]{64}$/);
    expect(Object.keys(primes)).toEqual(['prompt', 'prompt_id', 'chosen', 'rejected', 'messages', 'score_chosen', 'score_rejected']);
    expect(summary.note).toMatch(/2 item\(s\) with ratings but no choice gave 2 pair\(s\) from their weighted rubric totals/);
  });
});

describe('HelpSteer2', () => {
  it('groups consecutive rows of a prompt into one item and round-trips every rating exactly', async () => {
    const input = linesOf(fixture('helpsteer2.jsonl'));
    expect(await load(fixture('helpsteer2.jsonl'))).toMatchObject({ format: 'helpsteer2', lines: 5, items: 2 });
    expect(db.prepare('SELECT response_count FROM item ORDER BY seq').pluck().all()).toEqual([2, 3]);
    const rubric = await service.dispatch('getRubric', { project: 'p', rubric: 'helpsteer2' });
    expect(rubric.criteria.map((c) => c.scale)).toEqual(Array(5).fill({ type: 'likert', min: 0, max: 4 }));
    expect(JSON.parse(labelsOf('source', 'rubric')[1]!.body).ratings.B).toEqual({ helpfulness: 0, correctness: 0, coherence: 2, complexity: 0, verbosity: 0 });
    const { lines } = await exported('helpsteer2');
    expect(lines).toEqual(input);
  });

  it('makes an item per run of rows: rows of one prompt that are not consecutive are not joined', async () => {
    const row = (prompt: string, response: string, h: number) => ({ prompt, response, helpfulness: h, correctness: 1, coherence: 2, complexity: 3, verbosity: 4 });
    const rows = [row('P', 'a', 0), row('P', 'b', 1), row('Q', 'c', 2), row('P', 'd', 3)];
    // A bad row in the middle of a group is rejected on its own line; the group still makes its item.
    const bad = { prompt: 'Q', response: 'e', helpfulness: 5, correctness: 1, coherence: 2, complexity: 3, verbosity: 4 };
    const summary = await importFile(db, { path: writeRows('hs2.jsonl', [...rows.slice(0, 3), bad, rows[3]]), project: 'p', createProject: true, skipInvalid: true });
    expect(summary).toMatchObject({ format: 'helpsteer2', items: 3, rejected: 1 });
    expect(summary.errors).toEqual([{ line: 4, reason: 'helpfulness: expected a whole number from 0 to 4, got 5' }]);
    expect(db.prepare('SELECT response_count FROM item ORDER BY seq').pluck().all()).toEqual([2, 1, 1]);
    expect((await exported('helpsteer2')).rows).toEqual(rows);
  });

  it('preference rows round-trip: strength and sign, a tie as 0, statement and elaboration', async () => {
    const input = linesOf(fixture('helpsteer2-preference.jsonl'));
    expect(await load(fixture('helpsteer2-preference.jsonl'))).toMatchObject({ format: 'helpsteer2-preference', items: 3, labels: 3 });
    expect(labelsOf('source', 'pairwise').map((l) => [l.choice, l.strength])).toEqual([
      ['A', 2],
      ['tie', null],
      ['B', 3],
    ]);
    expect((await exported('helpsteer2-preference')).lines).toEqual(input);
    // The file's preference is also an ordinary pair for the trainers' formats; the tie is left out.
    const trl = await exported('trl');
    expect(trl.rows.map((r) => r.chosen)).toEqual(['Soft rain on the roof / ...', 'Blue, the colour of a clear sky.']);
    expect(trl.summary.skipped.tie).toBe(1);
  });
});

function writeRows(name: string, rows: unknown[]): string {
  const path = join(dir, name);
  writeFileSync(path, jsonl(rows));
  return path;
}

describe('HelpSteer3', () => {
  it("keeps every annotator's preference, reasoning and feedback, and writes them all back", async () => {
    const input = linesOf(fixture('helpsteer3.jsonl'));
    expect(await load(fixture('helpsteer3.jsonl'))).toMatchObject({ format: 'helpsteer3', items: 2 });
    expect(labelsOf('helpsteer3-annotator-3', 'pairwise').map((l) => [l.choice, l.strength, JSON.parse(l.body).rationale])).toEqual([['B', 1, '@Response 2 is shorter.']]);
    expect(JSON.parse(labelsOf('helpsteer3-annotator-1', 'critique')[0]!.body)).toEqual({ critique: { A: 'A fitting name.', B: 'Not a name.' } });
    expect(db.prepare("SELECT kind FROM annotator WHERE name LIKE 'helpsteer3-annotator-%'").pluck().all()).toEqual(['source', 'source', 'source']);
    expect((await exported('helpsteer3')).lines).toEqual(input);

    // The disagreement is kept, and the file's overall preference decides the pair, not the annotators' vote.
    const trl = await exported('trl-chat');
    expect(trl.rows.map((r) => r.chosen)).toEqual([[{ role: 'assistant', content: 'Whiskers.' }]]);
    expect(trl.summary.skipped.tie).toBe(1);

    // A person's preference joins the annotators' and, being a person's, decides the overall one.
    const [first] = itemIds();
    await service.dispatch('saveLabel', { project: 'p', annotator: 'alice', itemId: first!, choice: 'B', strength: 2, shownOrder: [0, 1], rationale: 'Short is fine.' } as never);
    const { rows } = await exported('helpsteer3');
    expect(rows[0]!.overall_preference).toBe(2);
    expect((rows[0]!.individual_preference as unknown[]).slice(3)).toEqual([{ score: 2, reasoning: 'Short is fine.' }]);
    expect((rows[0]!.individual_preference as unknown[]).slice(0, 3)).toEqual((JSON.parse(input[0]!) as { individual_preference: unknown[] }).individual_preference);
  });
});

describe('Prometheus and plain critiques', () => {
  it('writes one Feedback-Collection line per critiqued and rated response, with the exact field names', async () => {
    await load(fixture('ultrafeedback.jsonl'));
    const { rows, summary } = await exported('prometheus');
    expect(rows).toHaveLength(5);
    for (const row of rows) expect(Object.keys(row)).toEqual([...PROMETHEUS_FIELDS]);
    const b = rows.find((r) => r.orig_response === '12 and 15.')!;
    // 3, N/A, 1, 1 on 1–5 → normalized (2 + 0 + 0) / 4 / 3 = 1/6 → 1 + round(4/6) = 2.
    expect(b).toMatchObject({ orig_instruction: 'Name two prime numbers greater than 10.', orig_feedback: 'Neither number is prime.', orig_score: '2', output: 'Neither number is prime. [RESULT] 2', orig_reference_answer: '' });
    expect(b.orig_criteria).toMatch(/^How well does the response meet the rubric "ultrafeedback" \(version 1\)\?/);
    expect(b.instruction).toContain('###Response to evaluate:\n12 and 15.');
    expect(rows.find((r) => r.orig_response === 'Bonjour.')!.orig_score).toBe('5');
    expect(summary.note).toMatch(/orig_score is 1 \+ 4 ×/);
  });

  it('leaves out a critique with no rating to score it, and counts it; the plain critique export keeps it', async () => {
    await load(fixture('helpsteer3.jsonl'));
    const prometheus = await exported('prometheus');
    expect(prometheus.rows).toHaveLength(0);
    expect(prometheus.summary.note).toMatch(/4 critiqued response\(s\) have no rubric rating/);
    const { rows } = await exported('critique');
    expect(rows.length).toBe(4);
    for (const row of rows) expect(Object.keys(row)).toEqual(['prompt', 'response', 'critique', 'verdict']);
    expect(rows[0]).toEqual({ prompt: 'Suggest a name for a cat.', response: 'Whiskers.', critique: 'A fitting name.', verdict: 'chosen' });
    expect(rows[3]!.verdict).toBe('tie');
  });
});

describe('pairs from weighted rubric totals', () => {
  const rated = (prompt: string, a: number[], b: number[]) => {
    const keys = ['helpfulness', 'correctness', 'coherence', 'complexity', 'verbosity'];
    const row = (response: string, values: number[]) => ({ prompt, response, ...Object.fromEntries(keys.map((k, i) => [k, values[i]])) });
    return [row(`${prompt} first`, a), row(`${prompt} second`, b)];
  };

  it('are opt-in, pair by the higher total, and report ties instead of guessing', async () => {
    await loadRows('hs2.jsonl', [...rated('P1', [4, 4, 4, 1, 1], [1, 1, 1, 1, 1]), ...rated('P2', [2, 2, 2, 2, 2], [2, 2, 2, 2, 2]), ...rated('P3', [0, 0, 0, 0, 0], [0, 1, 0, 0, 0])]);
    const off = await exported('trl');
    expect(off.rows).toHaveLength(0);
    expect(off.summary.skipped.unlabeled).toBe(3);

    const on = await exported('trl', { fromRatings: true });
    expect(on.rows).toEqual([
      { prompt: 'P1', chosen: 'P1 first', rejected: 'P1 second' },
      { prompt: 'P3', chosen: 'P3 second', rejected: 'P3 first' },
    ]);
    expect(on.summary.skipped.tie).toBe(1);
    expect(on.summary.note).toMatch(/1 item\(s\) with ratings but no choice were left out as ties: their responses' weighted rubric totals are equal \(a tie is not guessed\)/);

    // A choice, where there is one, decides before the ratings.
    const [first] = itemIds();
    await service.dispatch('saveLabel', { project: 'p', annotator: 'alice', itemId: first!, choice: 'B', shownOrder: [0, 1] } as never);
    expect((await exported('trl', { fromRatings: true })).rows[0]).toEqual({ prompt: 'P1', chosen: 'P1 second', rejected: 'P1 first' });
  });

  it('weigh: a pitfall met subtracts, and "not applicable" is skipped (the CLI flag --from-ratings)', async () => {
    await loadRows('items.jsonl', [{ id: 'q', prompt: 'Q?', responses: [{ text: 'careful' }, { text: 'rambling' }] }], 'arbiter');
    await service.dispatch('saveRubric', {
      project: 'p',
      name: 'default',
      criteria: [
        { key: 'correct', scale: { type: 'binary' }, weight: 2 },
        { key: 'clear', scale: { type: 'likert', min: 1, max: 5 } },
        { key: 'rambles', scale: { type: 'binary' }, weight: -3 },
      ],
    });
    // careful: 2×1 + 0.5 (3 of 1–5) = 2.5; rambling: 2×1 + null (skipped) − 3×1 = −1.
    await service.dispatch('saveRatings', { project: 'p', annotator: 'alice', itemId: itemIds()[0]!, rubric: 'default', version: 1, ratings: { A: { correct: 1, clear: 3, rambles: 0 }, B: { correct: 1, clear: null, rambles: 1 } } });
    const out = join(dir, 'cli.jsonl');
    const printed: string[] = [];
    db.close();
    const code = await runCli(['export', '--project', 'p', '--format', 'openrlhf', '--out', out, '--from-ratings', '--db', dbPath], { out: (l) => printed.push(l), err: (l) => printed.push(l) });
    db = openDb(dbPath);
    expect(code).toBe(0);
    expect(linesOf(out).map((l) => JSON.parse(l) as unknown)).toEqual([{ prompt: 'Q?', chosen: 'careful', rejected: 'rambling', margin: 1 }]);
    expect(JSON.parse(printed[0]!).note).toMatch(/1 item\(s\) with ratings but no choice gave 1 pair\(s\)/);
  });
});

describe('Rubrics as Rewards', () => {
  it("imports per-prompt criteria as the item's own rubric, weights and pitfalls kept", async () => {
    expect(await load(fixture('rar.jsonl'))).toMatchObject({ format: 'rar', items: 2, labels: 0 });
    const [first] = itemIds();
    const own = await service.dispatch('getRubric', { project: 'p', rubric: 'item', itemId: first! });
    expect(own.criteria.map((c) => [c.key, c.weight, c.scale.type])).toEqual([
      ['identifies_meningitis', 5, 'binary'],
      ['mentions_lumbar_puncture', 3, 'binary'],
      ['suggests_waiting', -2, 'binary'],
    ]);
    expect(own.criteria[2]!.description).toBe('Pitfall Criteria: Suggests waiting to see if it resolves.');
    const item = db.prepare('SELECT reference, metadata FROM item WHERE id = ?').get(first!) as { reference: string; metadata: string };
    expect(item.reference).toBe('Bacterial meningitis, with a lumbar puncture after imaging if needed.');
    expect(JSON.parse(item.metadata)).toEqual({ question_source: 'example' });
    expect(db.prepare('SELECT content, model FROM response WHERE item_id = ?').get(first!)).toEqual({ content: JSON.stringify(item.reference), model: 'reference_answer' });
    // Rated the same way as a project rubric.
    const saved = await service.dispatch('saveRatings', { project: 'p', annotator: 'alice', itemId: first!, rubric: 'item', version: 1, ratings: { A: { identifies_meningitis: 1, mentions_lumbar_puncture: 1, suggests_waiting: 0 } } });
    expect(saved.body).toMatchObject({ rubric: 'item', rubric_version: 1 });
  });
});

describe('import worker', () => {
  it('gives the same items, labels and criteria as this thread; grouped HelpSteer2 rows stay on this thread', async () => {
    const snapshot = (project: string) =>
      db
        .prepare(
          `SELECT i.uid, i.criteria, i.metadata, a.name, l.task, l.choice, l.strength, l.body, l.rubric_version_id IS NOT NULL AS versioned
           FROM item i JOIN project p ON p.id = i.project_id LEFT JOIN label l ON l.item_id = i.id LEFT JOIN annotator a ON a.id = l.annotator_id
           WHERE p.name = ? ORDER BY i.uid, a.name, l.task`,
        )
        .all(project);
    for (const name of ['ultrafeedback.jsonl', 'helpsteer2.jsonl', 'helpsteer3.jsonl', 'rar.jsonl']) {
      const here = `here-${name}`;
      const worker = `worker-${name}`;
      await importFile(db, { path: fixture(name), project: here, createProject: true, parallel: false });
      // The format named, so that the worker takes the file from its first chunk (auto detects here first).
      await importFile(db, { path: fixture(name), project: worker, createProject: true, parallel: true, format: name.replace('.jsonl', '') as ImportFormat });
      expect(snapshot(worker)).toEqual(snapshot(here));
      expect(snapshot(here).length).toBeGreaterThan(0);
    }
  });
});
