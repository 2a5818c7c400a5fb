// GUI and web agents (issue 15, item 4) through the real CLI on a real SQLite file: Multimodal-Mind2Web rows
// (test/fixtures/formats/gui, written by hand from the dataset card; SOURCES.md) in a Parquet file with the
// Image feature and in JSON Lines with screenshot paths, and an Online-Mind2Web result.json with its
// trajectory/ screenshots, each imported as one trajectory item per task whose turns hold their
// screenshots (stored by sha256) and their actions (read by shared/guiActions.ts, drawn on the right
// screenshot); a trajectory export keeps every image (same sha256) and imports again to the same turns.
// The screenshots are tiny PNGs made here with sharp.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../electron/cli/main';
import { imageFile, imageStoreDir } from '../../electron/core/images/store';
import { HF_IMAGE, HF_STRING, HfParquetWriter, hfList } from '../../electron/core/formats/vision/hfImage';
import { ArbiterService } from '../../electron/core/service';
import { openDb } from '../../electron/core/store/db';
import { updateSettings } from '../../electron/core/store/projects';
import type { ChatMessage } from '../../shared/domain';
import { placeAction, turnActions, turnScreens } from '../../shared/guiActions';
import { isImagePart, type ImagePart } from '../../shared/images';
import { agentErrorTags } from '../../shared/stepJudgement';
import { trajectoryTurns } from '../../shared/trajectory';
import { tempDir } from '../helpers/tmp';

const FIXTURES = join(__dirname, '../fixtures/formats/gui');
const rows = () => readFileSync(join(FIXTURES, 'mind2web.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);

let dir: string;
const shots: Buffer[] = [];
beforeAll(async () => {
  // Five 200 × 140 pages, each its own colour, so each screenshot is its own image.
  for (const colour of ['#e8e8ff', '#ffe8e8', '#e8ffe8', '#fff8d0', '#e0f0ff']) shots.push(await sharp({ create: { width: 200, height: 140, channels: 3, background: colour } }).png().toBuffer());
});
beforeEach(() => {
  dir = tempDir('arbiter-gui-');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function cli(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli([...args, '--db', join(dir, 'arbiter.db')], { out: (l) => out.push(l), err: (l) => err.push(l), ask: async () => 'no' });
  return { code, out, err };
}

async function importOk(path: string, extra: string[] = []) {
  const run = await cli(['import', path, '--project', 'p', ...extra]);
  expect(run.code, run.err.join('\n')).toBe(0);
  return JSON.parse(run.out[run.out.length - 1]!) as { format: string; items: number; detected?: string; reason?: string };
}

interface StoredItem {
  external_id: string | null;
  prompt: unknown;
  responses: { content: ChatMessage[]; steps: string[] }[];
}

function stored(): StoredItem[] {
  const db = openDb(join(dir, 'arbiter.db'));
  try {
    const items = db.prepare('SELECT id, external_id, prompt FROM item ORDER BY seq').all() as { id: number; external_id: string | null; prompt: string }[];
    return items.map((item) => {
      const responses = db.prepare('SELECT r.content, s.steps FROM response r LEFT JOIN segmentation s ON s.item_id = r.item_id AND s.response_idx = r.idx AND s.version = 1 WHERE r.item_id = ? ORDER BY r.idx').all(item.id) as { content: string; steps: string | null }[];
      return { external_id: item.external_id, prompt: JSON.parse(item.prompt) as unknown, responses: responses.map((r) => ({ content: JSON.parse(r.content) as ChatMessage[], steps: r.steps ? (JSON.parse(r.steps) as string[]) : [] })) };
    });
  } finally {
    db.close();
  }
}

/** Per turn: the sha256 of the screenshot its action is drawn on, and the action as placed on it. */
function turnsOf(content: ChatMessage[]) {
  return trajectoryTurns(content).map((turn) => {
    const before = turnScreens(content, turn).before;
    const image = before?.image.image ?? null;
    const actions = turnActions(content, turn);
    const placed = actions.map((a) => placeAction(a, image));
    return { id: turn.id, sha: image?.sha256 ?? null, kinds: actions.map((a) => a.kind), text: actions.map((a) => a.text ?? null), box: placed[0]?.box ?? null, point: placed[0]?.point ?? null };
  });
}

const storeHas = (hash: string) => existsSync(imageFile(imageStoreDir(join(dir, 'arbiter.db')), hash));

describe('Mind2Web', () => {
  async function writeParquet(path: string) {
    const columns = { action_uid: HF_STRING, raw_html: HF_STRING, cleaned_html: HF_STRING, operation: HF_STRING, pos_candidates: hfList(HF_STRING), neg_candidates: hfList(HF_STRING), website: HF_STRING, domain: HF_STRING, subdomain: HF_STRING, annotation_id: HF_STRING, confirmed_task: HF_STRING, screenshot: HF_IMAGE, action_reprs: hfList(HF_STRING), target_action_index: HF_STRING, target_action_reprs: HF_STRING };
    const writer = await HfParquetWriter.open(path, columns);
    rows().forEach((row, i) => void writer.write({ ...row, screenshot: { bytes: new Uint8Array(shots[i]!), path: `${String(row.action_uid)}.png` } }));
    await writer.commit();
  }

  it('a Parquet file with the Image feature: one item per task, a turn per step with its screenshot and action on it', async () => {
    const path = join(dir, 'test_task-00000-of-00001.parquet');
    await writeParquet(path);
    const summary = await importOk(path);
    expect(summary.format).toBe('mind2web');
    expect(summary.items).toBe(2);
    const items = stored();
    expect(items.map((i) => i.external_id)).toEqual(['task-1', 'task-2']);
    expect(items[0]!.prompt).toEqual([{ role: 'user', content: 'Book a table for 2 at a Thai restaurant in Seattle tonight.' }]);
    const [task1, task2] = items.map((i) => i.responses[0]!.content);
    const turns1 = turnsOf(task1!);
    expect(turns1.map((t) => t.id)).toEqual(['a1-0', 'a1-1', 'a1-2']);
    expect(turns1.map((t) => t.sha)).toEqual([sha(shots[0]!), sha(shots[1]!), sha(shots[2]!)]);
    expect(turns1.map((t) => t.kinds)).toEqual([['click'], ['select'], ['type']]);
    expect(turns1.map((t) => t.text)).toEqual([[null], ['2 guests'], ['Thai']]);
    // The target's bounding_box_rect "40,20,60,20" on the 200 × 140 page: fractions of it.
    expect(turns1[0]!.box).toEqual([40 / 200, 20 / 140, 100 / 200, 40 / 140]);
    expect(turns1[0]!.point).toEqual([70 / 200, 30 / 140]);
    expect(turnsOf(task2!).map((t) => t.kinds)).toEqual([['hover'], ['click']]);
    // The screenshot is an image part whose origin is the Parquet column; the store holds its bytes.
    const part = (task1![0]!.content as ImagePart[])[0]!;
    expect(isImagePart(part)).toBe(true);
    expect(part.origin).toMatchObject({ kind: 'column', column: 'screenshot' });
    expect(part.image).toMatchObject({ sha256: sha(shots[0]!), mime: 'image/png', width: 200, height: 140 });
    for (const s of shots) expect(storeHas(sha(s))).toBe(true);
    // The steps are the turns; the row's fields stay with the step, the HTML is not kept.
    expect(items[0]!.responses[0]!.steps).toHaveLength(3);
    const action = task1![1] as ChatMessage & { arbiter: { rest: Record<string, unknown> }; tool_calls: { function: { name: string; arguments: Record<string, unknown> } }[] };
    expect(action.tool_calls[0]!.function).toEqual({ name: 'click', arguments: { op: 'CLICK', value: '', target: '[button] Reservations', bounding_box_rect: '40,20,60,20' } });
    expect(action.arbiter.rest).toMatchObject({ action_uid: 'a1-0', target_action_index: '0' });
    expect(action.arbiter.rest).not.toHaveProperty('raw_html');
    expect(JSON.stringify(task1)).not.toContain('<html');
  });

  it('JSON Lines with screenshot paths beside the file; a missing screenshot names the line and the path, --skip-invalid rejects its task', async () => {
    const lines = rows().map((row) => ({ ...row, screenshot: `screens/${String(row.action_uid)}.png` }));
    mkdirSync(join(dir, 'screens'));
    lines.forEach((row, i) => writeFileSync(join(dir, String(row.screenshot)), shots[i]!));
    const path = join(dir, 'mind2web.jsonl');
    writeFileSync(path, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const summary = await importOk(path, ['--format', 'auto']);
    expect(summary.format).toBe('mind2web');
    const items = stored();
    expect(turnsOf(items[1]!.responses[0]!.content).map((t) => t.sha)).toEqual([sha(shots[3]!), sha(shots[4]!)]);
    expect((items[1]!.responses[0]!.content[0]!.content as ImagePart[])[0]!.origin).toEqual({ kind: 'path', path: 'screens/b2-0.png' });

    rmSync(join(dir, 'screens', 'a1-1.png'));
    rmSync(join(dir, 'arbiter.db'));
    const failed = await cli(['import', path, '--project', 'q']);
    expect(failed.code).not.toBe(0);
    // Every line of the task is named (the item is made of them), with the path that is missing.
    expect(failed.err.join('\n')).toMatch(/mind2web\.jsonl:2: .*screens\/a1-1\.png: no such file/);
    expect(failed.err.join('\n')).toMatch(/3 invalid line\(s\); nothing was imported/);
    const skipped = await cli(['import', path, '--project', 'q', '--skip-invalid']);
    expect(skipped.code, skipped.err.join('\n')).toBe(0);
    // Task 1 holds the missing screenshot: its rows are rejected together; task 2 imports.
    expect(stored().map((i) => i.external_id)).toEqual(['task-2']);
  });

  it('a trajectory export keeps every screenshot (same sha256) and imports again to the same turns', async () => {
    const path = join(dir, 'rows.parquet');
    await writeParquet(path);
    await importOk(path);
    const before = stored().map((i) => turnsOf(i.responses[0]!.content));
    const out = join(dir, 'out.jsonl');
    const run = await cli(['export', '--project', 'p', '--format', 'arbiter-trajectory', '--out', out]);
    expect(run.code, run.err.join('\n')).toBe(0);
    const lines = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { trajectories: { messages: ChatMessage[] }[] });
    const exported = lines.flatMap((l) => l.trajectories.flatMap((t) => t.messages.flatMap((m) => (Array.isArray(m.content) ? m.content.filter(isImagePart) : []))));
    expect(exported.map((p) => p.image?.sha256)).toEqual(shots.map(sha));
    const again = await cli(['import', out, '--project', 'copy']);
    expect(again.code, again.err.join('\n')).toBe(0);
    const db = openDb(join(dir, 'arbiter.db'));
    try {
      const copy = db.prepare("SELECT r.content FROM response r JOIN item i ON i.id = r.item_id JOIN project p ON p.id = i.project_id WHERE p.name = 'copy' ORDER BY i.seq").all() as { content: string }[];
      expect(copy.map((r) => turnsOf(JSON.parse(r.content) as ChatMessage[]))).toEqual(before);
    } finally {
      db.close();
    }
  });
});

describe('the GUI tags on the step screen', () => {
  it('a GUI trajectory is offered the project’s tags and then the GUI / web agent preset’s; a text trajectory only the project’s; a tag saves on a turn', async () => {
    const path = join(dir, 'rows.jsonl');
    mkdirSync(join(dir, 'screens'));
    const lines = rows().map((row, i) => {
      writeFileSync(join(dir, 'screens', `${i}.png`), shots[i]!);
      return { ...row, screenshot: `screens/${i}.png` };
    });
    writeFileSync(path, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    await importOk(path);
    const tools = join(dir, 'tools.jsonl');
    writeFileSync(tools, JSON.stringify({ messages: [{ role: 'user', content: 'Weather in Lyon?' }, { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'weather', arguments: { city: 'Lyon' } } }] }, { role: 'tool', tool_call_id: 'c1', content: '12 °C' }, { role: 'assistant', content: '12 °C in Lyon.' }] }) + '\n');
    await importOk(tools);
    const db = openDb(join(dir, 'arbiter.db'));
    try {
      const service = new ArbiterService(db, { dbPath: join(dir, 'arbiter.db'), transport: 'http', version: 't', defaultAnnotator: 'ann' });
      // A project a GUI agent import made starts with the agent taxonomy and the GUI preset (issue 20,
      // item 23); with tags of its own, a GUI trajectory is offered the preset's after them.
      expect((await service.dispatch('getProject', { project: 'p' })).settings.errorTags).toEqual(agentErrorTags(true));
      updateSettings(db, 'p', { errorTags: ['misread page', 'premature stop'] });
      const ids = db.prepare('SELECT id FROM item ORDER BY seq').pluck().all() as number[];
      const gui = await service.dispatch('getSteps', { project: 'p', annotator: 'ann', itemId: ids[0]! });
      const text = await service.dispatch('getSteps', { project: 'p', annotator: 'ann', itemId: ids[2]! });
      const project = await service.dispatch('getProject', { project: 'p' });
      expect(text.tags).toEqual(project.settings.errorTags);
      expect(gui.tags).toEqual(['misread page', 'premature stop', 'wrong element', 'wrong action', 'hallucinated element', 'hallucinated page', 'wrong text']);
      await service.dispatch('saveSteps', { project: 'p', annotator: 'ann', itemId: ids[0]!, response: 0, steps: { version: 1, ratings: [1, -1, null], firstError: 1, tags: { '1': ['wrong element'] } } } as never);
      const saved = await service.dispatch('getSteps', { project: 'p', annotator: 'ann', itemId: ids[0]! });
      expect(saved.judgements[0]?.tags).toEqual({ '1': ['wrong element'] });
    } finally {
      db.close();
    }
  });
});

describe('Online-Mind2Web', () => {
  it('result.json with trajectory/<i>_full_screenshot.png beside it: a turn per action on its screenshot, the answer last', async () => {
    const task = join(dir, 'fb7b4f784cfde003e2548fdf4e8d6b4f');
    mkdirSync(join(task, 'trajectory'), { recursive: true });
    const result = readFileSync(join(FIXTURES, 'online-mind2web.json'), 'utf8');
    writeFileSync(join(task, 'result.json'), result);
    for (let i = 0; i < 3; i++) writeFileSync(join(task, 'trajectory', `${i}_full_screenshot.png`), shots[i]!);
    const summary = await importOk(join(task, 'result.json'));
    expect(summary.format).toBe('online-mind2web');
    const [item] = stored();
    expect(item!.external_id).toBe('fb7b4f784cfde003e2548fdf4e8d6b4f');
    expect(item!.prompt).toEqual([{ role: 'user', content: 'Open the page with an overview of the submission of releases on Discogs.' }]);
    const content = item!.responses[0]!.content;
    const turns = turnsOf(content);
    expect(turns.map((t) => t.sha)).toEqual([sha(shots[0]!), sha(shots[1]!), sha(shots[2]!), sha(shots[2]!)]);
    expect(turns.map((t) => t.kinds)).toEqual([['click'], ['click'], ['type'], []]);
    expect(turns[2]!.text).toEqual(['submission']);
    const last = trajectoryTurns(content).at(-1)!;
    expect(content[last.action]!.content).toBe('The page with the overview of release submission is open.');

    // Listed screenshots (JSON Lines of results): a fourth one is the page at the end, before the answer.
    const listed = { ...(JSON.parse(result) as Record<string, unknown>), task_id: 'listed', screenshots: [0, 1, 2, 3].map((i) => `fb7b4f784cfde003e2548fdf4e8d6b4f/trajectory/${i}_full_screenshot.png`) };
    writeFileSync(join(task, 'trajectory', '3_full_screenshot.png'), shots[3]!);
    writeFileSync(join(dir, 'results.jsonl'), JSON.stringify(listed) + '\n');
    await importOk(join(dir, 'results.jsonl'), ['--format', 'online-mind2web']);
    const again = stored().find((i) => i.external_id === 'listed')!;
    expect(turnsOf(again.responses[0]!.content).map((t) => t.sha)).toEqual([sha(shots[0]!), sha(shots[1]!), sha(shots[2]!), sha(shots[3]!)]);
  });
});
