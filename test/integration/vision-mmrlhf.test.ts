// MM-RLHF's pair shape (issue 15, helper J) on a real SQLite file and a real image store: dpo_pairs.jsonl /
// mm_reward_bench.jsonl lines (test/fixtures/formats/vision/mm-rlhf.jsonl, written by hand from the
// readers in github.com/Kwai-YuanQi/MM-RLHF; its SOURCES.md names them) with images at paths relative to
// the dataset folder, read from the file's own folder or the images folder given; the file's choice
// (`is_tie` a tie) and its critiques (chosen_reason / rejected_reason) as the source annotator's labels;
// an export in the same shape with the images beside it, which imports again with the same image hashes
// and labels. The images are made here by sharp (a few pixels each).
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ArbiterError } from '../../electron/core/base/errors';
import { detectFormat, exportProject, importFile, importLabelsLines } from '../../electron/core/formats';
import { openDb, type Db } from '../../electron/core/store/db';
import type { Content } from '../../shared/domain';
import { imagesOf, type ImagePart } from '../../shared/images';
import { tempDir } from '../helpers/tmp';

const FIXTURE = join(__dirname, '../fixtures/formats/vision/mm-rlhf.jsonl');
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
const linesOf = (path: string) => readFileSync(path, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, unknown>);
const fixtureRows = () => linesOf(FIXTURE);

let red: Buffer, jpeg: Buffer;
beforeAll(async () => {
  red = await sharp({ create: { width: 3, height: 2, channels: 3, background: '#d00' } }).png().toBuffer();
  jpeg = await sharp({ create: { width: 5, height: 4, channels: 3, background: '#fa0' } }).jpeg().toBuffer();
});

let dir: string;
let db: Db;
beforeEach(() => {
  dir = tempDir('arbiter-vision-mmrlhf-');
  db = openDb(join(dir, 'arbiter.db'));
  return () => db.close();
});

/** The fixture's images, at the paths its lines name, under `root` (the MM-RLHF folder). */
function writeImages(root: string) {
  for (const [path, bytes] of [
    ['short/vqa/0153.png', red],
    ['mcq/ai2d/0042.jpg', jpeg],
  ] as const) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), bytes);
  }
}

/** The fixture as dpo_pairs.jsonl in the MM-RLHF folder, beside its image folders. */
function datasetFolder(): string {
  const root = join(dir, 'MM-RLHF');
  writeImages(root);
  copyFileSync(FIXTURE, join(root, 'dpo_pairs.jsonl'));
  return join(root, 'dpo_pairs.jsonl');
}

interface StoredItem {
  id: number;
  externalId: string | null;
  prompt: Content;
  responses: Content[];
  metadata: Record<string, unknown>;
}

function items(project = 'p'): StoredItem[] {
  const rows = db.prepare('SELECT i.id, i.external_id, i.prompt, i.metadata FROM item i JOIN project p ON p.id = i.project_id WHERE p.name = ? ORDER BY i.seq').all(project) as { id: number; external_id: string | null; prompt: string; metadata: string }[];
  const responses = db.prepare('SELECT content FROM response WHERE item_id = ? ORDER BY idx').pluck();
  return rows.map((row) => ({
    id: row.id,
    externalId: row.external_id,
    prompt: JSON.parse(row.prompt) as Content,
    responses: (responses.all(row.id) as string[]).map((c) => JSON.parse(c) as Content),
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
  }));
}

const hashes = (item: StoredItem) => imagesOf(item.prompt, 'prompt').map((p) => (p.image as ImagePart).image!.sha256);

/** The source annotator's current choice and critiques per item, in item order. */
function sourceLabels(project = 'p') {
  const head = db.prepare(
    `SELECT l.choice, l.body FROM label_head h JOIN label l ON l.seq = h.label_seq JOIN annotator a ON a.id = h.annotator_id
     WHERE h.item_id = ? AND a.name = 'source' AND h.task = ?`,
  );
  return items(project).map((item) => {
    const choice = (head.get(item.id, 'pairwise') as { choice: string } | undefined)?.choice ?? null;
    const critique = head.get(item.id, 'critique') as { body: string } | undefined;
    return { choice, critique: critique ? (JSON.parse(critique.body) as { critique: unknown }).critique : null };
  });
}

const EXPECTED_LABELS = [
  { choice: 'A', critique: { A: 'Correct: the only shape in the image is a red square.', B: 'Wrong colour: the square is red, not blue.' } },
  { choice: 'A', critique: { A: 'Correct: the only shape in the image is a red square.', B: 'Denies what the image plainly shows.' } },
  { choice: 'tie', critique: { A: 'Right, and in the format asked for.', B: "Right, with the option's text as well." } },
];

describe('MM-RLHF import', () => {
  it('reads images relative to the file’s own folder; the choice, ties and critiques become the source’s labels', async () => {
    const path = datasetFolder();
    expect(await importFile(db, { path, project: 'p', createProject: true, format: 'auto' })).toMatchObject({ format: 'mm-rlhf', items: 3, rejected: 0 });
    const stored = items();
    expect(stored.map((i) => i.externalId)).toEqual(['short_vqa_0153', 'short_vqa_0153', 'mcq_ai2d_0042']);
    expect(stored.map(hashes)).toEqual([[sha(red)], [sha(red)], [sha(jpeg)]]);
    // The image first, then the question, in one user turn; the responses as text, chosen first.
    expect(stored[0]!.prompt).toMatchObject([{ role: 'user', content: [{ type: 'image', origin: { kind: 'path', path: 'short/vqa/0153.png' } }, { type: 'text', text: 'What colour is the square in the picture?' }] }]);
    expect(stored[2]!.responses).toEqual(['B', 'B. pupa']);
    expect(sourceLabels()).toEqual(EXPECTED_LABELS);
    // What Arbiter does not store elsewhere stays in its place.
    expect(stored[0]!.metadata.mm_rlhf).toEqual({ id: null, prompt: null, chosen: null, rejected: null, chosen_reason: null, rejected_reason: null, image: null, ls_factor: 0.75 });
  });

  it('reads them from the images folder the user gives, and names the line and path of a missing one', async () => {
    writeImages(join(dir, 'MM-RLHF'));
    mkdirSync(join(dir, 'lists'));
    const path = join(dir, 'lists', 'pairs.jsonl');
    copyFileSync(FIXTURE, path);
    const refused = (await importFile(db, { path, project: 'bad', createProject: true, format: 'mm-rlhf' }).catch((e: unknown) => e)) as ArbiterError;
    expect(refused).toBeInstanceOf(ArbiterError);
    expect(refused.details).toEqual([
      { line: 1, reason: expect.stringMatching(/^prompt message 1, part 1: short\/vqa\/0153\.png: no such file in .*lists \(the file’s folder\)$/) },
      { line: 2, reason: expect.stringContaining('short/vqa/0153.png: no such file') },
      { line: 3, reason: expect.stringContaining('mcq/ai2d/0042.jpg: no such file') },
    ]);
    expect(await importFile(db, { path, project: 'p', createProject: true, format: 'auto', imagesDir: join(dir, 'MM-RLHF') })).toMatchObject({ format: 'mm-rlhf', items: 3 });
    expect(items().map(hashes)).toEqual([[sha(red)], [sha(red)], [sha(jpeg)]]);
  });

  it('names the line and the field of a malformed record; a video line is refused, and left out with --skip-invalid', async () => {
    const path = datasetFolder();
    const [first, , third] = fixtureRows();
    const { image: _image, ...noImage } = first!;
    writeFileSync(
      path,
      jsonl([
        first,
        { ...first, chosen: 5 },
        { ...third, is_tie: 'yes' },
        { ...noImage, id: 'video_0001', video: 'video/0001' },
        { ...first, rejected_reason: ['not', 'text'] },
      ]),
    );
    const all = (await importFile(db, { path, project: 'bad', createProject: true, format: 'mm-rlhf' }).catch((e: unknown) => e)) as ArbiterError;
    expect(all.message).toMatch(/4 invalid line\(s\) in .*dpo_pairs\.jsonl; nothing was imported/);
    expect(all.details).toEqual([
      { line: 2, reason: 'chosen: expected a string, got number' },
      { line: 3, reason: 'is_tie: expected true or false, got "yes"' },
      { line: 4, reason: 'video: "video/0001" is a video (a folder of frames); Arbiter imports MM-RLHF\'s image lines only. Leave the video lines out with --skip-invalid' },
      { line: 5, reason: 'rejected_reason: expected a string (the critique of the rejected response), got a list' },
    ]);
    const skipped = await importFile(db, { path, project: 'p', createProject: true, format: 'mm-rlhf', skipInvalid: true });
    expect(skipped).toMatchObject({ items: 1, rejected: 4 });
  });
});

describe('MM-RLHF detection', () => {
  it('is told by its critiques beside prompt / chosen / rejected and an image or a video', () => {
    const [first] = fixtureRows();
    expect(detectFormat([first])).toMatchObject({ format: 'mm-rlhf' });
    const { image: _image, ...noImage } = first!;
    expect(detectFormat([{ ...noImage, video: 'video/0001' }]).format).toBe('mm-rlhf');
    // Without the critiques the line is TRL's vision shape (`image` a column): that reads it too.
    expect(detectFormat([{ prompt: 'p', chosen: 'a', rejected: 'b', image: 'x.png' }]).format).toBe('trl-vision');
    // RLAIF-V (question) and text TRL stay what they were.
    expect(detectFormat([{ question: 'q', chosen: 'a', rejected: 'b', image: 'x.png' }]).format).toBe('rlaif-v');
    expect(detectFormat([{ prompt: 'p', chosen: 'a', rejected: 'b' }]).format).toBe('trl');
  });
});

describe('MM-RLHF export', () => {
  it('writes the lines back with the images beside the file; the export imports again with the same hashes and labels', async () => {
    await importFile(db, { path: datasetFolder(), project: 'p', createProject: true, format: 'auto' });
    const out = join(dir, 'out', 'pairs.jsonl');
    const summary = await exportProject(db, { project: 'p', format: 'mm-rlhf', out });
    expect(summary.written).toBe(3);
    const lines = linesOf(out);
    const image = (bytes: Buffer, ext: string) => `pairs_images/${sha(bytes)}.${ext}`;
    expect(lines).toEqual(
      fixtureRows().map((row, i) => ({ ...row, image: i < 2 ? image(red, 'png') : image(jpeg, 'jpg') })),
    );
    // Each line's fields in the file's own order.
    expect(lines.map((l) => Object.keys(l))).toEqual(fixtureRows().map((r) => Object.keys(r)));
    expect(readFileSync(join(dir, 'out', image(jpeg, 'jpg'))).equals(jpeg)).toBe(true);
    expect(summary.note).toContain('2 images were written beside the file, in pairs_images/');

    expect(await importFile(db, { path: out, project: 'q', createProject: true, format: 'auto' })).toMatchObject({ format: 'mm-rlhf', items: 3, rejected: 0 });
    expect(items('q').map(hashes)).toEqual(items().map(hashes));
    expect(sourceLabels('q')).toEqual(EXPECTED_LABELS);
  });

  it('a person’s choice and critique decide; values bound to the file’s order go when the order changes', async () => {
    await importFile(db, { path: datasetFolder(), project: 'p', createProject: true, format: 'auto' });
    const label = (task: string, extra: Record<string, unknown>, n: number) =>
      JSON.stringify({ id: `0191d5a0-7c1e-7000-8000-00000000c00${n}`, item: 'mcq_ai2d_0042', annotator: 'alice', annotator_kind: 'human', task, created_at: '2026-02-01T00:00:00.000Z', ...extra });
    const added = await importLabelsLines(db, { project: 'p', fileName: 'alice.jsonl', lines: [label('pairwise', { choice: 'B' }, 1), label('critique', { critique: { B: 'Complete: names the stage as well as its letter.' } }, 2)] });
    expect(added.added).toBe(2);
    const out = join(dir, 'out', 'decided.jsonl');
    await exportProject(db, { project: 'p', format: 'mm-rlhf', out });
    const [, , line] = linesOf(out);
    expect(line).toEqual({
      id: 'mcq_ai2d_0042',
      prompt: fixtureRows()[2]!.prompt,
      chosen: 'B. pupa',
      rejected: 'B',
      // B's critique is alice's; A's is still the file's (nobody wrote another).
      chosen_reason: 'Complete: names the stage as well as its letter.',
      rejected_reason: 'Right, and in the format asked for.',
      image: `decided_images/${sha(jpeg)}.jpg`,
      is_tie: false,
    });
    expect(existsSync(join(dir, 'out', 'decided_images', `${sha(red)}.png`))).toBe(true);
  });

  it('a list of images (train_dpo.py takes one) imports in order and is written back as a list', async () => {
    const path = datasetFolder();
    const [first] = fixtureRows();
    writeFileSync(path, jsonl([{ ...first, image: ['short/vqa/0153.png', 'mcq/ai2d/0042.jpg'] }]));
    expect(await importFile(db, { path, project: 'p', createProject: true, format: 'auto' })).toMatchObject({ format: 'mm-rlhf', items: 1 });
    expect(items().map(hashes)).toEqual([[sha(red), sha(jpeg)]]);
    const out = join(dir, 'out', 'two.jsonl');
    await exportProject(db, { project: 'p', format: 'mm-rlhf', out });
    expect(linesOf(out)[0]!.image).toEqual([`two_images/${sha(red)}.png`, `two_images/${sha(jpeg)}.jpg`]);
    expect(await importFile(db, { path: out, project: 'q', createProject: true, format: 'auto' })).toMatchObject({ items: 1 });
    expect(items('q').map(hashes)).toEqual([[sha(red), sha(jpeg)]]);
  });

  it('an item from another format gives one line per ranked pair, all with its id; one without an image is left out, counted', async () => {
    const root = join(dir, 'vlrb');
    mkdirSync(root);
    writeFileSync(join(root, 'a.png'), red);
    const path = join(root, 'data.jsonl');
    writeFileSync(
      path,
      jsonl([
        { id: 'three', image_path: 'a.png', query: 'Which is right?', response: ['x', 'y', 'z'], human_ranking: [2, 0, 1] },
      ]),
    );
    await importFile(db, { path, project: 'p', createProject: true, format: 'vl-rewardbench' });
    writeFileSync(join(root, 'text.jsonl'), jsonl([{ prompt: 'No picture here.', chosen: 'a', rejected: 'b' }]));
    await importFile(db, { path: join(root, 'text.jsonl'), project: 'p', format: 'trl' });
    const out = join(dir, 'out', 'ranked.jsonl');
    const summary = await exportProject(db, { project: 'p', format: 'mm-rlhf', out });
    expect(linesOf(out)).toEqual([
      { id: 'three', prompt: 'Which is right?', image: `ranked_images/${sha(red)}.png`, chosen: 'y', rejected: 'z' },
      { id: 'three', prompt: 'Which is right?', image: `ranked_images/${sha(red)}.png`, chosen: 'y', rejected: 'x' },
      { id: 'three', prompt: 'Which is right?', image: `ranked_images/${sha(red)}.png`, chosen: 'z', rejected: 'x' },
    ]);
    expect(summary.note).toContain('1 item was left out: the prompt holds no image (#2)');
  });
});
