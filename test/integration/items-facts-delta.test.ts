// A label change refreshes the items explorer's facts of its items alone (electron/core/review/
// itemFactsDelta.ts): after each of many random saves, clears, undos, adjudications, gold marks, imports
// and labels merges (asked in the middle of the merge too), the facts kept (refreshed item by item) equal a whole read of the project on another
// connection, fact by fact and in every facet count; the refresh reads only the changed items. And after
// hub pulls (a real PostgreSQL cluster) of a teammate's saves, undos and the lead's adjudications.
import { describe, expect, it } from 'vitest';
import { syncProject } from '../../electron/core/hub/sync';
import type { LabelBody } from '../../shared/domain';
import { importLines } from '../../electron/core/formats';
import { importLabelsLines } from '../../electron/core/formats/exchange/labels';
import { buildItemFacts, type ItemFacts } from '../../electron/core/review/itemFacts';
import { CONSENSUS_PARTS } from '../../electron/core/review/itemFactsPeople';
import type { Postings } from '../../electron/core/review/postings';
import { ArbiterService } from '../../electron/core/service';
import { itemFactsOf, runItemsQuery } from '../../electron/core/service/itemsQuery';
import { ensureAnnotator } from '../../electron/core/store/annotators';
import { openDb, type Db } from '../../electron/core/store/db';
import { appendGoldMarks } from '../../electron/core/store/gold';
import { labelAppender } from '../../electron/core/store/labels';
import { requireProject } from '../../electron/core/store/projects';
import { recordAdjudication } from '../../electron/core/store/review';
import { uuidv7 } from '../../shared/ids';
import { itemIds, PROJECT, setUpTeam, type Desktop } from '../helpers/hubTeam';
import { seedItems } from '../helpers/itemsSeed';
import { hubSkipReason, useHubCluster } from '../helpers/hubCluster';

const sorted = (p: Postings) => [...p].map(([value, seqs]) => [value, Array.from(seqs)] as const).sort((a, b) => (a[0] < b[0] ? -1 : 1));
const num = (x: number) => (Number.isNaN(x) ? null : x);

/** Every fact of every item, decoded (codes of a consensus value may differ between reads; its value may not). */
export function canonical(f: ItemFacts) {
  const rows = Array.from({ length: f.n }, (_, s) => [
    f.ids[s], f.adjudicated[s], f.labels[s], f.labeledAny[s], f.disputed[s], f.dispute[s], f.modelDisagrees[s], num(f.score[s]!), num(f.uncertainty[s]!),
    ...CONSENSUS_PARTS.map((c) => (f.consensus[c].codes[s] ? f.consensus[c].names[f.consensus[c].codes[s]! - 1] : null)),
  ]);
  const sets = Object.fromEntries(Object.entries(f.sets).map(([name, p]) => [name, sorted(p)]));
  const people = [...f.people].map(([person, tasks]) => [person, sorted(tasks)] as const).sort((a, b) => (a[0] < b[0] ? -1 : 1));
  return { n: f.n, rows, sets, people };
}

/** The facts the project keeps (refreshed) against a whole read on a second connection, and their facet counts. */
export function expectSameAsWholeRead(db: Db, fresh: Db, project: string, step: string): void {
  const kept = itemFactsOf(db, requireProject(db, project)).cached.facts;
  const whole = buildItemFacts(fresh, requireProject(fresh, project));
  expect(canonical(kept), step).toEqual(canonical(whole));
  const ask = (on: Db) => runItemsQuery(on, { project, query: '', limit: 5, annotator: 'alice', facets: true }).facets;
  expect(ask(db), step).toEqual(ask(fresh));
}

function rng(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

describe('the items facts after a label change', () => {
  it('equal a whole read after each of 80 random saves, clears, undos, adjudications, gold marks, imports and labels merges', async () => {
    const { db, path, projectId } = await seedItems();
    const service = new ArbiterService(db, { dbPath: path, transport: 'http', version: 'test', defaultAnnotator: 'alice' });
    const fresh = openDb(path);
    const random = rng(Number(process.env.FACTS_SEED ?? 7));
    const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
    const append = labelAppender(db);
    const people = ['alice', 'bob', 'carol', 'dana'];
    const lead = ensureAnnotator(db, 'lead', 'human').id;
    const source = ensureAnnotator(db, 'source', 'source').id;
    const shapes = () => db.prepare("SELECT i.id, i.response_count AS responses, (SELECT COUNT(*) FROM segmentation s WHERE s.item_id = i.id) AS steps FROM item i WHERE i.project_id = ? AND i.seq < (SELECT visible_seq FROM project WHERE id = ?)").all(projectId, projectId) as { id: number; responses: number; steps: number }[];
    const saved: { itemId: number; who: string; task: string }[] = [];
    const kinds: Record<string, number> = {};
    let imported = 0;
    let refreshed = 0;
    expectSameAsWholeRead(db, fresh, 'p', 'seed');
    for (let step = 0; step < 80; step++) {
      const before = itemFactsOf(db, requireProject(db, 'p')).cached.people;
      const items = shapes();
      const item = pick(items);
      const who = pick(people);
      const common = { projectId, itemId: item.id, annotatorId: ensureAnnotator(db, who, 'human').id };
      const kind = pick(['save', 'save', 'save', 'clear', 'undo', 'undo', 'adjudicate', 'gold', 'import', 'merge']);
      kinds[kind] = (kinds[kind] ?? 0) + 1;
      if (kind === 'save' && item.responses === 2) {
        append({ ...common, task: 'pairwise', choice: pick(['A', 'B', 'tie'] as const), shownOrder: [0, 1] });
        saved.push({ itemId: item.id, who, task: 'pairwise' });
        if (random() < 0.4) append({ ...common, task: 'rubric', choice: null, body: { ratings: { A: { helpful: pick([3, 4]) } }, rubric: 'r' }, done: true });
      } else if (kind === 'save' && item.responses > 2) {
        append({ ...common, task: 'ranking', choice: null, ranking: pick([[[0], [1], [2]], [[2], [0], [1]]]) });
        saved.push({ itemId: item.id, who, task: 'ranking' });
      } else if (kind === 'save' && item.steps) {
        const body: LabelBody = { first_error: { A: pick([-1, 1]) }, step_tags: { A: { '1': [pick(['logic', 'new tag'])] } }, step_severity: { A: { '1': pick(['minor', 'major'] as const) } }, outcome: { A: pick(['correct', 'incorrect'] as const) } };
        append({ ...common, task: 'steps', choice: null, body, done: true });
        saved.push({ itemId: item.id, who, task: 'steps' });
      } else if (kind === 'save') {
        append({ ...common, task: 'verdict', choice: pick(['good', 'bad'] as const) });
        saved.push({ itemId: item.id, who, task: 'verdict' });
      } else if (kind === 'clear' && saved.length) {
        const s = pick(saved);
        if (s.task === 'pairwise') append({ projectId, itemId: s.itemId, annotatorId: ensureAnnotator(db, s.who, 'human').id, task: 'pairwise', choice: null, shownOrder: [0, 1] });
      } else if (kind === 'undo' && saved.length) {
        const s = pick(saved);
        await service.dispatch('undoLabel', { project: 'p', annotator: s.who, itemId: s.itemId, task: s.task as 'pairwise' });
      } else if (kind === 'adjudicate' && item.responses === 2) {
        recordAdjudication(db, { projectId, itemId: item.id, annotatorId: lead, task: 'pairwise', choice: pick(['A', 'B'] as const), shownOrder: [0, 1] }, 'settled');
      } else if (kind === 'gold') {
        // On an item the models scored (gold decides which model is wrong there): the file's label and its
        // mark, or a mark (or its taking back) alone on a label the file gave before.
        const scored = db.prepare('SELECT DISTINCT item_id FROM score').pluck().all() as number[];
        const withSource = db.prepare("SELECT DISTINCT s.item_id FROM score s JOIN label l ON l.item_id = s.item_id JOIN annotator a ON a.id = l.annotator_id WHERE a.kind = 'source'").pluck().all() as number[];
        const alone = withSource.length > 0 && random() < 0.6;
        const itemId = alone ? pick(withSource) : pick(scored);
        if (!alone) append({ projectId, itemId, annotatorId: source, task: 'pairwise', choice: pick(['A', 'B'] as const), shownOrder: [0, 1] });
        appendGoldMarks(db, [{ id: uuidv7(), itemId, task: 'pairwise', gold: !alone || random() < 0.5, annotatorId: lead, createdAt: new Date().toISOString() }]);
      } else if (kind === 'merge') {
        // A labels file from another machine: its revisions are written first, people's current labels
        // pointed at them after (older seqs than the newest by then); the facts are asked in between.
        const pairs = db.prepare("SELECT external_id FROM item WHERE project_id = ? AND response_count = 2 AND external_id IS NOT NULL AND seq < (SELECT visible_seq FROM project WHERE id = ?)").pluck().all(projectId, projectId) as string[];
        const lines = Array.from({ length: 3 }, () => JSON.stringify({ id: uuidv7(), item: pick(pairs), annotator: pick(people), task: 'pairwise', choice: pick(['A', 'B']), created_at: new Date(Date.now() + 60_000).toISOString() }));
        const between = () => void itemFactsOf(db, requireProject(db, 'p'));
        await importLabelsLines(db, { project: 'p', fileName: `merge-${step}.jsonl`, lines, onProgress: between, isCancelled: () => (between(), false) });
      } else if (kind === 'import') {
        const lines = Array.from({ length: 3 }, (_, i) => JSON.stringify({ id: `late-${imported}-${i}`, prompt: `late ${imported} ${i}`, responses: [{ text: 'x', model: 'gen-z' }, { text: 'y' }], metadata: { category: 'late' } }));
        await importLines(db, { project: 'p', fileName: `late-${imported}.jsonl`, lines, sha256: `late-${imported++}`, format: 'arbiter', skipInvalid: false, createProject: false });
        const late = db.prepare('SELECT id FROM item WHERE external_id = ?').pluck().get(`late-${imported - 1}-1`) as number;
        append({ projectId, itemId: late, annotatorId: common.annotatorId, task: 'pairwise', choice: 'B', shownOrder: [0, 1] });
        saved.push({ itemId: late, who, task: 'pairwise' });
      }
      expectSameAsWholeRead(db, fresh, 'p', `step ${step}: ${kind} by ${who} on item ${item.id}`);
      // Read by the changed items alone: the typed arrays are the ones held before (grown only by an import).
      if (itemFactsOf(db, requireProject(db, 'p')).cached.people.adjudicated === before.adjudicated) refreshed++;
    }
    expect(kinds.import).toBeGreaterThan(2);
    expect(kinds.merge).toBeGreaterThan(2);
    expect(refreshed).toBeGreaterThan(60);
    service.stopBackgroundWork();
    fresh.close();
    db.close();
  }, 120_000);
});

describe('the items facts asked in the middle of a labels merge', () => {
  it('equal a whole read once the merge points people’s labels at the revisions it wrote before', async () => {
    const { db, path, projectId } = await seedItems();
    const fresh = openDb(path);
    const pairs = db.prepare('SELECT external_id FROM item WHERE project_id = ? AND response_count = 2').pluck().all(projectId) as string[];
    // More than one write batch (1,000 revisions): the facts are asked after the first is written, before any applies.
    const start = Date.now() + 60_000;
    // The first batch's items and the rest's apart: no later revision names a first-batch item.
    const half = Math.floor(pairs.length / 2);
    const itemOf = (i: number) => (i < 1_000 ? pairs[i % half] : pairs[half + (i % (pairs.length - half))]);
    const lines = Array.from({ length: 1_300 }, (_, i) => JSON.stringify({ id: uuidv7(), item: itemOf(i), annotator: ['alice', 'erin'][i % 2], task: 'pairwise', choice: i % 3 ? 'B' : 'A', created_at: new Date(start + i).toISOString() }));
    let asked = 0;
    const between = () => {
      itemFactsOf(db, requireProject(db, 'p'));
      asked++;
      return false;
    };
    expectSameAsWholeRead(db, fresh, 'p', 'before');
    await importLabelsLines(db, { project: 'p', fileName: 'big.jsonl', lines, isCancelled: between });
    expect(asked).toBeGreaterThan(1);
    expectSameAsWholeRead(db, fresh, 'p', 'after the merge');
    fresh.close();
    db.close();
  }, 60_000);
});

const reason = hubSkipReason("items-facts-delta's hub pulls");

describe.skipIf(reason)('the items facts after a hub pull', () => {
  const hub = useHubCluster('items-facts-delta');

  it('equal a whole read after each of several pulls of the lead’s and a teammate’s saves, undos and adjudications', async () => {
    const { publisher: lead, desktops, admin } = await setUpTeam(hub.cluster, hub.dir, 'hub_facts_delta', 24, [{ name: 'ben', role: 'annotator' }, { name: 'cleo', role: 'annotator' }]);
    const [ben, cleo] = desktops as [Desktop, Desktop];
    const sync = (d: Desktop) => syncProject(d.db, { project: PROJECT, password: undefined, batch: 40 });
    const fresh = openDb(ben.dbPath);
    const random = rng(11);
    try {
      expectSameAsWholeRead(ben.db, fresh, PROJECT, 'joined');
      let refreshed = 0;
      for (let round = 0; round < 6; round++) {
        for (const d of [lead, cleo]) {
          const ids = [...itemIds(d).values()];
          for (let k = 0; k < 4; k++) {
            const itemId = ids[Math.floor(random() * ids.length)]!;
            await d.service.dispatch('saveLabel', { project: PROJECT, annotator: d.name, itemId, choice: random() < 0.5 ? 'A' : 'B', shownOrder: [0, 1] });
            if (random() < 0.3) await d.service.dispatch('undoLabel', { project: PROJECT, annotator: d.name, itemId });
          }
          if (d === lead && random() < 0.7) await lead.service.dispatch('adjudicate', { project: PROJECT, annotator: 'lead', itemId: ids[Math.floor(random() * ids.length)]!, choice: 'B', note: 'settled' });
          await sync(d);
        }
        // Ben labels too, then pulls the others' work.
        const mine = [...itemIds(ben).values()];
        await ben.service.dispatch('saveLabel', { project: PROJECT, annotator: 'ben', itemId: mine[round]!, choice: 'tie', shownOrder: [0, 1] });
        const before = itemFactsOf(ben.db, requireProject(ben.db, PROJECT)).cached.people;
        await sync(ben);
        expectSameAsWholeRead(ben.db, fresh, PROJECT, `pull ${round}`);
        if (itemFactsOf(ben.db, requireProject(ben.db, PROJECT)).cached.people.labels === before.labels) refreshed++;
      }
      expect(refreshed).toBe(6);
      expect(itemFactsOf(ben.db, requireProject(ben.db, PROJECT)).cached.facts.people.size).toBeGreaterThanOrEqual(3);
    } finally {
      fresh.close();
      await admin.end();
      for (const d of [lead, ...desktops]) d.db.close();
    }
  }, 180_000);
});
