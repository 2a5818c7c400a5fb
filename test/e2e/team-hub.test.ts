// The team hub through the page, on a real PostgreSQL 15 (a throwaway cluster): a lead's project is
// published to the hub; ana joins it with the CLI into the host's database, labels an item on Compare,
// sees it waiting in the Team panel (Datasets) with her uuid, the lead grants her under that uuid, and
// Connect sends it up (waiting → nothing, the revision on the hub). Then a teammate, ben, saves a label on
// his own machine and pushes it with `arbiter sync`: the Review screen's "Where the team stands" shows it
// within seconds, through the hub's NOTIFY, with nobody touching the page, and the lead's settings
// (pre-labels assist) taken by that sync show in the header. An item the lead publishes later comes down
// with Sync now and the Datasets table shows it. With ARBITER_SHOTS=1 it also
// writes docs/screenshots/team-{panel,stands,join}-{light,dark}.png.
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importFile } from '../../electron/core/formats';
import { publishProject } from '../../electron/core/hub/publish';
import { grant, loginRoleFor } from '../../electron/core/hub/roles';
import { initHub } from '../../electron/core/hub/schema';
import { ArbiterService } from '../../electron/core/service/index';
import { ensureAnnotator } from '../../electron/core/store/annotators';
import { openDb } from '../../electron/core/store/db';
import { pairProject } from '../helpers/project';
import { skipReason, startCluster, type PgCluster } from '../helpers/postgres';
import { launchBrowser, openApp, ROOT, startHost, type Host } from './helpers';

const run = promisify(execFile);
const SHOTS = process.env.ARBITER_SHOTS === '1';
const reason = skipReason();
if (reason) console.warn(`team-hub skipped: ${reason}`);

describe.skipIf(reason)('the team hub in the page', () => {
  let cluster: PgCluster;
  let admin: pg.Client;
  let host: Host;
  let browser: Browser;
  let page: Page;
  let problems: string[];

  const hubUrl = (name: string) => cluster.url(loginRoleFor(name));
  /** `arbiter ARGS` as a user runs it; its JSON line when it prints one. */
  async function arbiter(args: string[]) {
    const env: NodeJS.ProcessEnv = { ...process.env, ARBITER_NO_DEMO: '1' };
    delete env.ARBITER_HUB_PASSWORD;
    const { stdout } = await run(process.execPath, [join(ROOT, 'bin', 'arbiter.mjs'), ...args], { cwd: ROOT, env });
    return stdout;
  }
  const onHub = async (annotator: string) =>
    Number((await admin.query("SELECT count(*) AS n FROM arbiter.revision WHERE line->>'annotator' = $1", [annotator])).rows[0].n);

  beforeAll(async () => {
    cluster = await startCluster();
    admin = new pg.Client({ connectionString: cluster.url() });
    admin.on('error', () => undefined);
    await admin.connect();
    await initHub(admin, 'test hub');
    host = await startHost();
    // The lead's machine: 6 pairs, published by the hub's owner.
    const lead = pairProject(join(host.home, 'lead.db'), { items: 6, texts: (i) => [`Left answer ${i}.`, `Right answer ${i}.`], annotator: 'lead', visibleSeq: 'all' });
    await publishProject(lead.db, admin, 'p', { where: 'test hub', url: cluster.url() });
    lead.service.stopBackgroundWork();
    lead.db.close();
    // ana may read the hub (her uuid comes later, from the Team panel); she joins with the CLI.
    await grant(admin, 'test hub', { annotator: 'ana', role: 'annotator', password: null });
    await arbiter(['hub', 'join', '--project', 'p', '--hub', hubUrl('ana'), '--db', host.dbPath]);
    browser = await launchBrowser();
    ({ page, problems } = await openApp(browser, host, { annotator: 'ana' }));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await host?.stop();
    await admin?.end().catch(() => undefined);
    await cluster?.stop();
  });

  const go = (hash: string) => page.evaluate((h) => (location.hash = h), hash);
  const panel = () => page.getByTestId('team-panel');

  it('the Team panel connects to the hub and the waiting label goes up: waiting → nothing', async () => {
    await go('#/p/p/compare');
    await page.getByTestId('compare').waitFor();
    await page.getByTestId('response-body-left').waitFor();
    await page.keyboard.press('1');
    const status = page.getByTestId('status-text');
    await expect.poll(async () => `${await status.getAttribute('data-state')} ${await status.innerText()}`, { timeout: 10_000 }).toMatch(/^saved .*Left better/);

    await go('#/p/p/datasets');
    await panel().waitFor();
    await expect.poll(() => panel().getAttribute('data-state')).toBe('disconnected');
    await expect.poll(() => page.getByTestId('team-waiting').innerText()).toMatch(/^1 revision waiting to go up \(connect to send them\)$/);
    expect(await page.getByTestId('team-hub-url').inputValue()).toBe(hubUrl('ana'));
    const uuid = await page.getByTestId('team-you-uuid').innerText();
    expect(uuid).toMatch(/^[0-9a-f-]{36}$/);
    // The lead grants ana under the uuid the panel shows.
    await grant(admin, 'test hub', { annotator: 'ana', role: 'annotator', uuid, password: null });

    // From the keyboard: Tab reaches the Connect button through the panel's fields.
    await page.getByTestId('team-hub-url').focus();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('team-connect');
    await page.keyboard.press('Enter');
    await expect.poll(() => panel().getAttribute('data-state'), { timeout: 15_000 }).toMatch(/^(connected|syncing)$/);
    await expect.poll(() => page.getByTestId('team-waiting').innerText(), { timeout: 15_000 }).toBe('Nothing waiting to go up');
    expect(await onHub('ana')).toBe(1);
    await expect.poll(() => page.getByTestId('team-last-sync').innerText(), { timeout: 10_000 }).toMatch(/^Last sync (just now|\d+ s ago) \(1 revision up, \d+ revisions? down\)$/);
    expect(await page.getByTestId('team-hub').innerText()).toBe(hubUrl('ana'));
    expect(await page.getByTestId('team-error').count()).toBe(0);
  });

  it('a teammate’s label pushed with the CLI shows up on the Review screen within seconds', async () => {
    await go('#/p/p/review');
    const card = page.getByTestId('team-stands');
    await card.waitFor();
    await page.getByTestId('queue-empty').waitFor();
    await expect.poll(() => card.locator('[data-annotator="ana"] [data-testid="team-stands-labels"]').innerText()).toBe('1');
    expect(await card.locator('[data-annotator="ben"]').count()).toBe(0);

    // ben's machine: his own database, joined from the hub, one label saved there, pushed with arbiter sync.
    const benDb = join(host.home, 'ben.db');
    const db = openDb(benDb);
    const ben = ensureAnnotator(db, 'ben', 'human');
    await grant(admin, 'test hub', { annotator: 'ben', role: 'annotator', uuid: ben.uuid, password: null });
    db.close();
    await arbiter(['hub', 'join', '--project', 'p', '--hub', hubUrl('ben'), '--db', benDb]);
    const benDesk = openDb(benDb);
    const service = new ArbiterService(benDesk, { dbPath: benDb, transport: 'http', version: 'test', defaultAnnotator: 'ben' });
    const items = benDesk.prepare('SELECT id FROM item ORDER BY seq').pluck().all() as number[];
    // ben disagrees with ana on the item she labeled (the first), so the queue gets it.
    const anas = (await admin.query("SELECT line->>'choice' AS choice FROM arbiter.revision WHERE line->>'annotator' = 'ana'")).rows[0].choice as string;
    await service.dispatch('saveLabel', { project: 'p', annotator: 'ben', itemId: items[0]!, choice: anas === 'A' ? 'B' : 'A', strength: 2, shownOrder: [0, 1] });
    await service.dispatch('saveLabel', { project: 'p', annotator: 'ben', itemId: items[1]!, choice: 'A', strength: 1, shownOrder: [1, 0] });
    service.stopBackgroundWork();
    benDesk.close();
    // Meanwhile the lead turns pre-labels to assist for the team (on the hub): ana's next sync takes it.
    expect(await page.getByTestId('prelabels').getAttribute('data-mode')).toBe('blind');
    await admin.query(`UPDATE arbiter.project SET settings = jsonb_set(settings, '{prelabels}', '"assist"') WHERE name = 'p'`);
    const summary = JSON.parse((await arbiter(['sync', '--project', 'p', '--db', benDb])).trim().split('\n').pop()!) as { pushed: number };
    expect(summary.pushed).toBe(2);
    const pushed = performance.now();

    const benLabels = card.locator('[data-annotator="ben"] [data-testid="team-stands-labels"]');
    await expect.poll(async () => ((await benLabels.count()) ? benLabels.innerText() : ''), { timeout: 10_000, interval: 50 }).toBe('2');
    const ms = performance.now() - pushed;
    console.log(`team-hub: ben's 2 labels were on ana's Review screen ${ms.toFixed(0)} ms after arbiter sync pushed them`);
    expect(await card.locator('[data-annotator="ben"] [data-testid="team-stands-waiting"]').innerText()).toBe('0');
    // The team's agreement, from the merged labels: ana and ben both labeled the first item (ana A-side, ben B).
    await expect.poll(() => page.getByTestId('team-stands-agreement').innerText(), { timeout: 15_000 }).toBe('Agreement on choices: not enough data: 1 item (10 needed)');
    // Two labels are too few for a person's agreement figure (review/minimums.ts): a dash, the reason in its title.
    expect(await card.locator('[data-annotator="ben"]').innerText()).toMatch(/ben\s+2\s+0\s+—/);
    // The queue is read again too: the item ana and ben split on is there.
    await expect.poll(() => page.getByTestId('queue-row').count(), { timeout: 10_000 }).toBe(1);
    // The sync that brought ben's labels took the lead's settings too: the header shows assist, unasked.
    await expect.poll(() => page.getByTestId('prelabels').getAttribute('data-mode'), { timeout: 10_000 }).toBe('assist');
    if (SHOTS) await shoot();
    // Each figure opens its items in the explorer: ben's count of labels, the two pairs he judged.
    await benLabels.getByTestId('drill').click();
    await expect.poll(() => page.getByTestId('items-query').inputValue()).toBe('annotator=ben');
    await expect.poll(() => page.getByTestId('explorer-row').count(), { timeout: 10_000 }).toBe(2);
    expect(problems).toEqual([]);
  });

  it('items the lead publishes later come down with Sync now: the Datasets table grows, unasked', async () => {
    await go('#/p/p/datasets');
    await panel().waitFor();
    await expect.poll(() => page.getByTestId('item-row').count(), { timeout: 10_000 }).toBe(6);
    // The lead imports one more pair and publishes again (only what is new goes up).
    const leadDb = openDb(join(host.home, 'lead.db'));
    const file = join(host.home, 'later.jsonl');
    writeFileSync(file, `${JSON.stringify({ id: 'late-1', prompt: 'A question added later?', responses: [{ text: 'Yes, later.' }, { text: 'No, never.' }] })}\n`);
    await importFile(leadDb, { path: file, project: 'p', format: 'arbiter' });
    expect(await publishProject(leadDb, admin, 'p', { where: 'test hub', url: cluster.url() })).toMatchObject({ items: 1, itemsOnHub: 7 });
    leadDb.close();
    await page.getByTestId('team-sync-now').click();
    await expect.poll(() => page.getByTestId('item-row').count(), { timeout: 15_000 }).toBe(7);
    await expect.poll(() => page.getByTestId('team-last-sync').innerText(), { timeout: 10_000 }).toMatch(/, 1 new item\)$/);
    expect(problems).toEqual([]);
  });

  it('a project ana lacks is joined from the project list: it opens on its first screen, connected', async () => {
    // The lead publishes a second project, "q" (4 pairs).
    const lead = pairProject(join(host.home, 'lead-q.db'), { items: 4, texts: (i) => [`Left ${i}.`, `Right ${i}.`], annotator: 'lead', visibleSeq: 'all' });
    await lead.service.dispatch('renameProject', { project: 'p', name: 'q' });
    await publishProject(lead.db, admin, 'q', { where: 'test hub', url: cluster.url() });
    lead.service.stopBackgroundWork();
    lead.db.close();

    await go('#/');
    await page.getByTestId('project-list').waitFor();
    await page.getByTestId('join-hub-open').click();
    await page.getByTestId('join-hub').waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('join-hub-project');
    // A name the hub lacks: the hub's sentence, nothing made here.
    await page.keyboard.type('nope');
    await page.getByTestId('join-hub-url').fill(hubUrl('ana'));
    await page.getByTestId('join-hub-url').press('Enter');
    await expect.poll(() => page.getByTestId('join-hub-error').innerText(), { timeout: 15_000 }).toMatch(/no project named "nope"/);
    expect((await host.api<{ name: string }[]>('listProjects', {})).map((p) => p.name).sort()).toEqual(['p']);

    await page.getByTestId('join-hub-project').fill('q');
    await page.getByTestId('join-hub-submit').click();
    await page.getByTestId('compare').waitFor({ timeout: 20_000 });
    expect(await page.evaluate(() => location.hash)).toMatch(/^#\/p\/q\/compare/);
    await page.getByTestId('response-body-left').waitFor();
    const projects = await host.api<{ name: string; items: number }[]>('listProjects', {});
    expect(projects.find((p) => p.name === 'q')?.items).toBe(4);
    const status = await host.api<{ connected: boolean; hub: string }>('teamStatus', { project: 'q' });
    expect(status).toMatchObject({ connected: true, hub: hubUrl('ana') });
    expect(problems).toEqual([]);
  });

  it('a shared desktop: cat types her name and labels; the Team panel says the hub knows her by another uuid and takes it with one button', async () => {
    await grant(admin, 'test hub', { annotator: 'cat', role: 'annotator', password: null });
    const granted = (await admin.query("SELECT uuid::text AS u FROM arbiter.annotator WHERE name = 'cat'")).rows[0].u as string;
    const { page: cat, problems: catProblems } = await openApp(browser, host, { annotator: 'cat' });
    await cat.evaluate(() => (location.hash = '#/p/p/compare'));
    await cat.getByTestId('response-body-left').waitFor();
    await cat.keyboard.press('2');
    await expect.poll(() => cat.getByTestId('status-text').getAttribute('data-state'), { timeout: 10_000 }).toBe('saved');
    await cat.evaluate(() => (location.hash = '#/p/p/datasets'));
    const here = cat.getByTestId('team-you-hub');
    // The sync after her save reads who the hub grants (the desktop is connected as ana).
    await here.waitFor({ timeout: 20_000 });
    expect(await here.innerText()).toMatch(new RegExp(`^The hub grants cat the uuid ${granted}, not this desktop’s [0-9a-f-]{36}, so your labels wait here\\. Nothing else here carries`));
    // The address has no sslmode: the panel says the connection is not encrypted.
    expect(await cat.getByTestId('team-unencrypted').innerText()).toMatch(/^This address names no sslmode, which means sslmode=disable: the connection to the hub is not encrypted/);
    await cat.getByTestId('team-adopt-uuid').click();
    await expect.poll(() => cat.getByTestId('team-you-uuid').innerText(), { timeout: 10_000 }).toBe(granted);
    expect(await here.count()).toBe(0);
    // Where the team stands: cat under the hub's uuid.
    await cat.evaluate(() => (location.hash = '#/p/p/review'));
    await expect.poll(() => cat.locator('[data-testid="team-stands"] [data-annotator="cat"] [data-testid="team-stands-labels"]').innerText(), { timeout: 10_000 }).toBe('1');
    expect(catProblems).toEqual([]);
    await cat.context().close();
  });

  /** The Team panel (Datasets) and Where the team stands (Review), light and dark, as ana sees them. */
  async function shoot() {
    for (const theme of ['light', 'dark'] as const) {
      const { page: p } = await openApp(browser, host, { annotator: 'ana', theme, width: 1440, height: 1000 });
      await p.evaluate(() => (location.hash = '#/p/p/review'));
      await p.getByTestId('team-stands').waitFor();
      await expect.poll(() => p.getByTestId('queue-row').count(), { timeout: 10_000 }).toBe(1);
      await p.mouse.move(0, 0);
      await p.screenshot({ path: join(ROOT, 'docs', 'screenshots', `team-stands-${theme}.png`) });
      await p.evaluate(() => (location.hash = '#/p/p/datasets'));
      const teamPanel = p.getByTestId('team-panel');
      await teamPanel.waitFor();
      await expect.poll(() => teamPanel.getAttribute('data-state'), { timeout: 15_000 }).toMatch(/^(connected|syncing)$/);
      await teamPanel.scrollIntoViewIfNeeded();
      await p.screenshot({ path: join(ROOT, 'docs', 'screenshots', `team-panel-${theme}.png`) });
      await p.evaluate(() => (location.hash = '#/'));
      await p.getByTestId('join-hub-open').click();
      await p.getByTestId('join-hub-url').fill('postgres://arbiter_ana@hub.example.org:5432/arbiter?sslmode=verify-full');
      await p.getByTestId('join-hub-project').fill('support');
      await p.screenshot({ path: join(ROOT, 'docs', 'screenshots', `team-join-${theme}.png`) });
      await p.context().close();
    }
  }
});
