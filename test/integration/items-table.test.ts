// The items table on a real SQLite file: every filter pages in file order (first or last first) by
// keyset, across the walk's windows, without a gap or a repeat; the counters give the counts they can;
// "model disagrees" compares the models' pre-label with your label, else the label that decides.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ItemFilter, ItemOrder } from '../../shared/api';
import { importLines } from '../../electron/core/formats';
import { filtersFor, listItemsTable } from '../../electron/core/service/itemsTable';
import { inputHash } from '../../electron/core/scorer/inputs';
import { ensureAnnotator } from '../../electron/core/store/annotators';
import { openDb, type Db } from '../../electron/core/store/db';
import { getItem } from '../../electron/core/store/items';
import { labelAppender } from '../../electron/core/store/labels';
import { requireProject } from '../../electron/core/store/projects';
import { tempDir } from '../helpers/tmp';

const N = 12_000;

async function project(n = N) {
  const db = openDb(join(tempDir(), 'arbiter.db'));
  const lines = Array.from({ length: n }, (_, i) => JSON.stringify({ prompt: `p${i}`, chosen: `c${i}`, rejected: `r${i}` }));
  await importLines(db, { project: 'p', fileName: 'f.jsonl', lines, sha256: 'x', format: 'trl', skipInvalid: false, createProject: true });
  const projectId = requireProject(db, 'p').id;
  const ids = db.prepare('SELECT id FROM item WHERE project_id = ? ORDER BY seq').pluck().all(projectId) as number[];
  const label = (who: string, seq: number, choice: 'A' | 'B' | 'tie' | 'both_bad') =>
    labelAppender(db)({ projectId, itemId: ids[seq]!, annotatorId: ensureAnnotator(db, who, 'human').id, choice, shownOrder: [0, 1] });
  return { db, projectId, ids, label };
}

/** Every page of a filter, following `next`, as seqs. */
function walkAll(db: Db, projectId: number, filter: ItemFilter, order: ItemOrder = 'first', limit = 200): number[] {
  const seqs: number[] = [];
  let afterSeq: number | undefined;
  for (let calls = 0; calls < 1000; calls++) {
    const page = listItemsTable(db, projectId, { project: 'p', annotator: 'me', filter, order, offset: 0, limit, ...(afterSeq === undefined ? {} : { afterSeq }) });
    seqs.push(...page.rows.map((r) => r.seq));
    if (page.next === null) return seqs;
    afterSeq = page.next;
  }
  throw new Error('the walk did not end');
}

describe('the items table', () => {
  it('all: by row number or keyset, first or last first, each page from the seq index', async () => {
    const { db, projectId } = await project();
    const page = (order: ItemOrder, offset: number) => listItemsTable(db, projectId, { project: 'p', filter: 'all', order, offset, limit: 3 });
    expect(page('first', 0).rows.map((r) => r.seq)).toEqual([0, 1, 2]);
    expect(page('first', 11_000).rows.map((r) => r.seq)).toEqual([11_000, 11_001, 11_002]);
    expect(page('last', 0).rows.map((r) => r.seq)).toEqual([11_999, 11_998, 11_997]);
    expect(page('last', 10).rows.map((r) => r.seq)).toEqual([11_989, 11_988, 11_987]);
    expect(page('first', 0)).toMatchObject({ total: N, matching: N, next: 2, scanned: 3 });
    expect(walkAll(db, projectId, 'all', 'last', 1000)).toEqual(Array.from({ length: N }, (_, i) => N - 1 - i));
    db.close();
  });

  it('your unlabeled and labeled items, and those you gave one choice, with no gap or repeat across windows', async () => {
    const { db, projectId, label } = await project();
    const mine = new Map<number, 'A' | 'B' | 'tie' | 'both_bad'>([
      [0, 'A'],
      [2, 'B'],
      [7, 'both_bad'],
      [5_100, 'A'],
      [11_998, 'both_bad'],
      [11_999, 'tie'],
    ]);
    for (const [seq, choice] of mine) label('me', seq, choice);
    label('someone else', 1, 'A');
    const labeled = [...mine.keys()].sort((a, b) => a - b);
    expect(walkAll(db, projectId, 'labeled')).toEqual(labeled);
    expect(walkAll(db, projectId, 'both_bad')).toEqual([7, 11_998]);
    expect(walkAll(db, projectId, 'both_bad', 'last')).toEqual([11_998, 7]);
    expect(walkAll(db, projectId, 'A', 'first', 1)).toEqual([0, 5_100]);
    const unlabeled = walkAll(db, projectId, 'unlabeled', 'first', 1000);
    expect(unlabeled).toHaveLength(N - mine.size);
    expect(unlabeled.some((seq) => mine.has(seq))).toBe(false);
    expect(new Set(unlabeled).size).toBe(unlabeled.length);
    const first = listItemsTable(db, projectId, { project: 'p', annotator: 'me', filter: 'unlabeled', order: 'first', offset: 0, limit: 2 });
    expect(first).toMatchObject({ total: N, matching: N - mine.size, next: 3 });
    expect(first.rows.map((r) => [r.seq, r.myChoice, r.labels, r.consensus])).toEqual([
      [1, null, 1, 'A'],
      [3, null, 0, null],
    ]);
    expect(listItemsTable(db, projectId, { project: 'p', annotator: 'me', filter: 'labeled', order: 'first', offset: 0, limit: 1 }).matching).toBe(mine.size);
    // Someone who has labeled nothing: everything is unlabeled, nothing labeled, and nothing is scanned for it.
    expect(listItemsTable(db, projectId, { project: 'p', annotator: 'new', filter: 'tie', order: 'first', offset: 0, limit: 5 })).toMatchObject({ rows: [], next: null });
    db.close();
  });

  it('model disagrees: the pre-label picks the other response than your label, else the deciding label', async () => {
    const { db, projectId, ids, label } = await project(700);
    db.prepare("INSERT INTO model (id, name, hash, dir, kind, manifest, added_at) VALUES (1, 'rm', 'h', '/m', 'outcome', '{}', '2026-01-01')").run();
    const score = db.prepare("INSERT INTO score (model_id, content_hash, item_id, response_index, reward, provider, created_at) VALUES (1, ?, ?, ?, ?, 'cpu', '2026')");
    // Every item carries the file's own preference, A. The model prefers A up to seq 599 (on seqs below
    // 30, only on even ones) and B from 600 on; seqs 650 to 699 are not scored.
    const modelPicksA = (seq: number) => (seq < 30 ? seq % 2 === 0 : seq < 600);
    for (let seq = 0; seq < 650; seq++) {
      const item = getItem(db, projectId, ids[seq]!)!;
      const better = modelPicksA(seq) ? 0 : 1;
      item.responses.forEach((r, i) => score.run(inputHash('outcome', { prompt: item.prompt, response: r.content, steps: r.steps, segmentation: 'auto' }), item.id, i, i === better ? 2 : -2));
    }
    label('me', 0, 'B'); // mine against the model's A
    label('me', 2, 'A'); // mine agrees
    label('me', 3, 'tie'); // a tie is never a disagreement
    label('lee', 4, 'B'); // none of mine: the humans' B against the model's A
    label('me', 8, 'B');
    label('lee', 8, 'A');
    label('kim', 8, 'A'); // the humans agree with the model, but mine decides: disagrees
    label('me', 10, 'A');
    label('lee', 10, 'B');
    label('kim', 10, 'B'); // the humans disagree, but mine agrees
    label('me', 610, 'B'); // agrees with the model's B
    label('me', 680, 'B'); // not scored
    const odd = Array.from({ length: 15 }, (_, k) => 2 * k + 1).filter((seq) => seq !== 3);
    const fromSource = Array.from({ length: 50 }, (_, k) => 600 + k).filter((seq) => seq !== 610);
    // Hundreds of agreeing items come between: the walk goes on past a full query of candidates it drops.
    expect(walkAll(db, projectId, 'disagrees', 'first', 20)).toEqual([0, 4, 8, ...odd, ...fromSource].sort((a, b) => a - b));
    const row = listItemsTable(db, projectId, { project: 'p', annotator: 'me', filter: 'disagrees', order: 'first', offset: 0, limit: 1 }).rows[0]!;
    expect(row).toMatchObject({ seq: 0, myChoice: 'B', model: { vote: 'A', models: 1 } });
    expect(row.model!.pA).toBeCloseTo(1 / (1 + Math.exp(-4)), 6);
    db.prepare('DELETE FROM model').run();
    expect(listItemsTable(db, projectId, { project: 'p', annotator: 'me', filter: 'disagrees', order: 'first', offset: 0, limit: 5 })).toMatchObject({ rows: [], next: null, matching: 0 });
    db.close();
  });

  // Issue 20, item 10: the table knew only pairs. A ranking showed "—" everywhere, "labeled by you" left out
  // rankings, steps and verdicts, and Enter opened every item on Compare.
  it('shows every task’s judgement, counts every task as labeled, and names the screen of each shape', async () => {
    const db = openDb(join(tempDir(), 'arbiter.db'));
    const lines = [
      { id: 'pair', prompt: 'p', responses: [{ text: 'a' }, { text: 'b' }] },
      { id: 'rank', prompt: 'r', responses: [{ text: 'a' }, { text: 'b' }, { text: 'c' }] },
      { id: 'chain', prompt: 'c', responses: [{ text: 'x', steps: ['one', 'two', 'three'] }] },
      { id: 'single', prompt: 's', responses: [{ text: 'y' }] },
      { id: 'open', prompt: 'o', responses: [{ text: 'z' }] },
    ].map((l) => JSON.stringify(l));
    await importLines(db, { project: 'p', fileName: 'f.jsonl', lines, sha256: 'x', format: 'arbiter', skipInvalid: false, createProject: true });
    const projectId = requireProject(db, 'p').id;
    const id = (external: string) => db.prepare('SELECT id FROM item WHERE external_id = ?').pluck().get(external) as number;
    const save = labelAppender(db);
    const as = (who: string) => ensureAnnotator(db, who, 'human').id;
    const base = (who: string, item: string) => ({ projectId, itemId: id(item), annotatorId: as(who) });
    save({ ...base('me', 'rank'), task: 'ranking', choice: null, ranking: [[1], [0, 2]] });
    save({ ...base('ben', 'rank'), task: 'ranking', choice: null, ranking: [[1], [0, 2]] });
    save({ ...base('me', 'chain'), task: 'steps', choice: null, body: { steps: { A: [1, -1, null] }, first_error: { A: 1 } }, done: true });
    save({ ...base('ben', 'chain'), task: 'steps', choice: null, body: { steps: { A: [1, 1, 1] }, first_error: { A: -1 } }, done: true });
    save({ ...base('me', 'single'), task: 'verdict', choice: 'good' });
    save({ ...base('ben', 'single'), task: 'verdict', choice: 'good' });
    const page = (filter: ItemFilter) => listItemsTable(db, projectId, { project: 'p', annotator: 'me', filter, order: 'first', offset: 0, limit: 10 });
    const rows = new Map(page('all').rows.map((r) => [r.externalId, r]));
    expect(rows.get('rank')).toMatchObject({ screen: 'rank', mine: [{ task: 'ranking', text: 'B > A = C' }], humans: [{ task: 'ranking', text: 'B > A = C', labels: 2 }] });
    expect(rows.get('chain')).toMatchObject({ screen: 'steps', mine: [{ task: 'steps', text: 'first error at 2' }], humans: [{ task: 'steps', text: 'split', labels: 2 }] });
    expect(rows.get('single')).toMatchObject({ screen: 'verdict', mine: [{ task: 'verdict', text: 'good' }], humans: [{ task: 'verdict', text: 'good', labels: 2 }] });
    expect(rows.get('pair')).toMatchObject({ screen: 'compare', mine: [], humans: [] });
    expect(rows.get('open')).toMatchObject({ screen: 'verdict', mine: [] });
    // Labeled by you: the ranking, the chain and the verdict; the counters know only choices, so the walk counts.
    expect(page('labeled').rows.map((r) => r.externalId)).toEqual(['rank', 'chain', 'single']);
    expect(page('unlabeled').rows.map((r) => r.externalId)).toEqual(['pair', 'open']);
    expect(page('labeled').matching).toBeNull();
    // The choice filters and "model disagrees" are offered where there are pairs only.
    expect(filtersFor({ pairs: 1, ranked: 1, single: 3, chains: 1 })).toContain('A');
    expect(filtersFor({ pairs: 0, ranked: 0, single: 3, chains: 3 })).toEqual(['all', 'unlabeled', 'labeled']);
    db.close();
  });
});
