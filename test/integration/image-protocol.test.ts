// Electron's app:// protocol answers the image route (/images/<project>/<sha256>) as the browser host does,
// from the same core function (core/service/images.ts), for the app's own window (same origin, so no
// token). The real electron/main/index.ts runs against the Electron stand-in (test/helpers/fakeElectron.ts)
// over a real SQLite file and image store; requests go through the handler it registered.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { imagePath } from '../../shared/images';
import { imageStoreDir, putImage } from '../../electron/core/images/store';
import { openDb } from '../../electron/core/store/db';
import { projectImageAdder } from '../../electron/core/store/images';
import { createProject } from '../../electron/core/store/projects';
import { serveApp } from '../../electron/main/protocol';
import { expectStoredImage } from '../helpers/imageResponse';
import { electronStandIn as electron } from '../helpers/fakeElectron';

vi.mock('electron', async () => (await import('../helpers/fakeElectron')).electronStandIn.module);

let home: string;
const sha: Record<string, string> = {};
const bytes: Record<string, Buffer> = {};

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'arbiter-image-protocol-'));
  const dbPath = join(home, 'arbiter.db');
  bytes.png = await sharp({ create: { width: 30, height: 20, channels: 3, background: '#c03' } }).png().toBuffer();
  bytes.svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><script>alert(1)</script><circle r="20" cx="20" cy="20"/></svg>');
  bytes.truncated = bytes.png.subarray(0, 40);
  bytes.other = await sharp({ create: { width: 5, height: 5, channels: 3, background: '#000' } }).png().toBuffer();
  const db = openDb(dbPath);
  const store = imageStoreDir(dbPath);
  const pics = createProject(db, 'Pics');
  const other = createProject(db, 'Other');
  for (const name of Object.keys(bytes)) sha[name] = putImage(store, bytes[name]!);
  projectImageAdder(db, pics.id, 0)([sha.png!, sha.svg!, sha.truncated!]);
  projectImageAdder(db, other.id, 0)([sha.other!]);
  db.close();
  process.env.ARBITER_DB = dbPath;
  process.env.ARBITER_NO_DEMO = '1';
  await import('../../electron/main/index');
  electron.ready();
  await vi.waitFor(() => expect(electron.windows).toHaveLength(1), { timeout: 20_000 });
});

afterAll(() => {
  for (const listener of electron.appListeners.get('window-all-closed') ?? []) (listener as () => void)();
  rmSync(home, { recursive: true, force: true });
});

const get = (path: string, method = 'GET') => electron.protocolHandlers.get('app')!(new Request(`app://arbiter${path}`, { method }));

describe('app:// image route', () => {
  it('sends a stored PNG of the project as it is, with the image headers', async () => {
    await expectStoredImage(await get(imagePath('Pics', sha.png!)), 'image/png', bytes.png!);
  });

  it('draws an SVG to PNG', async () => {
    const response = await get(imagePath('Pics', sha.svg!));
    expect(response.headers.get('content-type')).toBe('image/png');
    const body = Buffer.from(await response.arrayBuffer());
    expect((await sharp(body).metadata()).format).toBe('png');
    expect(body.includes('script')).toBe(false);
  });

  it('answers a damaged image with a 422 and its sentence, as JSON', async () => {
    const response = await get(imagePath('Pics', sha.truncated!));
    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await response.json()) as { error: { message: string } };
    expect(body.error.message).toMatch(/^The image is damaged or truncated \(its decoder stopped with “.+”\)\. /);
  });

  it("answers 404 for another project's image and a malformed hash, 405 for a POST", async () => {
    expect((await get(imagePath('Pics', sha.other!))).status).toBe(404);
    expect((await get(imagePath('Other', sha.other!))).status).toBe(200);
    expect((await get('/images/Pics/..%2f..%2farbiter.db')).status).toBe(404);
    expect((await get(imagePath('Pics', sha.png!), 'POST')).status).toBe(405);
  });

  it('says the database is still opening (503) when a request comes before it is open', async () => {
    const response = await serveApp(join(home, 'renderer'), { url: `app://arbiter${imagePath('Pics', sha.png!)}`, method: 'GET' }, null);
    expect(response.status).toBe(503);
  });
});
