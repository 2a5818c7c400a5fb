// The hub's schema on a real PostgreSQL 15 (a throwaway cluster): init is idempotent, grant makes login
// roles, and PostgreSQL itself refuses what an annotator may not do (another's uuid, UPDATE, DELETE, an
// adjudication); a lead adjudicates. Each refusal is seen to fail in a side database where the policy and
// the trigger are taken away, so the refusals are the schema's doing. NOTIFY fires on insert.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectHub, type HubError } from '../../electron/core/hub/connect';
import { grant, whoAmI } from '../../electron/core/hub/roles';
import { hubSchemaVersion, initHub, latestHubVersion, listHubMigrations, requireHubSchema } from '../../electron/core/hub/schema';
import { hubSkipReason, useHubCluster } from '../helpers/hubCluster';

const reason = hubSkipReason('hub-schema');

const ALICE = '11111111-1111-4111-8111-111111111111';
const BOB = '22222222-2222-4222-8222-222222222222';
const CAROL = '33333333-3333-4333-8333-333333333333';

/** The names the hub knows the uuids by (schema 3 checks a line's `annotator` against them); any other uuid is a file's. */
const NAMES: Record<string, string> = { [ALICE]: 'Alice', [BOB]: 'Bob', [CAROL]: 'Carol' };
/** The item every line is for (schema 3 refuses a revision for an item the project does not hold). */
const ITEM_LINE = JSON.stringify({ id: 'q1', prompt: 'Which?', responses: [{ text: 'A' }, { text: 'B' }] });

let n = 0;
/** A label line as exchange/labels.ts writes it (the fields the hub's checks read, and a few more). */
type Line = { id: string; annotator_uuid: string; adjudicated?: boolean } & Record<string, unknown>;
function line(annotatorUuid: string, extra: Record<string, unknown> = {}): Line {
  const id = `0190f0f0-0000-7000-8000-${String(++n).padStart(12, '0')}`;
  return { id, item: 'q1', item_uid: 'u1', annotator: NAMES[annotatorUuid] ?? 'the file', annotator_uuid: annotatorUuid, annotator_kind: 'human', task: 'pairwise', choice: 'A', created_at: '2026-01-01T00:00:00.000Z', ...extra };
}

async function insert(client: pg.Client, projectId: number, l: Line, adjudicated = l.adjudicated === true) {
  return client.query('INSERT INTO arbiter.revision (id, project_id, annotator_uuid, adjudicated, line) VALUES ($1, $2, $3, $4, $5)', [
    l.id,
    projectId,
    l.annotator_uuid,
    adjudicated,
    l,
  ]);
}

/** Everything a second init could change: objects, policies, triggers, grants, roles, version rows. */
async function snapshot(client: pg.Client) {
  const q = async (sql: string) => (await client.query(sql)).rows;
  return {
    objects: await q("SELECT c.relname, c.relkind, c.relacl::text FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace WHERE s.nspname = 'arbiter' ORDER BY 1"),
    policies: await q("SELECT policyname, cmd, qual, with_check FROM pg_policies WHERE schemaname = 'arbiter' ORDER BY 1"),
    triggers: await q("SELECT tgname, tgenabled FROM pg_trigger WHERE tgrelid = 'arbiter.revision'::regclass ORDER BY 1"),
    roles: await q("SELECT rolname, rolcanlogin FROM pg_roles WHERE rolname LIKE 'arbiter_%' ORDER BY 1"),
    versions: await q('SELECT version, name, applied_at FROM arbiter.hub_schema_version ORDER BY 1'),
  };
}

/** The code a PostgreSQL error carries, and its message, for checking who refused what. */
async function refusal(work: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await work;
  } catch (e) {
    const err = e as { code?: string; message: string };
    return { code: err.code ?? '', message: err.message };
  }
  return { code: 'none', message: 'it went through' };
}

/** What an annotator must not be able to do; each returns the statement's promise. */
function forbidden(alice: pg.Client, projectId: number, aliceRevisionId: string) {
  return {
    otherUuid: () => insert(alice, projectId, line(BOB)),
    adjudicate: () => insert(alice, projectId, line(ALICE, { adjudicated: true })),
    update: () => alice.query("UPDATE arbiter.revision SET line = line || '{\"choice\":\"B\"}' WHERE id = $1", [aliceRevisionId]),
    delete: () => alice.query('DELETE FROM arbiter.revision WHERE id = $1', [aliceRevisionId]),
  };
}

describe.skipIf(reason)('hub schema on PostgreSQL', () => {
  const hub = useHubCluster('hub-schema');
  let admin: pg.Client;
  let projectId: number;
  const where = () => `127.0.0.1:${hub.cluster.port}`;
  const as = (role: string, db = 'postgres') => connectHub(hub.cluster.url(role, undefined, db));
  const open: pg.Client[] = [];
  const track = async (c: Promise<pg.Client>) => {
    const client = await c;
    open.push(client);
    return client;
  };

  beforeAll(async () => {
    admin = await track(connectHub(hub.cluster.url()));
  });
  afterAll(async () => {
    for (const c of open) await c.end().catch(() => undefined);
  });

  it('init makes the schema at the newest version; a second init changes nothing', async () => {
    expect(await hubSchemaVersion(admin)).toBe(0);
    const first = await initHub(admin, where());
    expect(first).toEqual({ from: 0, version: latestHubVersion(), applied: listHubMigrations().map((m) => m.name) });
    const before = await snapshot(admin);
    const second = await initHub(admin, where());
    expect(second).toEqual({ from: first.version, version: first.version, applied: [] });
    expect(await snapshot(admin)).toEqual(before);
    expect(await requireHubSchema(admin, where())).toBe(first.version);
    const { rows } = await admin.query("INSERT INTO arbiter.project (name) VALUES ('p') RETURNING id");
    projectId = Number(rows[0].id);
    await admin.query("INSERT INTO arbiter.item_line (project_id, seq, uid, line) VALUES ($1, 1, 'u1', $2)", [projectId, ITEM_LINE]);
  });

  it('refuses a hub whose schema is newer than the code, and changes nothing', async () => {
    await admin.query('CREATE DATABASE newer');
    const other = await track(as('postgres', 'newer'));
    await initHub(other, where());
    await other.query("INSERT INTO arbiter.hub_schema_version (version, name) VALUES (99, '0099_future.sql')");
    const before = await snapshot(other);
    await expect(initHub(other, where())).rejects.toThrow(`schema version 99, newer than this Arbiter knows (up to ${latestHubVersion()}). Nothing was changed`);
    await expect(requireHubSchema(other, where())).rejects.toMatchObject({ reason: 'schema' } satisfies Partial<HubError>);
    expect(await snapshot(other)).toEqual(before);
  });

  it('grant makes a login role in the member group (and the lead group for a lead) and the annotator row', async () => {
    const a = await grant(admin, where(), { annotator: 'Alice', role: 'annotator', uuid: ALICE, password: null });
    expect(a).toEqual({ annotator: 'Alice', uuid: ALICE, role: 'annotator', pgRole: 'arbiter_alice', created: true, roleCreated: true });
    await grant(admin, where(), { annotator: 'Bob', role: 'annotator', uuid: BOB, password: null });
    await grant(admin, where(), { annotator: 'Carol', role: 'lead', uuid: CAROL, password: null });
    const { rows } = await admin.query(
      "SELECT rolname, rolcanlogin, rolsuper, pg_has_role(rolname, 'arbiter_hub_member', 'MEMBER') AS member, pg_has_role(rolname, 'arbiter_hub_lead', 'MEMBER') AS lead FROM pg_roles WHERE rolname IN ('arbiter_alice', 'arbiter_carol') ORDER BY 1",
    );
    expect(rows).toEqual([
      { rolname: 'arbiter_alice', rolcanlogin: true, rolsuper: false, member: true, lead: false },
      { rolname: 'arbiter_carol', rolcanlogin: true, rolsuper: false, member: true, lead: true },
    ]);
    // Granting again keeps the uuid and the role; no new row.
    const again = await grant(admin, where(), { annotator: 'Alice', role: 'annotator' });
    expect(again).toMatchObject({ uuid: ALICE, created: false, roleCreated: false });
    // Without --uuid a new annotator gets one, which join adopts.
    const dave = await grant(admin, where(), { annotator: 'Dave O\'Neil', role: 'annotator', password: null });
    expect(dave.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(dave.pgRole).toBe('arbiter_dave_o_neil');
    const alice = await track(as('arbiter_alice'));
    expect(await whoAmI(alice)).toEqual({ uuid: ALICE, name: 'Alice', role: 'annotator', pgRole: 'arbiter_alice' });
    // Alice and Bob join the project (a member writes only into projects they joined).
    await alice.query('INSERT INTO arbiter.project_member (project_id) VALUES ($1)', [projectId]);
    await admin.query('INSERT INTO arbiter.project_member (project_id, annotator_uuid) VALUES ($1, $2)', [projectId, BOB]);
    await expect(grant(admin, where(), { annotator: 'Eve', role: 'annotator', uuid: ALICE })).rejects.toThrow(/uuid 11111111-.* already belongs to annotator "Alice"/);
  });

  it('lets an annotator insert their own revision and a lead adjudicate', async () => {
    const alice = await track(as('arbiter_alice'));
    const carol = await track(as('arbiter_carol'));
    expect((await insert(alice, projectId, line(ALICE))).rowCount).toBe(1);
    expect((await insert(carol, projectId, line(CAROL, { adjudicated: true, rationale: 'A is right' }))).rowCount).toBe(1);
    const { rows } = await alice.query('SELECT annotator_uuid, adjudicated, pushed_by FROM arbiter.revision ORDER BY hub_seq');
    expect(rows.slice(0, 2)).toEqual([
      { annotator_uuid: ALICE, adjudicated: false, pushed_by: 'arbiter_alice' },
      { annotator_uuid: CAROL, adjudicated: true, pushed_by: 'arbiter_carol' },
    ]);
    // A file's own labels go up under the lead, but never under a person's uuid (that would be Alice's vote).
    const asAlice = line(ALICE, { annotator_kind: 'source' });
    expect(await refusal(insert(carol, projectId, asAlice))).toMatchObject({ code: '42501', message: expect.stringContaining('row-level security') });
    const fileUuid = '55555555-5555-4555-8555-555555555555';
    expect((await insert(carol, projectId, line(fileUuid, { annotator_kind: 'source' }))).rowCount).toBe(1);
    expect(await refusal(insert(alice, projectId, line(fileUuid, { annotator_kind: 'source' })))).toMatchObject({ code: '42501' });
    // Nor can a person be granted that uuid, taking the file's labels over.
    await expect(grant(admin, where(), { annotator: 'Frank', role: 'annotator', uuid: fileUuid, password: null })).rejects.toThrow(
      /already holds 1 revision under uuid 55555555-.* that are not "Frank"'s; nothing was changed/,
    );
    // Once Alice has revisions here, her uuid is fixed.
    await expect(grant(admin, where(), { annotator: 'Alice', role: 'annotator', uuid: BOB.replace(/2/g, '4') })).rejects.toThrow(
      /"Alice" has 1 revision on the hub .* under uuid 11111111-.*cannot change/,
    );
  });

  it('refuses, by PostgreSQL itself, another uuid, UPDATE, DELETE and an adjudication from an annotator', async () => {
    const alice = await track(as('arbiter_alice'));
    const own = line(ALICE);
    await insert(alice, projectId, own);
    const tries = forbidden(alice, projectId, own.id);
    const rls = { code: '42501', message: 'new row violates row-level security policy for table "revision"' };
    expect(await refusal(tries.otherUuid())).toEqual(rls);
    expect(await refusal(tries.adjudicate())).toEqual(rls);
    expect(await refusal(tries.update())).toEqual({ code: '42501', message: 'permission denied for table revision' });
    expect(await refusal(tries.delete())).toEqual({ code: '42501', message: 'permission denied for table revision' });
    // A line cannot say what its columns deny, nor a client fill what the hub fills.
    const sneaky = line(ALICE, { adjudicated: true });
    expect(await refusal(insert(alice, projectId, sneaky, false))).toMatchObject({ code: '23514', message: expect.stringContaining('revision_line_adjudicated') });
    expect(await refusal(alice.query("INSERT INTO arbiter.revision (id, project_id, annotator_uuid, line, pushed_by) VALUES ('x', $1, $2, $3, 'arbiter_bob')", [projectId, ALICE, { ...line(ALICE), id: 'x' }]))).toEqual({
      code: '42501',
      message: 'permission denied for table revision',
    });
    // Nor may an annotator write the annotator table (make themselves a lead).
    expect(await refusal(alice.query("UPDATE arbiter.annotator SET role = 'lead' WHERE name = 'Alice'"))).toEqual({ code: '42501', message: 'permission denied for table annotator' });
    // Even the owner (a superuser here, past row security) meets the trigger.
    for (const sql of ["UPDATE arbiter.revision SET adjudicated = adjudicated WHERE id = $1", 'DELETE FROM arbiter.revision WHERE id = $1']) {
      expect(await refusal(admin.query(sql, [own.id]))).toMatchObject({ code: '42501', message: expect.stringMatching(/never changed or removed \((UPDATE|DELETE) refused\)/) });
    }
    expect(await refusal(admin.query('TRUNCATE arbiter.revision'))).toMatchObject({ code: '42501' });
    expect((await admin.query('SELECT line FROM arbiter.revision WHERE id = $1', [own.id])).rows[0].line.choice).toBe('A');
  });

  it('seen to fail: with the policy and trigger taken away, the same four go through', async () => {
    await admin.query('CREATE DATABASE weak');
    const owner = await track(as('postgres', 'weak'));
    await initHub(owner, where());
    await grant(owner, where(), { annotator: 'Alice', role: 'annotator', uuid: ALICE });
    const { rows } = await owner.query("INSERT INTO arbiter.project (name) VALUES ('p') RETURNING id");
    const weakProject = Number(rows[0].id);
    await owner.query("INSERT INTO arbiter.item_line (project_id, seq, uid, line) VALUES ($1, 1, 'u1', $2)", [weakProject, ITEM_LINE]);
    await owner.query('INSERT INTO arbiter.project_member (project_id, annotator_uuid) VALUES ($1, $2)', [weakProject, ALICE]);
    await owner.query(`DROP POLICY revision_insert_own ON arbiter.revision;
      CREATE POLICY anything ON arbiter.revision FOR ALL USING (true) WITH CHECK (true);
      GRANT UPDATE, DELETE ON arbiter.revision TO arbiter_hub_member;
      DROP TRIGGER revision_append_only ON arbiter.revision`);
    const alice = await track(as('arbiter_alice', 'weak'));
    const own = line(ALICE);
    await insert(alice, weakProject, own);
    const tries = forbidden(alice, weakProject, own.id);
    expect((await tries.otherUuid()).rowCount).toBe(1);
    expect((await tries.adjudicate()).rowCount).toBe(1);
    expect((await tries.update()).rowCount).toBe(1);
    // The trigger alone, put back, still holds UPDATE and DELETE.
    await owner.query('CREATE TRIGGER revision_append_only BEFORE UPDATE OR DELETE ON arbiter.revision FOR EACH ROW EXECUTE FUNCTION arbiter.revision_is_append_only()');
    expect(await refusal(tries.delete())).toMatchObject({ code: '42501', message: expect.stringContaining('DELETE refused') });
    await owner.query('DROP TRIGGER revision_append_only ON arbiter.revision');
    expect((await tries.delete()).rowCount).toBe(1);
  });

  it('NOTIFY arbiter_hub with the project id reaches a listener when revisions are inserted', async () => {
    const listener = await track(as('arbiter_bob'));
    const heard: { channel: string; payload?: string }[] = [];
    listener.on('notification', (m) => heard.push({ channel: m.channel, payload: m.payload }));
    await listener.query('LISTEN arbiter_hub');
    const alice = await track(as('arbiter_alice'));
    const three = [line(ALICE), line(ALICE), line(ALICE)];
    await alice.query(
      'INSERT INTO arbiter.revision (id, project_id, annotator_uuid, adjudicated, line) SELECT l ->> \'id\', $1, $2, false, l FROM jsonb_array_elements($3::jsonb) AS l',
      [projectId, ALICE, JSON.stringify(three)],
    );
    const deadline = Date.now() + 5000;
    while (heard.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    // One statement of three revisions is one notification.
    await new Promise((r) => setTimeout(r, 100));
    expect(heard).toEqual([{ channel: 'arbiter_hub', payload: String(projectId) }]);
  });
});
