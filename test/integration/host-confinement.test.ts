// What the browser host's page may learn and load (issue 13, findings 5, 14, 15): exports live beside
// the database the host was given and leave once; model folders come only from the models folders;
// no answer names the server's own paths.
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { modelDirsFrom } from '../../electron/cli/serve';
import { ArbiterService, type ServiceOptions } from '../../electron/core/service';
import { openDb } from '../../electron/core/store/db';
import { startHost, type RunningHost } from '../../electron/host/server';
import { buildNodeSide, call, startHostProcess } from '../helpers/host';
import { pairProject } from '../helpers/project';
import { tempDir } from '../helpers/tmp';
import { writeModelFolder } from '../scorer/helpers';

let home: string;
let dataDir: string;
let dbPath: string;
let service: ArbiterService;
let running: RunningHost | null = null;

function open(extra: Partial<ServiceOptions> = {}): ArbiterService {
  return new ArbiterService(openDb(dbPath), { dbPath, transport: 'http', version: 'test', defaultAnnotator: 'alice', ...extra });
}

beforeEach(() => {
  // ARBITER_HOME is the default data folder; the host is given a database somewhere else.
  home = tempDir('arbiter-home-');
  dataDir = tempDir('arbiter-data-');
  dbPath = join(dataDir, 'work.db');
  vi.stubEnv('ARBITER_HOME', home);
  const seeded = pairProject(dbPath, { items: 3, texts: (i) => [`a${i}`, `b${i}`], annotator: 'alice', visibleSeq: 'all' });
  seeded.service.stopBackgroundWork();
  seeded.db.close();
  service = open();
});

afterEach(async () => {
  await running?.close();
  running = null;
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  service.stopBackgroundWork();
  service.db.close();
});

async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string; details?: unknown }> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e as { code: string; message: string; details?: unknown },
  );
  if (!error) throw new Error('expected the call to be refused');
  return error;
}

const files = (dir: string) => (existsSync(dir) ? readdirSync(dir) : []);

describe('exports', () => {
  it('are written beside the database the host was given, not into the default data folder', async () => {
    const { out } = await service.dispatch('exportProject', { project: 'p', format: 'trl' });
    expect(files(join(dataDir, 'exports'))).toEqual([out]);
    expect(files(join(home, 'exports'))).toEqual([]);
  });

  it('are removed a minute after their download (a second download within it still works)', async () => {
    running = await startHost({ service, rendererDir: join(dataDir, 'no-renderer'), port: 0 });
    const { out } = await service.dispatch('exportProject', { project: 'p', format: 'arbiter' });
    const { ticket } = await service.dispatch('downloadTicket', { project: 'p', file: out });
    const response = await fetch(new URL(`/download/${ticket}`, running.url));
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text.split('\n').filter(Boolean).length).toBeGreaterThan(0);
    // "Download again" right away: a new ticket for the same file.
    const again = await service.dispatch('downloadTicket', { project: 'p', file: out });
    expect(await (await fetch(new URL(`/download/${again.ticket}`, running.url))).text()).toBe(text);
    expect(files(join(dataDir, 'exports'))).toEqual([out]);
    const now = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(now + 61_000);
    const late = await refusal(service.dispatch('downloadTicket', { project: 'p', file: out }));
    expect(late.code).toBe('not_found');
    expect(late.message).toMatch(/Export it again/);
    expect(files(join(dataDir, 'exports'))).toEqual([]);
  });

  it("are removed when their ticket expires unused", async () => {
    running = await startHost({ service, rendererDir: join(dataDir, 'no-renderer'), port: 0 });
    const { out } = await service.dispatch('exportProject', { project: 'p', format: 'arbiter' });
    const { ticket } = await service.dispatch('downloadTicket', { project: 'p', file: out });
    expect(files(join(dataDir, 'exports'))).toEqual([out]);
    const now = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(now + 61_000);
    expect((await fetch(new URL(`/download/${ticket}`, running.url))).status).toBe(404);
    expect(files(join(dataDir, 'exports'))).toEqual([]);
  });
});

describe('model folders in the browser host', () => {
  const outsideMessage = async (svc: ArbiterService, dir: string) => {
    const inspect = await refusal(svc.dispatch('inspectModel', { dir }));
    const add = await refusal(svc.dispatch('addModel', { dir }));
    return { inspect: `${inspect.code}: ${inspect.message}`, add: `${add.code}: ${add.message}` };
  };

  it('are read only from the models folder beside the database; outside, one sentence whether the path exists or not', async () => {
    const outside = tempDir('arbiter-outside-');
    writeModelFolder(join(outside, 'real-model'), { kind: 'outcome' });
    mkdirSync(join(outside, 'empty'));
    const answers = [];
    for (const dir of [join(outside, 'real-model'), join(outside, 'empty'), join(outside, 'no-such-folder'), '/etc', join(dataDir, 'models', '..', 'exports'), '../../etc']) {
      const answer = await outsideMessage(service, dir);
      expect(answer.inspect).not.toContain(outside);
      expect(answer.inspect).not.toContain(dataDir);
      answers.push(answer);
    }
    expect(new Set(answers.map((a) => a.inspect)).size).toBe(1);
    expect(new Set(answers.map((a) => a.add)).size).toBe(1);
    expect(answers[0]!.inspect).toMatch(/^invalid_input: .*models folder/);
    await expect(service.dispatch('listModels', {})).resolves.toEqual([]);

    // Inside: by name or by full path.
    writeModelFolder(join(dataDir, 'models', 'tiny'), { kind: 'outcome' });
    const byName = await service.dispatch('inspectModel', { dir: 'tiny' });
    expect(byName.kind).toBe('outcome');
    const added = await service.dispatch('addModel', { dir: join(dataDir, 'models', 'tiny'), name: 'tiny' });
    expect(added.name).toBe('tiny');
  });

  it('are read from the folders named with serve --models-dir too', async () => {
    const mine = tempDir('arbiter-my-models-');
    writeModelFolder(join(mine, 'rm'), { kind: 'outcome' });
    expect(modelDirsFrom([mine])).toEqual([mine]);
    expect(() => modelDirsFrom([join(mine, 'nope')])).toThrow(/--models-dir .*nope is not a folder/);
    vi.stubEnv('ARBITER_MODELS_DIRS', mine);
    expect((await service.dispatch('inspectModel', { dir: join(mine, 'rm') })).kind).toBe('outcome');
    expect((await service.dispatch('inspectModel', { dir: 'rm' })).kind).toBe('outcome');
    const sibling = tempDir('arbiter-sibling-');
    writeModelFolder(join(sibling, 'rm'), { kind: 'outcome' });
    expect((await outsideMessage(service, join(sibling, 'rm'))).inspect).toMatch(/models folder/);
  });

  it('serve --models-dir reaches the running host, which prints its models folders', async () => {
    buildNodeSide();
    const mine = tempDir('arbiter-my-models-');
    mkdirSync(join(mine, 'not-a-model'));
    const host = await startHostProcess(dbPath, { ARBITER_HOME: home }, ['--models-dir', mine]);
    try {
      await vi.waitFor(() => expect(host.output()).toContain(`models folders (the page adds models from these only): ${join(dataDir, 'models')}, ${mine}`));
      const inside = await call(host, 'inspectModel', { dir: join(mine, 'not-a-model') });
      expect(inside.status, JSON.stringify(inside.body)).toBe(400);
      expect(inside.body.error.message).toMatch(/model\.onnx and tokenizer\.json are missing/);
      const outside = await call(host, 'inspectModel', { dir: join(dataDir, 'not-a-model') });
      expect(outside.status).toBe(400);
      expect(outside.body.error.message).toMatch(/models folders/);
    } finally {
      host.child.kill('SIGKILL');
    }
  }, 60_000);

  it('the desktop app (its folder comes from a native dialog) still reads any folder', async () => {
    service.stopBackgroundWork();
    service.db.close();
    service = open({ transport: 'ipc' });
    const outside = tempDir('arbiter-outside-');
    writeModelFolder(join(outside, 'rm'), { kind: 'outcome' });
    expect((await service.dispatch('inspectModel', { dir: join(outside, 'rm') })).kind).toBe('outcome');
  });
});

describe('what the page learns', () => {
  it('appInfo names no path on the server', async () => {
    const info = await service.dispatch('appInfo', {});
    expect(info).not.toHaveProperty('dbPath');
    expect(JSON.stringify(info)).not.toContain(dataDir);
    expect(JSON.stringify(info)).not.toContain(home);
  });

  it('a failed upload import names the file as the user picked it, never the upload path', async () => {
    const cases: [string, Buffer][] = [
      ['mine.jsonl.gz', Buffer.from('not gzip at all')],
      ['mine.parquet', Buffer.from('PAR1garbagePAR1')],
      ['mine.gz', Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 1, 2, 3])],
    ];
    for (const [fileName, content] of cases) {
      const { uploadId } = await service.dispatch('startUpload', { fileName, size: content.length });
      await service.dispatch('uploadChunk', { uploadId, offset: 0, data: content.toString('base64') });
      for (const attempt of [
        () => service.dispatch('importUpload', { uploadId, project: 'p' }),
        () => service.dispatch('mergeLabelsUpload', { uploadId, project: 'p' }),
      ]) {
        const error = await refusal(attempt());
        const said = JSON.stringify({ message: error.message, details: error.details });
        expect(said, said).toContain(fileName);
        expect(said, said).not.toContain(dataDir);
        expect(said, said).not.toContain(uploadId);
      }
    }
  });
});
