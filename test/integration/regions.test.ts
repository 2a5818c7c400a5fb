// Region marks in label revisions (issue 15, "Mark regions"): saved with a pairwise choice, a ranking, a
// verdict or rubric ratings; changed after the decision as a new revision of the same decision; refused,
// mark and field named, when a mark is malformed or names an image the item does not hold there; carried
// by the labels format both ways byte for byte, and refused in a labels file the way a save refuses them.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../shared/domain';
import type { RegionMark } from '../../shared/regions';
import { runCli } from '../../electron/cli/main';
import { exportProject, importLabelsFile } from '../../electron/core/formats/index';
import { ArbiterService } from '../../electron/core/service/index';
import { openDb } from '../../electron/core/store/db';
import { itemInserter } from '../../electron/core/store/itemInsert';
import { createProject } from '../../electron/core/store/projects';
import { tempDir } from '../helpers/tmp';

const sha = (c: string) => c.repeat(64);
const PROMPT_IMG = sha('a');
const LEFT_IMG = sha('b');
const RIGHT_IMG = sha('c');
const THIRD_IMG = sha('d');

const image = (sha256: string) => ({ type: 'image', image: { sha256, mime: 'image/png', width: 64, height: 48, bytes: 120 }, origin: { kind: 'inline' } });
const generated = (sha256: string): ChatMessage[] => [{ role: 'assistant', content: [image(sha256)] as ChatMessage['content'] }];
const question: ChatMessage[] = [{ role: 'user', content: [{ type: 'text', text: 'Which picture shows the cat?' }, image(PROMPT_IMG)] as ChatMessage['content'] }];

/** A project of image items on a real SQLite file: a pair, a ranking of three, a single response. */
function setup(dbPath = join(tempDir(), 'a.db')) {
  const db = openDb(dbPath);
  const project = createProject(db, 'p');
  const insert = itemInserter(db, project.id);
  const draft = (externalId: string, responses: string[]) => ({
    externalId,
    prompt: question,
    responses: responses.map((s) => ({ content: generated(s), model: null, steps: null })),
    reference: null,
    metadata: {},
  });
  const [pair, three, one] = db.transaction(() => [insert.insert(draft('pair', [LEFT_IMG, RIGHT_IMG])).id, insert.insert(draft('three', [LEFT_IMG, RIGHT_IMG, THIRD_IMG])).id, insert.insert(draft('one', [LEFT_IMG])).id])();
  db.prepare('UPDATE project SET visible_seq = (SELECT MAX(seq) + 1 FROM item), item_count = 3 WHERE id = ?').run(project.id);
  const service = new ArbiterService(db, { dbPath, transport: 'http', version: 'test', defaultAnnotator: 'ann' });
  return { db, dbPath, service, pair: pair!, three: three!, one: one! };
}

const BOX: RegionMark = { image: LEFT_IMG, at: 0, kind: 'box', box: [0.1, 0.2, 0.5, 0.6], tag: 'artifact', note: 'a sixth finger on the left hand' };
const POINT: RegionMark = { image: PROMPT_IMG, at: 'prompt', kind: 'point', point: [0.25, 0.75], tag: 'unreadable text' };
const ABSENT: RegionMark = { image: RIGHT_IMG, at: 1, kind: 'absent', tag: 'artifact' };

const refusal = async (promise: Promise<unknown>): Promise<string> => {
  try {
    await promise;
  } catch (error) {
    return (error as Error).message;
  }
  return '(saved: nothing was refused)';
};

describe('region marks in label revisions', () => {
  it('keep a box, a point and "not present" in the pairwise revision saved, and show them again with the item', async () => {
    const { service, pair } = setup();
    const saved = await service.dispatch('saveLabel', { project: 'p', annotator: 'ann', itemId: pair, choice: 'A', strength: 2, shownOrder: [0, 1], regions: [BOX, POINT, ABSENT] });
    expect(saved.body.regions).toEqual([BOX, POINT, ABSENT]);
    const again = await service.dispatch('getItem', { project: 'p', annotator: 'ann', itemId: pair });
    expect(again!.label!.body.regions).toEqual([BOX, POINT, ABSENT]);
  });

  it('keep marks in a ranking, a verdict and rubric ratings', async () => {
    const { service, three, one, pair } = setup();
    const onThird: RegionMark = { image: THIRD_IMG, at: 2, kind: 'box', box: [0, 0, 1, 1], tag: 'misaligned' };
    const ranked = await service.dispatch('saveRanking', { project: 'p', annotator: 'ann', itemId: three, ranking: [[2], [0], [1]], shownOrder: [0, 1, 2], regions: [onThird] });
    expect(ranked.body.regions).toEqual([onThird]);
    const verdict = await service.dispatch('saveVerdict', { project: 'p', annotator: 'ann', itemId: one, verdict: 'bad', regions: [BOX] });
    expect(verdict.body.regions).toEqual([BOX]);
    await service.dispatch('saveRubric', { project: 'p', name: 'aspects', criteria: [{ key: 'fidelity', scale: { type: 'likert', min: 1, max: 5 } }] });
    const rated = await service.dispatch('saveRatings', { project: 'p', annotator: 'ann', itemId: pair, rubric: 'aspects', version: 1, ratings: { A: { fidelity: 2 }, B: { fidelity: 4 } }, regions: [ABSENT] });
    expect(rated.body.regions).toEqual([ABSENT]);
    // Marks changed later keep the ratings and the version they were made under.
    const remarked = await service.dispatch('saveRegions', { project: 'p', annotator: 'ann', itemId: pair, task: 'rubric', regions: [BOX] });
    expect(remarked!.body).toMatchObject({ ratings: { A: { fidelity: 2 }, B: { fidelity: 4 } }, rubric: 'aspects', rubric_version: 1, regions: [BOX] });
    const sheet = await service.dispatch('getRatingSheet', { project: 'p', annotator: 'ann', itemId: pair });
    expect({ id: sheet.mine!.id, version: sheet.mine!.version }).toEqual({ id: remarked!.id, version: 1 });
  });

  it('refuse a malformed mark, naming the mark and the field, and save nothing', async () => {
    const { db, service, pair } = setup();
    const save = (regions: unknown) => refusal(service.dispatch('saveLabel', { project: 'p', annotator: 'ann', itemId: pair, choice: 'A', shownOrder: [0, 1], regions }));
    expect(await save([BOX, { ...BOX, box: [0.6, 0.2, 0.5, 0.6] }])).toBe(
      'Could not save the label: regions[1].box: expected x0 < x1 and y0 < y1 (left before right, top above bottom, and not empty), got [0.6, 0.2, 0.5, 0.6].',
    );
    expect(await save([{ ...BOX, box: [0.1, 0.2, 1.5, 0.6] }])).toBe('Could not save the label: regions[0].box: expected every corner in fractions of the image, from 0 to 1, got [0.1, 0.2, 1.5, 0.6].');
    expect(await save([{ ...POINT, point: undefined }])).toBe('Could not save the label: regions[0].point: expected a point [x, y] in fractions of the image (0 to 1), got nothing.');
    expect(await save([{ ...ABSENT, box: [0, 0, 1, 1] }])).toBe('Could not save the label: regions[0].box: expected no box in a mark of kind "absent" (a box is for kind "box").');
    expect(await save([{ ...BOX, tag: 'x'.repeat(41) }])).toBe('Could not save the label: regions[0].tag: expected a tag of at most 40 characters, got 41.');
    expect(await save([{ ...BOX, tag: ' ' }])).toBe('Could not save the label: regions[0].tag: expected a tag: 1 to 40 characters, got " ".');
    expect(await save([{ ...BOX, note: 'n'.repeat(2001) }])).toBe('Could not save the label: regions[0].note: expected a note of at most 2,000 characters, got 2,001.');
    expect(await save([{ ...BOX, image: 'cat.png' }])).toBe('Could not save the label: regions[0].image: expected the image\'s sha256 (64 lowercase hex digits), got "cat.png".');
    expect(await save([{ ...BOX, kind: 'circle' }])).toMatch(/^Could not save the label: regions\[0\]\.kind: expected a kind: "box", "point" or "absent" \(not present\), got "circle"/);
    expect(await save([{ ...BOX, colour: 'red' }])).toMatch(/^Could not save the label: regions\[0\]: expected only "image", "at", "kind", "box", "point", "tag", "note" in a region mark, not "colour"\.$/);
    expect(await save(Array.from({ length: 201 }, () => BOX))).toBe('Could not save the label: regions: expected at most 200 region marks in one revision, got 201.');
    expect(await save([BOX, { ...BOX, kind: 'absent', box: undefined }])).toBe(
      'Could not save the label: regions[1].kind: expected "not present" only for a tag not marked on the same image, but regions[0] marks "artifact" there: take one of the two out.',
    );
    // The item does not hold the image there.
    expect(await save([{ ...BOX, at: 1 }])).toBe(
      `Could not save the region marks on item ${pair}: regions[0].image: response B holds no image bbbbbbbbbbbb… (its image is cccccccccccc…). Mark an image the item shows, or leave the mark out.`,
    );
    expect(await save([BOX, { ...POINT, image: THIRD_IMG }])).toBe(
      `Could not save the region marks on item ${pair}: regions[1].image: the prompt holds no image dddddddddddd… (its image is aaaaaaaaaaaa…). Mark an image the item shows, or leave the mark out.`,
    );
    expect(await save([{ ...BOX, at: 2 }])).toBe(
      `Could not save the region marks on item ${pair}: regions[0].at: the item has 2 responses (A, B), not a response 2 (responses count from 0). Mark an image the item shows, or leave the mark out.`,
    );
    expect(db.prepare('SELECT COUNT(*) FROM label').pluck().get()).toBe(0);
    // 200 marks are fine.
    await service.dispatch('saveLabel', { project: 'p', annotator: 'ann', itemId: pair, choice: 'A', shownOrder: [0, 1], regions: Array.from({ length: 200 }, () => BOX) });
  });

  it('save marks changed after the decision as a new revision of the same decision', async () => {
    const { db, service, pair, three } = setup();
    expect(await service.dispatch('saveRegions', { project: 'p', annotator: 'ann', itemId: pair, task: 'pairwise', regions: [BOX] })).toBeNull();
    const first = await service.dispatch('saveLabel', { project: 'p', annotator: 'ann', itemId: pair, choice: 'B', strength: 3, shownOrder: [1, 0], rationale: 'the right one has the cat' });
    const marked = await service.dispatch('saveRegions', { project: 'p', annotator: 'ann', itemId: pair, task: 'pairwise', regions: [BOX, ABSENT] });
    expect(marked!.id).not.toBe(first.id);
    expect({ choice: marked!.choice, strength: marked!.strength, shownOrder: marked!.shownOrder, rationale: marked!.body.rationale }).toEqual({ choice: 'B', strength: 3, shownOrder: [1, 0], rationale: 'the right one has the cat' });
    expect(marked!.body.regions).toEqual([BOX, ABSENT]);
    // The same marks again store nothing new; none takes them all out.
    expect((await service.dispatch('saveRegions', { project: 'p', annotator: 'ann', itemId: pair, task: 'pairwise', regions: [BOX, ABSENT] }))!.id).toBe(marked!.id);
    const cleared = await service.dispatch('saveRegions', { project: 'p', annotator: 'ann', itemId: pair, task: 'pairwise', regions: [] });
    expect(cleared!.body.regions).toBeUndefined();
    expect(cleared!.choice).toBe('B');
    expect((await service.dispatch('progress', { project: 'p', annotator: 'ann' })).labeledByMe).toBe(1);
    // A ranking keeps its groups.
    await service.dispatch('saveRanking', { project: 'p', annotator: 'ann', itemId: three, ranking: [[1], [0, 2]], shownOrder: [2, 0, 1] });
    const ranked = await service.dispatch('saveRegions', { project: 'p', annotator: 'ann', itemId: three, task: 'ranking', regions: [{ ...BOX, at: 2, image: THIRD_IMG }] });
    expect({ ranking: ranked!.ranking, shownOrder: ranked!.shownOrder, task: ranked!.task }).toEqual({ ranking: [[1], [0, 2]], shownOrder: [2, 0, 1], task: 'ranking' });
    expect(db.prepare("SELECT COUNT(*) FROM label WHERE task = 'pairwise'").pluck().get()).toBe(3);
    expect(await refusal(service.dispatch('saveRegions', { project: 'p', annotator: 'ann', itemId: pair, task: 'pairwise', regions: [{ ...BOX, image: THIRD_IMG }] }))).toMatch(
      /^Could not save the region marks on item \d+: regions\[0\]\.image: response A holds no image dddddddddddd…/,
    );
  });

  it('travel in the labels format both ways, byte for byte', async () => {
    const dir = tempDir();
    const a = setup(join(dir, 'a.db'));
    await a.service.dispatch('saveLabel', { project: 'p', annotator: 'ann', itemId: a.pair, choice: 'A', shownOrder: [0, 1], regions: [BOX, POINT, ABSENT] });
    await a.service.dispatch('saveVerdict', { project: 'p', annotator: 'ann', itemId: a.one, verdict: 'good', regions: [{ ...BOX, note: 'ünïcødé “quotes” \u2028 and a\nnew line' }] });
    const first = join(dir, 'a.labels.jsonl');
    await exportProject(a.db, { project: 'p', format: 'labels', out: first });
    const b = setup(join(dir, 'b.db'));
    const merged = await importLabelsFile(b.db, { path: first, project: 'p' });
    expect(merged.added).toBe(2);
    const second = join(dir, 'b.labels.jsonl');
    await exportProject(b.db, { project: 'p', format: 'labels', out: second });
    const text = readFileSync(first, 'utf8');
    expect(readFileSync(second, 'utf8')).toBe(text);
    const lines = text.trim().split('\n').map((l) => JSON.parse(l) as { regions?: RegionMark[] });
    expect(lines.map((l) => l.regions)).toEqual([[BOX, POINT, ABSENT], [{ ...BOX, note: 'ünïcødé “quotes” \u2028 and a\nnew line' }]]);
  });

  it('refuse bad marks in a labels file, naming FILE:LINE, the mark and the field, and merge nothing', async () => {
    const dir = tempDir();
    const { db } = setup(join(dir, 'a.db'));
    const base = { annotator: 'bob', created_at: '2026-11-02T10:00:00.000Z', item: 'pair', task: 'pairwise', choice: 'A', shown_order: [0, 1] };
    const lines = [
      { ...base, id: 'r1', regions: [BOX] },
      { ...base, id: 'r2', regions: [{ ...BOX, box: [0.5, 0.5, 0.5, 0.9] }] },
      { ...base, id: 'r3', regions: [POINT, { ...BOX, image: THIRD_IMG }] },
      { ...base, id: 'r4', regions: 'a box' },
    ];
    const file = join(dir, 'bob.jsonl');
    writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    db.close();
    const err: string[] = [];
    expect(await runCli(['labels', 'import', file, '--project', 'p', '--db', join(dir, 'a.db')], { out: () => undefined, err: (l) => err.push(l) })).toBe(1);
    const error = err.join('\n');
    expect(error).toContain(`${file}:2: regions[0].box: expected x0 < x1 and y0 < y1 (left before right, top above bottom, and not empty), got [0.5, 0.5, 0.5, 0.9]`);
    expect(error).toContain(`${file}:3: regions[1].image: response A holds no image dddddddddddd… (its image is bbbbbbbbbbbb…)`);
    expect(error).toContain(`${file}:4: regions: expected a list of region marks, got "a box"`);
    expect(error).not.toContain(`${file}:1:`);
    expect(openDb(join(dir, 'a.db')).prepare('SELECT COUNT(*) FROM label').pluck().get()).toBe(0);
  });

  it('give the review report region agreement, and the adjudication view each person\'s marks', async () => {
    const { service, pair } = setup();
    const before = await service.dispatch('reviewReport', { project: 'p' });
    expect(before.regions.boxes).toEqual({ value: null, n: 0, reason: 'no image was boxed by two or more people' });
    // Left image: ann [0,0,0.5,0.5], bob [0.25,0.25,0.75,0.75]: IoU 0.0625 / 0.4375 = 1/7 (one image).
    // Right image: ann says no artifact, bob boxes one there: 0 of 1 pair agree (one image-tag).
    const ann: RegionMark[] = [{ ...BOX, box: [0, 0, 0.5, 0.5] }, ABSENT];
    const bob: RegionMark[] = [{ ...BOX, box: [0.25, 0.25, 0.75, 0.75] }, { ...ABSENT, kind: 'box', box: [0.1, 0.1, 0.2, 0.2] }];
    await service.dispatch('saveLabel', { project: 'p', annotator: 'ann', itemId: pair, choice: 'A', shownOrder: [0, 1], regions: ann });
    await service.dispatch('saveLabel', { project: 'p', annotator: 'bob', itemId: pair, choice: 'B', shownOrder: [1, 0], regions: bob });
    const report = await service.dispatch('reviewReport', { project: 'p' });
    expect(report.regions.boxes.value).toBeCloseTo(1 / 7, 12);
    expect(report.regions.boxes.n).toBe(1);
    expect(report.regions.absent).toEqual({ value: 0, n: 1, reason: null });
    const view = await service.dispatch('adjudicationView', { project: 'p', itemId: pair, task: 'pairwise' });
    expect(view.labels.map((l) => [l.annotator, l.regions])).toEqual([
      ['ann', ann],
      ['bob', bob],
    ]);
  });
});
