// Gold for people on a real SQLite file (issue 23 §1): qualification first (only its items until judged;
// failed: held until the lead grants a retry; passed: the project), honeypots at the lead's rate in a
// stable per-person order and never shown as gold, and each person's accuracy against gold with its
// Wilson interval, n, the flag under the lead's bar and the gold items they got wrong; `arbiter stats`
// prints them.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ItemView } from '../../shared/api';
import type { GoldRules } from '../../shared/goldRules';
import { ensureAnnotator, SOURCE_ANNOTATOR } from '../../electron/core/store/annotators';
import { labelAppender } from '../../electron/core/store/labels';
import { runCli } from '../../electron/cli/main';
import { writeNow } from '../../electron/core/store/write';
import { pairProject } from '../helpers/project';
import { tempDir } from '../helpers/tmp';

const ITEMS = 40;
const GOLD = 12; // items 0 … 11 carry the file's label, marked gold: A on even items, B on odd ones
const goldChoice = (i: number) => (i % 2 === 0 ? 'A' : 'B');

async function setup(rules: GoldRules) {
  const dbPath = join(tempDir(), 'arbiter.db');
  const s = pairProject(dbPath, { items: ITEMS, texts: (i) => [`a${i}`, `b${i}`], annotator: 'lead', visibleSeq: 'all' });
  const source = ensureAnnotator(s.db, SOURCE_ANNOTATOR, 'source');
  const append = labelAppender(s.db);
  writeNow(s.db, () => {
    for (let i = 0; i < GOLD; i++) append({ projectId: s.project.id, itemId: s.ids[i]!, annotatorId: source.id, task: 'pairwise', choice: goldChoice(i) });
  });
  await s.service.dispatch('markGold', { project: 'p', itemIds: s.ids.slice(0, GOLD) });
  await s.service.dispatch('updateProjectSettings', { project: 'p', settings: { gold: rules } });
  const indexOf = (item: ItemView) => s.ids.indexOf(item.id);
  /** Labels `count` items as the loop does (next unlabeled after the current one), choosing by `choose`. */
  const label = async (annotator: string, count: number, choose: (i: number) => 'A' | 'B') => {
    const seen: number[] = [];
    let after: number | undefined;
    for (let k = 0; k < count; k++) {
      const item = await s.service.dispatch('nextItem', { project: 'p', annotator, afterSeq: after });
      if (!item) break;
      seen.push(indexOf(item));
      await s.service.dispatch('saveLabel', { project: 'p', annotator, itemId: item.id, choice: choose(indexOf(item)), shownOrder: [0, 1] });
      after = item.seq;
    }
    return seen;
  };
  return { ...s, label, indexOf, dbPath };
}

const rule = (over: Partial<NonNullable<GoldRules['pairwise']>>) => ({ pairwise: { honeypotRate: 0, qualification: 0, passMark: 0.8, bar: 0.7, retries: {}, ...over } });

describe('qualification', () => {
  it('serves only the qualification set first, in a per-person order; a pass opens the project', async () => {
    const s = await setup(rule({ qualification: 4, passMark: 0.75 }));
    const first = await s.label('ann', 4, goldChoice);
    expect([...first].sort((a, b) => a - b)).toEqual([0, 1, 2, 3]);
    const other = await s.label('bo', 4, goldChoice);
    expect([...other].sort((a, b) => a - b)).toEqual([0, 1, 2, 3]);
    expect(other).not.toEqual(first); // each person's own order
    const standing = await s.service.dispatch('goldStanding', { project: 'p', annotator: 'ann' });
    expect(standing.tasks).toEqual([{ task: 'pairwise', qualification: { state: 'passed', score: 1, done: 4, total: 4, passMark: 0.75 } }]);
    const after = await s.label('ann', 3, goldChoice);
    expect(after.every((i) => i >= 4)).toBe(true);
  });

  it('holds a person who failed until the lead grants a retry; then serves the set again', async () => {
    const s = await setup(rule({ qualification: 4, passMark: 0.75 }));
    await s.label('cy', 4, (i) => (i < 2 ? goldChoice(i) : goldChoice(i + 1))); // 2 of 4 right
    const standing = await s.service.dispatch('goldStanding', { project: 'p', annotator: 'cy' });
    expect(standing.tasks[0]!.qualification).toMatchObject({ state: 'failed', score: 0.5, done: 4, total: 4 });
    expect(await s.service.dispatch('nextItem', { project: 'p', annotator: 'cy' })).toBeNull();
    await new Promise((r) => setTimeout(r, 5)); // the retry's time is after every label so far
    await s.service.dispatch('updateProjectSettings', { project: 'p', settings: { gold: rule({ qualification: 4, passMark: 0.75, retries: { cy: new Date().toISOString() } }) } });
    const again = await s.label('cy', 4, goldChoice);
    expect([...again].sort((a, b) => a - b)).toEqual([0, 1, 2, 3]);
    expect((await s.service.dispatch('goldStanding', { project: 'p', annotator: 'cy' })).tasks[0]!.qualification.state).toBe('passed');
  });
});

describe('honeypots', () => {
  it('mixes gold into the queue at the rate, stable per person, never showing the file’s label', async () => {
    const s = await setup(rule({ honeypotRate: 0.3 }));
    const seen = await s.label('ann', ITEMS, goldChoice);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toHaveLength(ITEMS); // everything once: gold in its slots, the rest in order
    const goldAt = seen.map((i, k) => (i < GOLD ? k : -1)).filter((k) => k >= 0);
    // Gold is spread through the queue, not walked first in the file's order.
    expect(seen.slice(0, GOLD)).not.toEqual(Array.from({ length: GOLD }, (_, i) => i));
    expect(goldAt[0]!).toBeLessThan(ITEMS - GOLD);
    // The same person gets the same queue on a fresh project; another person another one.
    const again = await setup(rule({ honeypotRate: 0.3 }));
    expect(await again.label('ann', ITEMS, goldChoice)).toEqual(seen);
    expect(await again.label('bo', ITEMS, goldChoice)).not.toEqual(seen);
    // Served as honeypots, gold items show no file label.
    const view = await s.service.dispatch('getItem', { project: 'p', annotator: 'ann', itemId: s.ids[0]! });
    expect(view?.sourceLabel).toBeNull();
  });
});

describe('honeypots left when the walk is done', () => {
  it('come one by one rather than never, at a rate too low to have served them', async () => {
    const s = await setup(rule({ honeypotRate: 0.01 }));
    const seen = await s.label('ann', ITEMS + 5, goldChoice);
    expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: ITEMS }, (_, i) => i));
    // The file's other items first (few or no honeypot slots at 1%), the gold after them.
    expect(seen.slice(-GOLD).every((i) => i < GOLD) || seen.slice(-(GOLD - 1)).every((i) => i < GOLD)).toBe(true);
  });
});

describe('accuracy against gold in every task', () => {
  it('scores rankings with their ties, first errors per response and verdicts against the marked file labels', async () => {
    const s = await setup({});
    const source = ensureAnnotator(s.db, SOURCE_ANNOTATOR, 'source');
    const ann = ensureAnnotator(s.db, 'ann', 'human');
    const append = labelAppender(s.db);
    const at = (i: number) => s.ids[i]!;
    writeNow(s.db, () => {
      for (let i = 0; i < 4; i++) {
        append({ projectId: s.project.id, itemId: at(i), annotatorId: source.id, task: 'ranking', choice: null, ranking: [[1], [0]] });
        append({ projectId: s.project.id, itemId: at(i), annotatorId: source.id, task: 'steps', choice: null, body: { first_error: { A: 2, B: -1 } }, done: true });
        append({ projectId: s.project.id, itemId: at(i), annotatorId: source.id, task: 'verdict', choice: 'good' });
      }
      for (let i = 0; i < 4; i++) {
        append({ projectId: s.project.id, itemId: at(i), annotatorId: ann.id, task: 'ranking', choice: null, ranking: i < 3 ? [[1], [0]] : [[0, 1]] });
        append({ projectId: s.project.id, itemId: at(i), annotatorId: ann.id, task: 'steps', choice: null, body: { first_error: { A: i < 2 ? 2 : 1, B: -1 } }, done: true });
        append({ projectId: s.project.id, itemId: at(i), annotatorId: ann.id, task: 'verdict', choice: i === 0 ? 'bad' : 'good' });
      }
    });
    await s.service.dispatch('markGold', { project: 'p', itemIds: [at(0), at(1), at(2), at(3)] });
    const { buildReview } = await import('../../electron/core/review/report');
    const tasks = buildReview(s.db, s.project).report.gold.tasks;
    const of = (task: string) => tasks.find((t) => t.task === task)!.people.find((p) => p.name === 'ann')!;
    expect(of('ranking')).toMatchObject({ correct: 3, accuracy: { n: 4 }, wrong: [{ externalId: 'q3' }] });
    expect(of('steps')).toMatchObject({ correct: 2, accuracy: { n: 4 }, wrong: [{ externalId: 'q2' }, { externalId: 'q3' }] });
    expect(of('verdict')).toMatchObject({ correct: 3, accuracy: { n: 4 }, wrong: [{ externalId: 'q0' }] });
  });
});

describe('accuracy against gold', () => {
  it('per person: Wilson interval and n, flagged under the bar with the wrong gold items; in arbiter stats', async () => {
    const s = await setup(rule({ bar: 0.7 }));
    const ids = s.ids;
    for (const [who, wrongOn] of [['ann', [] as number[]], ['bo', [1, 2, 5, 6, 9, 10]]] as const)
      for (let i = 0; i < GOLD; i++) {
        const right = goldChoice(i);
        const choice = (wrongOn as readonly number[]).includes(i) ? (right === 'A' ? 'B' : 'A') : right;
        await s.service.dispatch('saveLabel', { project: 'p', annotator: who, itemId: ids[i]!, choice, shownOrder: [0, 1] });
      }
    const { buildReview } = await import('../../electron/core/review/report');
    const report = buildReview(s.db, s.project).report;
    const task = report.gold.tasks.find((t) => t.task === 'pairwise')!;
    expect(task).toMatchObject({ goldItems: GOLD, bar: 0.7 });
    const ann = task.people.find((p) => p.name === 'ann')!;
    const bo = task.people.find((p) => p.name === 'bo')!;
    expect(ann).toMatchObject({ correct: 12, flagged: false, wrong: [] });
    expect(ann.accuracy.value).toBe(1);
    expect(ann.accuracy.n).toBe(12);
    // Wilson 95% for 12 / 12: [0.7575, 1]; for 6 / 12: [0.2538, 0.7462].
    expect(ann.accuracy.low).toBeCloseTo(0.7575, 3);
    expect(bo).toMatchObject({ correct: 6, flagged: true });
    expect(bo.accuracy.low).toBeCloseTo(0.2538, 3);
    expect(bo.accuracy.high).toBeCloseTo(0.7462, 3);
    expect(bo.wrong.map((w) => w.externalId)).toEqual(['q1', 'q2', 'q5', 'q6', 'q9', 'q10']);
    // arbiter stats: the same figures, in text and in --json.
    const stats = async (...args: string[]) => {
      const out: string[] = [];
      expect(await runCli(['stats', '--project', 'p', ...args, '--db', s.dbPath], { out: (l) => out.push(l), err: () => {}, ask: async () => 'no' })).toBe(0);
      return out;
    };
    const text = (await stats()).join('\n');
    expect(text).toContain('accuracy against gold, pairwise (12 gold items; bar 70%):');
    expect(text).toContain('ann: 100% [76%–100%] n 12');
    expect(text).toContain('bo: 50% [25%–75%] n 12  FLAGGED under 70%; wrong on q1, q2, q5, q6, q9, q10');
    const json = JSON.parse((await stats('--json'))[0]!) as { review: { gold: typeof report.gold } };
    expect(json.review.gold).toEqual(JSON.parse(JSON.stringify(report.gold)));
  });
});
