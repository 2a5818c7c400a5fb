// The hub password in the desktop app: electron/main/hubKeychain.ts keeps it with safeStorage (a typed
// stand-in here, test/helpers/fakeElectron.ts), never in plain text, and the service (TeamHub) gets it
// back after a restart and connects the projects that were connected. Where no keychain is there,
// nothing secret is written at all. The hub itself is a stand-in: the real one is in hub-app.test.ts.
import { readFileSync } from 'node:fs';
import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TeamHub, type HubBackend, type HubLinkView } from '../../electron/core/service/team';
import { openDb } from '../../electron/core/store/db';
import { createProject } from '../../electron/core/store/projects';
import { keychainHubKeeper } from '../../electron/main/hubKeychain';
import { electronStandIn as electron } from '../helpers/fakeElectron';
import { tempDir } from '../helpers/tmp';

vi.mock('electron', async () => (await import('../helpers/fakeElectron')).electronStandIn.module);

const SECRET = 'correct horse battery staple';
const URL_ = 'postgres://arbiter_ana@127.0.0.1:5432/hub';

/** A hub that records the passwords it was given. */
function standInHub() {
  const given: (string | undefined)[] = [];
  let link: HubLinkView | null = null;
  const backend: HubBackend = {
    link: () => link,
    join: async (_db, { url }) => void (link = { url, hubProjectId: '1', pushedLabelSeq: 0, pulledSeq: 0, lastSyncAt: null, lastError: null }),
    sync: async (_db, { password }) => (given.push(password), { pushed: 0, pulled: 0 }),
    listen: async ({ password }) => (given.push(password), { close: async () => undefined }),
  };
  return { backend, given };
}

const hubs: TeamHub[] = [];
afterEach(async () => {
  await Promise.all(hubs.map((h) => h.stop()));
  hubs.length = 0;
  electron.safeStorage.available = true;
  electron.safeStorage.backend = 'gnome_libsecret';
});

function open(dir: string, backend: HubBackend) {
  const db = openDb(join(dir, 'arbiter.db'));
  if (!db.prepare("SELECT 1 FROM project WHERE name = 'p'").get()) createProject(db, 'p');
  const team = new TeamHub({ db, events: new EventEmitter() }, backend);
  hubs.push(team);
  return { db, team };
}

describe('the hub password in Electron', () => {
  it('is kept encrypted by the keychain, never in plain text, and reconnects the project after a restart', async () => {
    const dir = tempDir();
    const file = join(dir, 'hub-keychain.json');
    const hub = standInHub();
    const first = open(dir, hub.backend);
    first.team.keepPasswordsWith(keychainHubKeeper(file));
    const status = await first.team.handlers().connectHub({ project: 'p', url: URL_, password: SECRET });
    expect(status).toMatchObject({ connected: true, hub: URL_, hasPassword: true });
    expect(hub.given).toContain(SECRET);
    const written = readFileSync(file, 'utf8');
    expect(written).not.toContain(SECRET);
    expect(written).not.toContain(Buffer.from(SECRET).toString('base64'));
    expect(JSON.parse(written).projects.p).toMatchObject({ url: URL_, connected: true, secret: expect.any(String) });
    await first.team.stop();
    first.db.close();

    // A restart: a new service, the same keychain file; the project connects again with the kept password.
    const again = standInHub();
    const second = open(dir, again.backend);
    const keeper = keychainHubKeeper(file);
    second.team.keepPasswordsWith(keeper);
    second.team.resume(keeper.connected());
    await vi.waitFor(() => expect(second.team.status('p').connected).toBe(true));
    expect(again.given[0]).toBe(SECRET);

    // Disconnect is remembered: the next start leaves it alone.
    await second.team.handlers().disconnectHub({ project: 'p' });
    expect(keeper.connected()).toEqual([]);
    second.db.close();
  });

  it('a password in the URL is taken out before anything is stored or shown', async () => {
    const dir = tempDir();
    const file = join(dir, 'hub-keychain.json');
    const hub = standInHub();
    const { team, db } = open(dir, hub.backend);
    team.keepPasswordsWith(keychainHubKeeper(file));
    const status = await team.handlers().connectHub({ project: 'p', url: `postgres://arbiter_ana:${encodeURIComponent(SECRET)}@127.0.0.1:5432/hub` });
    expect(status.hub).toBe(URL_);
    expect(hub.given).toContain(SECRET);
    expect(readFileSync(file, 'utf8')).not.toMatch(/horse/);
    expect(JSON.stringify(team.status('p'))).not.toMatch(/horse/);
    db.close();
  });

  it('writes no secret where no keychain is there (safeStorage unavailable, or Linux basic_text): the password stays in memory', async () => {
    for (const setup of [() => (electron.safeStorage.available = false), () => (electron.safeStorage.backend = 'basic_text')]) {
      if (process.platform !== 'linux' && electron.safeStorage.backend === 'basic_text') continue;
      const dir = tempDir();
      const file = join(dir, 'hub-keychain.json');
      setup();
      const hub = standInHub();
      const { team, db } = open(dir, hub.backend);
      team.keepPasswordsWith(keychainHubKeeper(file));
      const status = await team.handlers().connectHub({ project: 'p', url: URL_, password: SECRET });
      expect(status.hasPassword).toBe(true);
      const written = JSON.parse(readFileSync(file, 'utf8'));
      expect(written.projects.p.secret).toBeUndefined();
      expect(JSON.stringify(written)).not.toContain(SECRET);
      db.close();
      electron.safeStorage.available = true;
      electron.safeStorage.backend = 'gnome_libsecret';
    }
  });
});
