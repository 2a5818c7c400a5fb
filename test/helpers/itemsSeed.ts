// A project of every shape and task for the items explorer's tests, with what was put in kept beside it
// as plain facts per item (test/integration/items-query.test.ts counts from those by brute force).
import { join } from 'node:path';
import { importLines } from '../../electron/core/formats';
import { ensureAnnotator } from '../../electron/core/store/annotators';
import { openDb, type Db } from '../../electron/core/store/db';
import { labelAppender } from '../../electron/core/store/labels';
import { requireProject } from '../../electron/core/store/projects';
import { appendGoldMarks } from '../../electron/core/store/gold';
import { recordAdjudication } from '../../electron/core/store/review';
import { uuidv7 } from '../../shared/ids';
import { mulberry32 } from '../../shared/order';
import type { LabelBody } from '../../shared/labelBodies';
import { tempDir } from './tmp';

export const PEOPLE = ['alice', 'bob', 'carol'] as const;
export const MODELS = ['rm-one', 'rm-two'] as const;

/** What the seed put in, per item (by seq). */
export interface SeedItem {
  seq: number;
  id: number;
  externalId: string;
  shape: 'pair' | 'ranking' | 'chain' | 'trajectory' | 'single';
  length: number;
  meta: Record<string, string>;
  responseModels: string[];
  /** task → person → the judgement compared for a split (choice, ranking JSON, steps' first error + outcome, ratings). */
  judgements: Map<string, Map<string, string>>;
  /** Votes that decide consensus: pairwise, ranking (best letter), verdict, outcome. */
  votes: Record<string, Record<string, number>>;
  tags: Set<string>;
  severities: Set<string>;
  outcomes: Set<string>;
  /** Rubric criteria rated differently by two people. */
  rubricSplit: boolean;
  adjudicated: string | null;
  /** The file's label a lead marked gold (pairwise), or null. */
  gold: string | null;
  /** Model → P(A better). */
  p: Map<string, number>;
  /** The pre-label's visibility of people's pairwise labels (shown / hidden), where recorded. */
  prelabel: Set<string>;
}

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

export async function seedItems(): Promise<{ db: Db; path: string; projectId: number; items: SeedItem[] }> {
  const path = join(tempDir(), 'arbiter.db');
  const db = openDb(path);
  const rng = mulberry32(20261128);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rng() * list.length)]!;
  const traj = (i: number) => [
    { role: 'assistant', content: '', tool_calls: [{ id: `c${i}`, type: 'function', function: { name: 'ls', arguments: '{}' } }] },
    { role: 'tool', tool_call_id: `c${i}`, content: `files ${i}` },
    { role: 'assistant', content: 'done' },
  ];
  const specs: { shape: SeedItem['shape']; line: Record<string, unknown> }[] = [];
  for (let i = 0; i < 24; i++)
    specs.push({ shape: 'pair', line: { id: `pair-${i}`, prompt: `question ${i}`, responses: [{ text: `answer A ${'x'.repeat(i * 7)}`, model: 'gen-a' }, { text: `answer B ${i}`, model: i % 4 ? 'gen-b' : 'gen-c' }], metadata: { category: ['math', 'code', 'chat'][i % 3], source: i % 2 ? 'web' : 'books' } } });
  for (let i = 0; i < 8; i++) specs.push({ shape: 'ranking', line: { id: `rank-${i}`, prompt: `rank ${i}`, responses: [{ text: 'one' }, { text: 'two' }, { text: `three ${'y'.repeat(i * 300)}` }], metadata: { category: 'math' } } });
  for (let i = 0; i < 6; i++) specs.push({ shape: 'chain', line: { id: `chain-${i}`, prompt: `solve ${i}`, responses: [{ text: 'step one\nstep two\nstep three', steps: ['step one', 'step two', 'step three'] }] } });
  for (let i = 0; i < 4; i++) specs.push({ shape: 'trajectory', line: { id: `traj-${i}`, prompt: `task ${i}`, responses: [{ text: traj(i) }] } });
  for (let i = 0; i < 4; i++) specs.push({ shape: 'single', line: { id: `single-${i}`, prompt: `say ${i}`, responses: [{ text: `reply ${i}` }], metadata: { source: 'web' } } });
  const lines = specs.map((s) => JSON.stringify(s.line));
  await importLines(db, { project: 'p', fileName: 'f.jsonl', lines, sha256: 'seed', format: 'arbiter', skipInvalid: false, createProject: true });
  const projectId = requireProject(db, 'p').id;
  const ids = db.prepare('SELECT id FROM item WHERE project_id = ? ORDER BY seq').pluck().all(projectId) as number[];
  const append = labelAppender(db);
  const person = Object.fromEntries(PEOPLE.map((name) => [name, ensureAnnotator(db, name, 'human').id]));
  const lead = ensureAnnotator(db, 'lead', 'human').id;
  db.prepare("INSERT INTO model (id, name, hash, dir, kind, manifest, added_at) VALUES (1, 'rm-one', 'h1', '/m1', 'outcome', '{}', '2026-01-01'), (2, 'rm-two', 'h2', '/m2', 'outcome', '{}', '2026-01-01')").run();
  const score = db.prepare("INSERT INTO score (model_id, content_hash, item_id, response_index, reward, provider, created_at) VALUES (?, ?, ?, ?, ?, 'cpu', '2026')");

  const items: SeedItem[] = specs.map((spec, seq) => {
    const line = spec.line as { id: string; prompt: string; responses: { text: unknown; model?: string }[]; metadata?: Record<string, string> };
    const item: SeedItem = {
      seq,
      id: ids[seq]!,
      externalId: line.id,
      shape: spec.shape,
      length: JSON.stringify(line.prompt).length + line.responses.reduce((sum, r) => sum + JSON.stringify(r.text).length, 0),
      meta: { ...(line.metadata ?? {}) },
      responseModels: line.responses.flatMap((r) => (r.model ? [r.model] : [])),
      judgements: new Map(),
      votes: {},
      tags: new Set(),
      severities: new Set(),
      outcomes: new Set(),
      rubricSplit: false,
      adjudicated: null,
      gold: null,
      p: new Map(),
      prelabel: new Set(),
    };
    return item;
  });
  const judge = (item: SeedItem, task: string, who: string, compared: string) => {
    if (!item.judgements.has(task)) item.judgements.set(task, new Map());
    item.judgements.get(task)!.set(who, compared);
  };
  const vote = (item: SeedItem, kind: string, value: string) => {
    item.votes[kind] ??= {};
    item.votes[kind][value] = (item.votes[kind][value] ?? 0) + 1;
  };

  for (const item of items) {
    const itemId = item.id;
    const common = { projectId, itemId };
    const scored = item.shape === 'pair' && item.seq < 12;
    // Scored pairs get one choice from everyone who labels them (review's consensus is then plainly theirs).
    const agreed = pick(['A', 'B'] as const);
    for (const who of PEOPLE) {
      if (rng() < 0.3) continue;
      const annotatorId = person[who]!;
      if (item.shape === 'pair') {
        const choice = scored ? agreed : pick(['A', 'B', 'B', 'tie'] as const);
        // Every fourth pair's labels say the model's pre-label was shown, the ones two after that it was hidden.
        const visible = item.seq % 4 === 0 ? true : item.seq % 4 === 2 ? false : undefined;
        append({ ...common, annotatorId, task: 'pairwise', choice, shownOrder: [0, 1], ...(visible === undefined ? {} : { body: { prelabel_visible: visible } }) });
        if (visible !== undefined) item.prelabel.add(visible ? 'shown' : 'hidden');
        judge(item, 'pairwise', who, choice);
        vote(item, 'pairwise', choice);
        if (item.seq % 3 === 0) {
          const helpful = pick([3, 4]);
          const body: LabelBody = { ratings: { A: { helpful } }, rubric: 'r' };
          append({ ...common, annotatorId, task: 'rubric', choice: null, body, done: true });
          judge(item, 'rubric', who, JSON.stringify(body.ratings));
        }
      } else if (item.shape === 'ranking') {
        const ranking = pick([[[0], [1], [2]], [[2], [0], [1]], [[0], [1], [2]]]);
        append({ ...common, annotatorId, task: 'ranking', choice: null, ranking });
        judge(item, 'ranking', who, JSON.stringify(ranking));
        vote(item, 'ranking', 'ABC'[ranking[0]![0]!]!);
      } else if (item.shape === 'single') {
        const choice = pick(['good', 'bad'] as const);
        append({ ...common, annotatorId, task: 'verdict', choice });
        judge(item, 'verdict', who, choice);
        vote(item, 'verdict', choice);
      } else {
        const trajectory = item.shape === 'trajectory';
        const firstError = pick([-1, 1]);
        const outcome = trajectory ? pick(['success', 'failure'] as const) : pick(['correct', 'incorrect'] as const);
        const tag = trajectory ? pick(['tool misuse', 'hallucination']) : pick(['arithmetic', 'logic']);
        const severity = pick(['minor', 'major'] as const);
        const body: LabelBody = { steps: { A: [1, firstError === 1 ? -1 : 1, null] }, first_error: { A: firstError }, step_tags: { A: { '1': [tag] } }, step_severity: { A: { '1': severity } }, outcome: { A: outcome } };
        append({ ...common, annotatorId, task: 'steps', choice: null, body, done: true });
        judge(item, 'steps', who, JSON.stringify([body.first_error, body.outcome]));
        vote(item, 'outcome', outcome);
        item.tags.add(tag);
        item.severities.add(severity);
        item.outcomes.add(outcome);
      }
    }
    const rubric = item.judgements.get('rubric');
    item.rubricSplit = !!rubric && new Set(rubric.values()).size > 1;
    if (item.shape === 'pair' && item.seq % 5 === 1) {
      recordAdjudication(db, { ...common, annotatorId: lead, task: 'pairwise', choice: 'B', shownOrder: [0, 1] }, 'settled');
      item.adjudicated = 'B';
    }
    // The file's own label on two scored pairs, marked gold by the lead: a model is wrong against it.
    if (scored && (item.seq === 2 || item.seq === 4)) {
      const fileChoice = item.seq === 2 ? 'A' : 'B';
      append({ ...common, annotatorId: ensureAnnotator(db, 'source', 'source').id, task: 'pairwise', choice: fileChoice, shownOrder: [0, 1] });
      appendGoldMarks(db, [{ id: uuidv7(), itemId, task: 'pairwise', gold: true, annotatorId: lead, createdAt: new Date().toISOString() }]);
      item.gold = fileChoice;
    }
    if (scored)
      for (const [m, model] of MODELS.entries()) {
        const a = rng() * 4 - 2;
        const b = rng() * 4 - 2;
        score.run(m + 1, `${model}-${itemId}-a`, itemId, 0, a);
        score.run(m + 1, `${model}-${itemId}-b`, itemId, 1, b);
        item.p.set(model, sigmoid(a - b));
      }
  }
  return { db, path, projectId, items };
}
