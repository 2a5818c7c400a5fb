// The vision benchmarks' shapes on a real SQLite file and a real image store (issue 15, helper F): each
// imports (items, images stored by sha256, the file's preference as the source annotator's label), exports
// in its own shape (images beside the file, Parquet bytes, data URLs), and that export imports again with
// the same image hashes and the same labels. The records are written here by hand from each format's own
// documentation, named above each one; the images are made here by sharp (a few pixels each).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import sharp from 'sharp';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ArbiterError } from '../../electron/core/base/errors';
import { detectFormat, exportProject, importFile, type ExportOptions } from '../../electron/core/formats';
import { parquetChunks } from '../../electron/core/formats/sources/parquet';
import { HF_IMAGE, HF_STRING, HfParquetWriter } from '../../electron/core/formats/vision/hfImage';
import { imageFile, imageStoreOf } from '../../electron/core/images/store';
import { openDb, type Db } from '../../electron/core/store/db';
import type { ExportFormat, ImportFormat } from '../../shared/formatNames';
import { imagesOf, type ImagePart } from '../../shared/images';
import { IMAGE_GENERATION_RUBRIC } from '../../shared/rubricTemplates';
import { ArbiterService } from '../../electron/core/service/index';
import type { Content } from '../../shared/domain';
import { tempDir } from '../helpers/tmp';

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
const linesOf = (path: string) => readFileSync(path, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, unknown>);

/** Four tiny images of different colours and kinds. */
let red: Buffer, green: Buffer, blue: Buffer, jpeg: Buffer;
beforeAll(async () => {
  const make = (background: string, width = 3, height = 2) => sharp({ create: { width, height, channels: 3, background } });
  red = await make('#d00').png().toBuffer();
  green = await make('#0a0', 4, 3).png().toBuffer();
  blue = await make('#00c', 2, 5).webp({ lossless: true }).toBuffer();
  jpeg = await make('#fa0', 5, 4).jpeg().toBuffer();
});

let dir: string;
let db: Db;
beforeEach(() => {
  dir = tempDir('arbiter-vision-formats-');
  db = openDb(join(dir, 'arbiter.db'));
  return () => db.close();
});

async function load(path: string, project = 'p', format: ImportFormat | 'auto' = 'auto', extra: { imagesDir?: string } = {}) {
  return importFile(db, { path, project, createProject: true, format, ...extra });
}

async function exported(format: ExportFormat, name: string, options: Partial<ExportOptions> = {}) {
  const out = join(dir, 'out', name);
  const summary = await exportProject(db, { project: 'p', format, out, ...options });
  return { out, summary };
}

interface StoredItem {
  externalId: string | null;
  prompt: Content;
  responses: Content[];
  models: (string | null)[];
}

function items(project = 'p'): StoredItem[] {
  const rows = db.prepare('SELECT i.id, i.external_id, i.prompt FROM item i JOIN project p ON p.id = i.project_id WHERE p.name = ? ORDER BY i.seq').all(project) as { id: number; external_id: string | null; prompt: string }[];
  const responses = db.prepare('SELECT content, model FROM response WHERE item_id = ? ORDER BY idx');
  return rows.map((row) => {
    const rs = responses.all(row.id) as { content: string; model: string | null }[];
    return { externalId: row.external_id, prompt: JSON.parse(row.prompt) as Content, responses: rs.map((r) => JSON.parse(r.content) as Content), models: rs.map((r) => r.model) };
  });
}

/** Every image's sha256 of an item, prompt first, in reading order. */
function hashes(item: StoredItem): string[] {
  return [...imagesOf(item.prompt, 'prompt'), ...item.responses.flatMap((r, i) => imagesOf(r, { response: i } as never))].map((p) => (p.image as ImagePart).image!.sha256);
}

/** The source annotator's current labels of a project's items, in item order: choice or ranking. */
function sourceLabels(project = 'p') {
  return db
    .prepare(
      `SELECT i.seq, l.task, l.choice, l.ranking FROM label_head h JOIN label l ON l.seq = h.label_seq JOIN annotator a ON a.id = h.annotator_id
       JOIN item i ON i.id = h.item_id JOIN project p ON p.id = i.project_id WHERE p.name = ? AND a.name = 'source' AND h.task IN ('pairwise', 'ranking') ORDER BY i.seq`,
    )
    .all(project)
    .map((r) => {
      const row = r as { task: string; choice: string | null; ranking: string | null };
      return row.task === 'ranking' ? JSON.parse(row.ranking!) : row.choice;
    });
}

const stored = (hash: string) => readFileSync(imageFile(imageStoreOf(db), hash));

// ---------------------------------------------------------------------------------------------------

describe('VL-RewardBench', () => {
  // Records as github.com/vl-rewardbench/VL_RewardBench data/data.jsonl has them (image_path relative to
  // the data folder; human_ranking gives each response its rank, 0 = best, per the dataset card), and one
  // with three responses to carry a ranking.
  function writeFixture() {
    mkdirSync(join(dir, 'data', 'images', 'rlaif-v'), { recursive: true });
    writeFileSync(join(dir, 'data', 'images', 'rlaif-v', 'RLAIF-V-14.png'), red);
    writeFileSync(join(dir, 'data', 'images', 'rlaif-v', 'RLAIF-V-276.jpg'), jpeg);
    const rows = [
      {
        id: 'RLAIF-V-14',
        image_path: 'images/rlaif-v/RLAIF-V-14.png',
        query: 'Describe the image in detail.',
        response: ['A red square on a table.', 'A kitchen with a blue plate.'],
        human_ranking: [1, 0],
        models: ['OmniLMM-12B', 'OmniLMM-12B'],
        judge: 'human',
        rationale: null,
        query_source: 'COCO',
        meta: { original_dataset: 'COCO' },
        human_error_analysis: ['hallucination'],
      },
      {
        id: 'RLAIF-V-276',
        image_path: 'images/rlaif-v/RLAIF-V-276.jpg',
        query: 'what is the team the man in the blue shirt plays for?',
        response: ['the chunikin.', 'fukuoka softbank hawks.', 'I cannot tell.'],
        human_ranking: [2, 0, 1],
        models: ['m1', 'm2', 'm3'],
        judge: 'human',
        rationale: null,
        query_source: 'TextVQA',
        meta: { original_dataset: 'TextVQA' },
        human_error_analysis: ['recognition(text)'],
      },
    ];
    const path = join(dir, 'data', 'data.jsonl');
    writeFileSync(path, jsonl(rows));
    return { path, rows };
  }

  it('imports the image, the responses and the ranks; exports the same lines with the image beside; re-imports the same hashes and labels', async () => {
    const { path, rows } = writeFixture();
    const summary = await load(path);
    expect(summary).toMatchObject({ format: 'vl-rewardbench', items: 2, rejected: 0 });
    const [first, second] = items();
    expect(first!.prompt).toMatchObject([{ role: 'user', content: [{ type: 'image', origin: { kind: 'path', path: 'images/rlaif-v/RLAIF-V-14.png' } }, { type: 'text', text: 'Describe the image in detail.' }] }]);
    expect(hashes(first!)).toEqual([sha(red)]);
    expect(hashes(second!)).toEqual([sha(jpeg)]);
    expect(stored(sha(red)).equals(red)).toBe(true);
    expect(first!.responses).toEqual(rows[0]!.response);
    expect(first!.models).toEqual(['OmniLMM-12B', 'OmniLMM-12B']);
    // [1, 0]: the second response is better; [2, 0, 1]: B, then C, then A.
    expect(sourceLabels()).toEqual(['B', [[1], [2], [0]]]);

    const { out, summary: written } = await exported('vl-rewardbench', 'vlrb.jsonl');
    expect(written.written).toBe(2);
    const lines = linesOf(out);
    expect(lines.map((l) => l.image_path)).toEqual([`vlrb_images/${sha(red)}.png`, `vlrb_images/${sha(jpeg)}.jpg`]);
    // Everything else as the file had it, in its order.
    rows.forEach((row, i) => expect(lines[i]).toEqual({ ...row, image_path: lines[i]!.image_path }));
    expect(Object.keys(lines[0]!)).toEqual(Object.keys(rows[0]!));
    expect(readFileSync(join(dir, 'out', lines[1]!.image_path as string)).equals(jpeg)).toBe(true);
    expect(written.note).toContain('2 images were written beside the file, in vlrb_images/');

    expect(await load(out, 'q')).toMatchObject({ format: 'vl-rewardbench', items: 2, rejected: 0 });
    expect(items('q').map(hashes)).toEqual([[sha(red)], [sha(jpeg)]]);
    expect(sourceLabels('q')).toEqual(sourceLabels());
  });

  it('reads the Hub copy, whose image is a Parquet Image feature', async () => {
    // MMInstruction/VL-RewardBench's features: id, query, response (list), image (Image), human_ranking, models…
    const path = join(dir, 'test.parquet');
    const writer = await HfParquetWriter.open(path, { id: HF_STRING, query: HF_STRING, response: { kind: 'list', of: HF_STRING }, image: HF_IMAGE, human_ranking: { kind: 'list', of: { kind: 'int64' } }, models: { kind: 'list', of: HF_STRING } });
    await writer.write({ id: 'wildvision-1', query: 'What breed?', response: ['A corgi.', 'A beagle.'], image: { bytes: green, path: 'wv1.png' }, human_ranking: [0, 1], models: ['a', 'b'] });
    await writer.commit();
    expect(await load(path)).toMatchObject({ format: 'vl-rewardbench', items: 1 });
    expect(hashes(items()[0]!)).toEqual([sha(green)]);
    expect(sourceLabels()).toEqual(['A']);
    const { out } = await exported('vl-rewardbench', 'hub.jsonl');
    const [line] = linesOf(out);
    expect(line).toMatchObject({ id: 'wildvision-1', image_path: `hub_images/${sha(green)}.png`, human_ranking: [0, 1] });
    expect(line).not.toHaveProperty('image');

    // To a .parquet output, the Hub's own shape: the image an Image cell holding the bytes as stored.
    const { out: parquet } = await exported('vl-rewardbench', 'hub.parquet');
    const rows: Record<string, unknown>[] = [];
    for await (const chunk of parquetChunks(parquet, createHash('sha256'))) if ('lines' in chunk) rows.push(...chunk.lines.map((l) => JSON.parse(l) as Record<string, unknown>));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: 'wildvision-1', query: 'What breed?', response: ['A corgi.', 'A beagle.'], human_ranking: [0, 1], models: ['a', 'b'], image: { path: 'wv1.png' } });
    expect(sha(Buffer.from((rows[0]!.image as { bytes: string }).bytes, 'base64'))).toBe(sha(green));
    expect(await load(parquet, 'q')).toMatchObject({ format: 'vl-rewardbench', items: 1 });
    expect(items('q').map(hashes)).toEqual([[sha(green)]]);
    expect(sourceLabels('q')).toEqual(['A']);
  });

  it('names the line and the field of a malformed record', async () => {
    const { rows } = writeFixture();
    const path = join(dir, 'data', 'bad.jsonl');
    writeFileSync(path, jsonl([rows[0], { ...rows[1], human_ranking: [0, 1] }, { ...rows[0], id: 'x', image_path: 'images/missing.png' }]));
    const all = (await load(path, 'bad', 'vl-rewardbench').catch((e: unknown) => e)) as ArbiterError;
    expect(all.message).toMatch(/2 invalid line\(s\) in .*bad\.jsonl; nothing was imported/);
    expect(all.details).toEqual([
      { line: 2, reason: 'human_ranking: 2 ranks for 3 responses; give one rank per response (0 = best)' },
      { line: 3, reason: expect.stringMatching(/^prompt message 1, part 1: images\/missing\.png: no such file in .*data \(the file’s folder\)$/) },
    ]);
    const skipped = await importFile(db, { path, project: 'bad2', createProject: true, format: 'vl-rewardbench', skipInvalid: true });
    expect(skipped.items).toBe(1);
    expect(skipped.errors.map((e) => [e.line, e.reason])).toEqual([
      [2, expect.stringContaining('human_ranking: 2 ranks for 3 responses')],
      [3, expect.stringContaining('images/missing.png')],
    ]);
  });
});

describe('Multimodal RewardBench', () => {
  // data/all_data.json of github.com/facebookresearch/multimodal_rewardbench: a JSON array of
  // {ID, Text, Image (relative to the data folder), Output1, Output2, Better, Category}, per its README
  // and scripts/1_run_model_as_judge_gpt4o.py ('B' if Better == 'Output2' else 'A').
  it('imports the array with its images; exports JSON Lines with Better and the images beside; re-imports the same', async () => {
    mkdirSync(join(dir, 'data', 'images', 'nocaps'), { recursive: true });
    writeFileSync(join(dir, 'data', 'images', 'nocaps', '13062.png'), green);
    writeFileSync(join(dir, 'data', 'images', 'nocaps', '7.webp'), blue);
    const rows = [
      { ID: 'nocaps_13062', Text: 'Please generate a detailed caption of this image.', Image: 'images/nocaps/13062.png', Output1: 'A green tile.', Output2: 'A teapot.', Better: 'Output1', Category: 'open_generation/correctness_task' },
      { ID: 'nocaps_7', Text: 'What colour is it?', Image: 'images/nocaps/7.webp', Output1: 'Red.', Output2: 'Blue.', Better: 'Output2', Category: 'vqa' },
    ];
    const path = join(dir, 'data', 'all_data.json');
    writeFileSync(path, JSON.stringify(rows, null, 2));
    expect(await load(path)).toMatchObject({ format: 'multimodal-rewardbench', items: 2, rejected: 0 });
    expect(items().map(hashes)).toEqual([[sha(green)], [sha(blue)]]);
    expect(sourceLabels()).toEqual(['A', 'B']);

    const { out, summary } = await exported('multimodal-rewardbench', 'mmrb.jsonl');
    expect(summary.written).toBe(2);
    const lines = linesOf(out);
    expect(lines).toEqual(rows.map((row, i) => ({ ...row, Image: `mmrb_images/${hashes(items()[i]!)[0]}.${i ? 'webp' : 'png'}` })));
    expect(readFileSync(join(dir, 'out', lines[1]!.Image as string)).equals(blue)).toBe(true);

    expect(await load(out, 'q')).toMatchObject({ format: 'multimodal-rewardbench', items: 2 });
    expect(items('q').map(hashes)).toEqual(items().map(hashes));
    expect(sourceLabels('q')).toEqual(['A', 'B']);
  });

  it('reads relative paths from the images folder the user gives', async () => {
    mkdirSync(join(dir, 'pics', 'images'), { recursive: true });
    writeFileSync(join(dir, 'pics', 'images', 'a.png'), red);
    const path = join(dir, 'mmrb.jsonl');
    writeFileSync(path, jsonl([{ ID: 'a', Text: 'Q?', Image: 'images/a.png', Output1: 'x', Output2: 'y', Better: 'Output2' }]));
    expect(await load(path, 'p', 'auto', { imagesDir: join(dir, 'pics') })).toMatchObject({ items: 1 });
    expect(hashes(items()[0]!)).toEqual([sha(red)]);
  });
});

describe('Pick-a-Pic', () => {
  // yuvalkirstain/pickapic_v2's features (its dataset card): caption, jpg_0 / jpg_1 (binary), label_0 /
  // label_1 (float64: 1/0, 0/1, or 0.5/0.5 for a tie, as PickScore's evaluation reads them), model_0 /
  // model_1, has_label, are_different, image uids and urls, ranking_id, user_id, num_example_per_prompt.
  function writeParquet() {
    const path = join(dir, 'train-00000-of-00001.parquet');
    const n = 4;
    const column = <T>(values: T[]) => values;
    const buffer = parquetWriteBuffer({
      columnData: [
        { name: 'are_different', data: column([true, true, true, true]), type: 'BOOLEAN' },
        { name: 'best_image_uid', data: column(['u0', 'u3', '', '']), type: 'STRING' },
        { name: 'caption', data: column(['a red fox in snow', 'a lighthouse at dusk', 'two cats', 'a bowl of fruit']), type: 'STRING' },
        { name: 'has_label', data: column([true, true, true, false]), type: 'BOOLEAN' },
        { name: 'image_0_uid', data: column(['u0', 'u2', 'u4', 'u6']), type: 'STRING' },
        { name: 'image_1_uid', data: column(['u1', 'u3', 'u5', 'u7']), type: 'STRING' },
        { name: 'jpg_0', data: column([red, jpeg, green, red]), type: 'BYTE_ARRAY' },
        { name: 'jpg_1', data: column([green, blue, blue, jpeg]), type: 'BYTE_ARRAY' },
        { name: 'label_0', data: column([1, 0, 0.5, null]), type: 'DOUBLE' },
        { name: 'label_1', data: column([0, 1, 0.5, null]), type: 'DOUBLE' },
        { name: 'model_0', data: column(['sdxl', 'sd-2.1', 'sdxl', 'sdxl']), type: 'STRING' },
        { name: 'model_1', data: column(['sd-1.5', 'sdxl', 'sd-2.1', 'sd-1.5']), type: 'STRING' },
        { name: 'ranking_id', data: column([11n, 12n, 13n, 14n]), type: 'INT64' },
        { name: 'num_example_per_prompt', data: column(Array<bigint>(n).fill(1n)), type: 'INT64' },
      ],
    });
    writeFileSync(path, Buffer.from(buffer));
    return path;
  }

  async function parquetRows(path: string) {
    const rows: Record<string, unknown>[] = [];
    for await (const chunk of parquetChunks(path, createHash('sha256'))) if ('lines' in chunk) rows.push(...chunk.lines.map((l) => JSON.parse(l) as Record<string, unknown>));
    return rows;
  }

  it('imports two generated images per caption and the labels (a tie too); exports Parquet with the same bytes; re-imports the same', async () => {
    const path = writeParquet();
    expect(await load(path)).toMatchObject({ format: 'pickapic', items: 4, rejected: 0 });
    const stored = items();
    expect(stored[0]!.prompt).toBe('a red fox in snow');
    expect(stored[0]!.responses[0]).toMatchObject([{ role: 'assistant', content: [{ type: 'image', origin: { kind: 'column', column: 'jpg_0' } }] }]);
    expect(stored.map(hashes)).toEqual([
      [sha(red), sha(green)],
      [sha(jpeg), sha(blue)],
      [sha(green), sha(blue)],
      [sha(red), sha(jpeg)],
    ]);
    expect(stored[1]!.models).toEqual(['sd-2.1', 'sdxl']);
    // The fourth row has no label (has_label false).
    expect(sourceLabels()).toEqual(['A', 'B', 'tie']);

    const { out, summary } = await exported('pickapic', 'pick.parquet');
    expect(summary.written).toBe(3);
    expect(summary.skipped.unlabeled).toBe(1);
    const rows = await parquetRows(out);
    expect(rows.map((r) => [r.caption, r.label_0, r.label_1, r.best_image_uid, r.model_0, r.model_1, r.ranking_id, r.has_label])).toEqual([
      ['a red fox in snow', 1, 0, 'u0', 'sdxl', 'sd-1.5', 11, true],
      ['a lighthouse at dusk', 0, 1, 'u3', 'sd-2.1', 'sdxl', 12, true],
      ['two cats', 0.5, 0.5, '', 'sdxl', 'sd-2.1', 13, true],
    ]);
    expect(rows.map((r) => [sha(Buffer.from(r.jpg_0 as string, 'base64')), sha(Buffer.from(r.jpg_1 as string, 'base64'))])).toEqual(stored.slice(0, 3).map(hashes));

    expect(await load(out, 'q')).toMatchObject({ format: 'pickapic', items: 3, rejected: 0 });
    expect(items('q').map(hashes)).toEqual(stored.slice(0, 3).map(hashes));
    expect(sourceLabels('q')).toEqual(['A', 'B', 'tie']);
  });

  it('writes JSON Lines with the bytes as base64 when the output is not .parquet, and reads it back', async () => {
    await load(writeParquet());
    const { out } = await exported('pickapic', 'pick.jsonl');
    const lines = linesOf(out);
    expect(lines).toHaveLength(3);
    expect(Buffer.from(lines[0]!.jpg_0 as string, 'base64').equals(red)).toBe(true);
    expect(await load(out, 'q')).toMatchObject({ format: 'pickapic', items: 3 });
    expect(sourceLabels('q')).toEqual(['A', 'B', 'tie']);
  });

  it('rates both generated images on the image-generation template aspects', async () => {
    await load(writeParquet());
    const service = new ArbiterService(db, { dbPath: join(dir, 'arbiter.db'), transport: 'http', version: 't', defaultAnnotator: 'ann' });
    const saved = await service.dispatch('saveRubric', { project: 'p', name: IMAGE_GENERATION_RUBRIC.name, criteria: IMAGE_GENERATION_RUBRIC.criteria });
    await service.dispatch('setRubricInForce', { project: 'p', name: 'image-generation' });
    const itemId = db.prepare('SELECT id FROM item ORDER BY seq').pluck().get() as number;
    const ratings = { A: { text_alignment: 5, fidelity: 4, aesthetics: 4, plausibility: 5, overall: 5 }, B: { text_alignment: 2, fidelity: 3, aesthetics: null, plausibility: 3, overall: 2 } };
    await service.dispatch('saveRatings', { project: 'p', annotator: 'alice', itemId, rubric: 'image-generation', version: saved.version, ratings });
    const sheet = await service.dispatch('getRatingSheet', { project: 'p', annotator: 'alice', itemId });
    expect(sheet.rubric?.criteria.map((c) => c.key)).toEqual(['text_alignment', 'fidelity', 'aesthetics', 'plausibility', 'overall']);
    expect(sheet.mine?.ratings).toEqual(ratings);
  });

  it('names the line and the fields of labels that say nothing', async () => {
    const path = join(dir, 'pick.jsonl');
    const b64 = (b: Buffer) => b.toString('base64');
    writeFileSync(path, jsonl([{ caption: 'ok', jpg_0: b64(red), jpg_1: b64(green), label_0: 1, label_1: 0 }, { caption: 'bad', jpg_0: b64(red), jpg_1: b64(green), label_0: 1, label_1: 1 }]));
    const failed = (await load(path).catch((e: unknown) => e)) as ArbiterError;
    expect(failed.details).toEqual([{ line: 2, reason: expect.stringContaining('label_0, label_1: 1 and 1 do not say which image is better') }]);
  });
});

describe('OpenAI image_url chats', () => {
  it('imports data URLs as stored images; exports data URLs of the same bytes; re-imports the same', async () => {
    const url = (b: Buffer, mime: string) => `data:${mime};base64,${b.toString('base64')}`;
    const rows = [
      {
        prompt: [{ role: 'user', content: [{ type: 'text', text: 'Which fruit is this?' }, { type: 'image_url', image_url: { url: url(jpeg, 'image/jpeg') } }] }],
        chosen: [{ role: 'assistant', content: 'An orange.' }],
        rejected: [{ role: 'assistant', content: 'A banana.' }],
      },
    ];
    const path = join(dir, 'chats.jsonl');
    writeFileSync(path, jsonl(rows));
    expect(await load(path)).toMatchObject({ format: 'openai-vision', items: 1 });
    expect(hashes(items()[0]!)).toEqual([sha(jpeg)]);
    expect(sourceLabels()).toEqual(['A']);
    const { out } = await exported('openai-vision', 'chats.jsonl');
    expect(linesOf(out)).toEqual(rows);
    expect(await load(out, 'q')).toMatchObject({ format: 'openai-vision', items: 1 });
    expect(items('q').map(hashes)).toEqual([[sha(jpeg)]]);
  });
});

describe('VLFeedback and RLAIF-V (read)', () => {
  it('VLFeedback: the image by img_path, each completion a response, the three aspects as ratings under its rubric', async () => {
    // vlfeedback_80k.jsonl of MMInstruction/VLFeedback (its dataset card and VLFeedback.py): img_path is
    // relative to the unzipped merged_images folder.
    mkdirSync(join(dir, 'merged_images', 'svit'), { recursive: true });
    writeFileSync(join(dir, 'merged_images', 'svit', '1.png'), red);
    const aspect = (rating: string) => ({ Rating: rating, Rationale: `rated ${rating}` });
    const path = join(dir, 'vlfeedback_80k.jsonl');
    writeFileSync(
      path,
      jsonl([
        {
          id: 'svit-1',
          prompt: 'What is on the table?',
          models: ['llava-13b', 'qwen-vl-chat'],
          completions: [
            { annotations: { Helpfulness: aspect('4'), 'Ethical Considerations': aspect('5'), 'Visual Faithfulness': aspect('3') }, model: 'llava-13b', response: 'A red box.' },
            { annotations: { Helpfulness: aspect('2'), 'Ethical Considerations': aspect('5'), 'Visual Faithfulness': aspect('N/A') }, model: 'qwen-vl-chat', response: 'A cat.' },
          ],
          img_path: 'svit/1.png',
        },
      ]),
    );
    expect(await load(path, 'p', 'auto', { imagesDir: join(dir, 'merged_images') })).toMatchObject({ format: 'vlfeedback', items: 1, rejected: 0 });
    expect(hashes(items()[0]!)).toEqual([sha(red)]);
    const body = JSON.parse(db.prepare("SELECT l.body FROM label l JOIN annotator a ON a.id = l.annotator_id WHERE a.name = 'source' AND l.task = 'rubric'").pluck().get() as string);
    expect(body).toMatchObject({ rubric: 'vlfeedback', ratings: { A: { helpfulness: 4, visual_faithfulness: 3, ethical_considerations: 5 }, B: { helpfulness: 2, visual_faithfulness: null, ethical_considerations: 5 } } });
  });

  it('RLAIF-V: the Image feature of its Parquet, question, chosen and rejected', async () => {
    // openbmb/RLAIF-V-Dataset's "Data fields": ds_name, image (Image), question, chosen, rejected, origin_dataset, origin_split, idx, image_path.
    const path = join(dir, 'RLAIF-V-Dataset_000.parquet');
    const writer = await HfParquetWriter.open(path, { ds_name: HF_STRING, image: HF_IMAGE, question: HF_STRING, chosen: HF_STRING, rejected: HF_STRING, origin_dataset: HF_STRING, origin_split: HF_STRING, idx: HF_STRING, image_path: HF_STRING });
    await writer.write({ ds_name: 'RLAIF-V', image: { bytes: blue, path: null }, question: 'Describe the image.', chosen: 'A blue bar.', rejected: 'A red ball.', origin_dataset: 'COCO', origin_split: '{"model": "OmniLMM"}', idx: 'rlaif-1', image_path: 'coco/1.jpg' });
    await writer.commit();
    expect(await load(path)).toMatchObject({ format: 'rlaif-v', items: 1, rejected: 0 });
    const [item] = items();
    expect(item!.externalId).toBe('rlaif-1');
    expect(hashes(item!)).toEqual([sha(blue)]);
    expect(item!.responses).toEqual(['A blue bar.', 'A red ball.']);
    expect(sourceLabels()).toEqual(['A']);
  });
});

describe('detection', () => {
  it('picks each shape from its first records', () => {
    const cases: [ImportFormat, Record<string, unknown>][] = [
      ['vl-rewardbench', { id: 'x', image_path: 'a.png', query: 'q', response: ['a', 'b'], human_ranking: [0, 1], models: ['m', 'n'] }],
      ['multimodal-rewardbench', { ID: 'x', Text: 'q', Image: 'a.png', Output1: 'a', Output2: 'b', Better: 'Output1' }],
      ['pickapic', { caption: 'c', jpg_0: 'AAAA', jpg_1: 'AAAA', label_0: 1, label_1: 0 }],
      ['vlfeedback', { id: 'x', prompt: 'q', models: ['m'], completions: [], img_path: 'a.png' }],
      ['rlaif-v', { ds_name: 'RLAIF-V', image: { bytes: 'AAAA', path: null }, question: 'q', chosen: 'a', rejected: 'b' }],
      ['openai-vision', { prompt: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }] }], chosen: [], rejected: [] }],
    ];
    for (const [format, record] of cases) expect(detectFormat([record]).format, format).toBe(format);
    // A text TRL file is still TRL.
    expect(detectFormat([{ prompt: 'p', chosen: 'a', rejected: 'b' }]).format).toBe('trl');
  });
});

it('the images folder of an export goes when the export fails, and a finished one is there', async () => {
  mkdirSync(join(dir, 'd'));
  writeFileSync(join(dir, 'd', 'a.png'), red);
  const path = join(dir, 'd', 'x.jsonl');
  writeFileSync(path, jsonl([{ ID: 'a', Text: 'Q?', Image: 'a.png', Output1: 'x', Output2: 'y', Better: 'Output1' }]));
  await load(path);
  const { out } = await exported('multimodal-rewardbench', 'x.jsonl');
  expect(existsSync(join(dir, 'out', 'x_images', `${sha(red)}.png`))).toBe(true);
  expect(existsSync(join(dir, 'out', 'x_images.partial'))).toBe(false);
  expect(existsSync(out)).toBe(true);
});
