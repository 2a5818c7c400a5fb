// The order the labeling loop walks items in, through the service on a real SQLite file: source order,
// a random order seeded per annotator (every item once, the same each time, different per person),
// most-uncertain-first from the models' scores, and overlap (each item to k people of the team, the same
// split on every machine).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LabelingOrder } from '../../shared/domain';
import type { Db } from '../../electron/core/store/db';
import { pairProject } from '../helpers/project';
import { tempDir } from '../helpers/tmp';

const N = 40;

function setup(dbPath = join(tempDir(), 'arbiter.db')) {
  const { db, service, ids } = pairProject(dbPath, { items: N, texts: (i) => [`left ${i}`, `right ${i}`], annotator: 'a', visibleSeq: 'all' });
  return { db, service, ids };
}

type Setup = ReturnType<typeof setup>;

async function settings(s: Setup, patch: { order?: LabelingOrder; overlap?: number; team?: string[] }) {
  await s.service.dispatch('updateProjectSettings', { project: 'p', settings: patch });
}

/** The external ids an annotator meets walking forward from the start, without labeling. */
async function walk(s: Setup, annotator: string): Promise<string[]> {
  const seen: string[] = [];
  let after: number | undefined;
  for (;;) {
    const item = await s.service.dispatch('nextItem', { project: 'p', annotator, afterSeq: after, unlabeledOnly: false });
    if (!item || seen.includes(item.externalId!)) return seen;
    seen.push(item.externalId!);
    after = item.seq;
  }
}

/** Labels whatever the loop offers until it offers nothing: the items that were this annotator's. */
async function labelAll(s: Setup, annotator: string): Promise<string[]> {
  const done: string[] = [];
  for (;;) {
    const item = await s.service.dispatch('nextItem', { project: 'p', annotator, unlabeledOnly: true });
    if (!item) return done;
    await s.service.dispatch('saveLabel', { project: 'p', annotator, itemId: item.id, choice: 'A', shownOrder: [0, 1] });
    done.push(item.externalId!);
    if (done.length > N) throw new Error('the loop offered an item twice');
  }
}

const sourceOrder = Array.from({ length: N }, (_, i) => `q${i}`);

function addScores(db: Db, rewards: Map<number, [number, number]>) {
  const model = db.prepare("INSERT INTO model (name, hash, dir, kind, added_at) VALUES ('rm', 'h', '/m', 'outcome', '2026-11-23')").run().lastInsertRowid;
  const score = db.prepare("INSERT INTO score (model_id, content_hash, item_id, response_index, reward, provider, created_at) VALUES (?, ?, ?, ?, ?, 'cpu', '2026-11-23')");
  for (const [itemId, [a, b]] of rewards) {
    score.run(model, `${itemId}:0`, itemId, 0, a);
    score.run(model, `${itemId}:1`, itemId, 1, b);
  }
}

describe('labeling order', () => {
  it('source order by default', async () => {
    expect(await walk(setup(), 'alice')).toEqual(sourceOrder);
  });

  it('random: every item once, the same order each time for one person, another for the next', async () => {
    const s = setup();
    await settings(s, { order: 'random' });
    const alice = await walk(s, 'alice');
    expect([...alice].sort()).toEqual([...sourceOrder].sort());
    expect(alice).not.toEqual(sourceOrder);
    expect(await walk(s, 'alice')).toEqual(alice);
    const bob = await walk(s, 'bob');
    expect(bob).not.toEqual(alice);
    // Going back retraces the walk.
    const third = await s.service.dispatch('nextItem', { project: 'p', annotator: 'alice', afterSeq: Number(alice[3]!.slice(1)), direction: 'previous', unlabeledOnly: false });
    expect(third?.externalId).toBe(alice[2]);
    // Labeling skips what is done and still reaches every item once.
    expect((await labelAll(s, 'alice')).sort()).toEqual([...sourceOrder].sort());
  });

  it('most uncertain first, from the models, then the rest in source order', async () => {
    const s = setup();
    // q7 is a coin flip for the model, q3 nearly so, q12 clear-cut; the others are unscored.
    addScores(s.db, new Map([[s.ids[12]!, [4, -4]], [s.ids[3]!, [0.3, 0]], [s.ids[7]!, [1, 1]]]));
    await settings(s, { order: 'uncertain' });
    // The order is computed by a job; until it is ready the loop walks source order.
    await s.service.dispatch('nextItem', { project: 'p', annotator: 'alice', unlabeledOnly: false });
    for (let i = 0; i < 100 && !(await s.service.dispatch('listJobs', {})).some((j) => j.kind === 'review' && j.state === 'done'); i++) await new Promise((r) => setTimeout(r, 20));
    const order = await walk(s, 'alice');
    expect(order.slice(0, 4)).toEqual(['q7', 'q3', 'q12', 'q0']);
    expect(order).toHaveLength(N);
  });

  it('overlap: each item goes to exactly k people of the team, and another machine splits it the same way', async () => {
    const team = ['ann', 'ben', 'cat'];
    const dir = tempDir();
    const mine = setup(join(dir, 'one.db'));
    const theirs = setup(join(dir, 'two.db'));
    const per = new Map<string, string[]>();
    for (const s of [mine, theirs]) await settings(s, { overlap: 2, team });
    for (const person of team) per.set(person, await labelAll(mine, person));
    const counts = new Map<string, number>();
    for (const list of per.values()) for (const id of list) counts.set(id, (counts.get(id) ?? 0) + 1);
    expect([...counts.keys()].sort()).toEqual([...sourceOrder].sort());
    expect([...counts.values()].every((n) => n === 2)).toBe(true);
    // Each person has about two thirds of the items, and the other machine gives them the same ones.
    for (const person of team) {
      expect(per.get(person)!.length).toBeGreaterThan(N / 3);
      expect(await labelAll(theirs, person)).toEqual(per.get(person));
    }
    // Someone not on the team sees every item.
    expect(await labelAll(mine, 'visitor')).toHaveLength(N);
  });
});
