// What the audit of the hub (issue 20) did by hand as a member role, each refused by PostgreSQL itself on
// a real PostgreSQL 15 cluster (hub schema 3, migrations/0003_audit.sql): forged cuts (invented steps,
// steps that are no list of texts, origin 'file' / 'auto' from an annotator, projects not joined), a
// line under one's own uuid naming the lead, a revision for an item the project does not hold, and a role
// with no Arbiter grant stalling every push through the commit-order lock. `hub revoke` takes a person's
// access away and `hub grant` gives it back. What the app itself makes (Arbiter's cut, splits and merges,
// a code block split in two) still goes through.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../electron/cli/main';
import { connectHub } from '../../electron/core/hub/connect';
import { grant, revoke } from '../../electron/core/hub/roles';
import { initHub, listHubMigrations } from '../../electron/core/hub/schema';
import { cutProblem } from '../../shared/cuts';
import { mergeSteps, segment, splitStep } from '../../shared/segment';
import { seededRng } from '../helpers/seeded';
import { hubSkipReason, useHubCluster } from '../helpers/hubCluster';

const reason = hubSkipReason('hub-audit-server');

const LENA = '11111111-1111-4111-8111-111111111111';
const ANA = '22222222-2222-4222-8222-222222222222';
const BEN = '33333333-3333-4333-8333-333333333333';
const FILE = '55555555-5555-4555-8555-555555555555';

const TEXT = '1. Take 3.\n2. Add 3.\n\n3. So 6.\n\n```py\nx = 3\ny = x + 3\nprint(y)\n```\nDone.';
const CHAT = [{ role: 'assistant', content: [{ type: 'text', text: 'It is four.' }, { type: 'image_url', image_url: { url: 'x.png' } }] }];
const ITEM = { id: 'q1', prompt: 'Add 3 to 3.', responses: [{ text: TEXT }, { text: CHAT }] };

let n = 0;
function line(uuid: string, annotator: string, extra: Record<string, unknown> = {}) {
  const id = `0190f0f0-0000-7000-8000-${String(++n).padStart(12, '0')}`;
  return { id, item: 'q1', item_uid: 'u1', annotator, annotator_uuid: uuid, annotator_kind: 'human', task: 'pairwise', choice: 'A', created_at: '2026-01-01T00:00:00.000Z', ...extra };
}

async function refusal(work: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await work;
  } catch (e) {
    const err = e as { code?: string; message: string };
    return { code: err.code ?? '', message: err.message };
  }
  return { code: 'none', message: 'it went through' };
}

describe.skipIf(reason)('hub schema 3 refuses what the audit did as a member', () => {
  const hub = useHubCluster('hub-audit-server');
  let admin: pg.Client;
  let lena: pg.Client;
  let ana: pg.Client;
  let p: number;
  let q: number;
  const open: pg.Client[] = [];
  const as = async (role: string) => {
    const c = await connectHub(hub.cluster.url(role));
    open.push(c);
    return c;
  };
  const where = () => `127.0.0.1:${hub.cluster.port}`;
  const cut = (c: pg.Client, project: number, steps: unknown, origin = 'annotator', version = ++n, uid = 'u1', response = 0) =>
    c.query('INSERT INTO arbiter.segmentation (project_id, item_uid, response, version, steps, origin) VALUES ($1, $2, $3, $4, $5, $6)', [project, uid, response, version, JSON.stringify(steps), origin]);
  const revision = (c: pg.Client, project: number, l: ReturnType<typeof line>) =>
    c.query('INSERT INTO arbiter.revision (id, project_id, annotator_uuid, adjudicated, line) VALUES ($1, $2, $3, false, $4)', [l.id, project, l.annotator_uuid, l]);

  beforeAll(async () => {
    admin = await connectHub(hub.cluster.url());
    open.push(admin);
    await initHub(admin, where());
    await grant(admin, where(), { annotator: 'lena', role: 'lead', uuid: LENA, password: null });
    await grant(admin, where(), { annotator: 'ana', role: 'annotator', uuid: ANA, password: null });
    await grant(admin, where(), { annotator: 'ben', role: 'annotator', uuid: BEN, password: null });
    lena = await as('arbiter_lena');
    ana = await as('arbiter_ana');
    // The lead publishes two projects with the same item; ana joins the first only.
    for (const name of ['p', 'q']) {
      const id = Number((await lena.query('INSERT INTO arbiter.project (name) VALUES ($1) RETURNING id', [name])).rows[0].id);
      await lena.query("INSERT INTO arbiter.item_line (project_id, seq, uid, line) VALUES ($1, 1, 'u1', $2)", [id, JSON.stringify(ITEM)]);
      if (name === 'p') p = id;
      else q = id;
    }
    await ana.query('INSERT INTO arbiter.project_member (project_id) VALUES ($1)', [p]);
  }, 60_000);
  afterAll(async () => {
    for (const c of open) await c.end().catch(() => undefined);
  });

  it('takes the cuts the app makes: its rule, splits (inside a code block too), merges, a chat response', async () => {
    const steps = segment(TEXT).steps;
    const last = steps.length - 1;
    const inFence = splitStep(steps, last, steps[last]!.indexOf('y = x'))!;
    expect([inFence[last]!.endsWith('\n```'), inFence[last + 1]!.startsWith('```py\n')]).toEqual([true, true]);
    for (const s of [steps, inFence, splitStep(inFence, 0, 3)!, mergeSteps(inFence, last)!, mergeSteps(steps, 0)!, [TEXT]]) expect((await cut(ana, p, s)).rowCount).toBe(1);
    expect((await cut(ana, p, ['It is four.', '[image]'], 'annotator', 1, 'u1', 1)).rowCount).toBe(1);
    // The lead places Arbiter's own cut ('auto').
    expect((await cut(lena, p, steps, 'auto', 1000)).rowCount).toBe(1);
  });

  it('refuses a forged cut: invented steps, steps that are no list of texts, blank steps, an item or response the project lacks', async () => {
    const sentence = (why: string) => ({ code: '23514', message: expect.stringContaining(why) as unknown as string });
    expect(await refusal(cut(ana, p, ['1. Take 3.', '2. Add 4.', TEXT.slice(20)]))).toMatchObject(sentence("the steps put together are not the response's text"));
    expect(await refusal(cut(ana, p, [...segment(TEXT).steps, 'And the answer is 7.']))).toMatchObject(sentence("not the response's text"));
    expect(await refusal(cut(ana, p, ['1. Take 3.']))).toMatchObject(sentence("not the response's text"));
    expect(await refusal(cut(ana, p, TEXT))).toMatchObject(sentence('the steps are a JSON string, not a list of texts'));
    expect(await refusal(cut(ana, p, { 0: TEXT }))).toMatchObject(sentence('not a list of texts'));
    expect(await refusal(cut(ana, p, []))).toMatchObject(sentence('the steps are an empty list'));
    expect(await refusal(cut(ana, p, [TEXT, 5]))).toMatchObject(sentence('step 2 is not a text'));
    expect(await refusal(cut(ana, p, [TEXT, ' \n']))).toMatchObject(sentence('step 2 is blank'));
    // Whitespace is JavaScript's (\s): a vertical tab or a no-break space goes, a letter v stays.
    const letters = (text: string, steps: string[]) => admin.query('SELECT arbiter.cut_problem($1::json, $2::jsonb) AS why', [JSON.stringify({ text }), JSON.stringify(steps)]).then((r) => r.rows[0].why as string | null);
    expect(await letters('a\u000bvery\u00a0vivid\u2003end', ['a', 'very', 'vivid', 'end'])).toBeNull();
    expect(await letters('a very vivid end', ['a', 'ery', 'ivid', 'end'])).toMatch(/not the response's text/);
    // A fence line that is not the text's is no split's.
    expect(await refusal(cut(ana, p, ['1. Take 3.\n2. Add 3.\n\n3. So 6.\n\n```py\nx = 3\n```', '```evil words\ny = x + 3\nprint(y)\n```\nDone.']))).toMatchObject(
      sentence("not the response's text"),
    );
    expect(await refusal(cut(ana, p, ['Four.', '[image]'], 'annotator', 2, 'u1', 1))).toMatchObject(sentence("not the response's text"));
    expect(await refusal(cut(ana, p, [TEXT], 'annotator', 3, 'u1', 7))).toMatchObject(sentence('which has no such response'));
    expect(await refusal(cut(ana, p, [TEXT], 'annotator', 4, 'nope'))).toMatchObject({ code: '23503', message: expect.stringContaining('uid nope, which the project "p" on this hub does not hold') });
    // One forged row in a batch refuses the whole statement.
    const batch = await refusal(
      ana.query(
        `INSERT INTO arbiter.segmentation (project_id, item_uid, response, version, steps, origin)
         SELECT $1, 'u1', 0, v, s, 'annotator' FROM (VALUES (500, $2::jsonb), (501, '["invented"]'::jsonb)) x(v, s)`,
        [p, JSON.stringify([TEXT])],
      ),
    );
    expect(batch.code).toBe('23514');
    expect(Number((await admin.query('SELECT count(*) AS n FROM arbiter.segmentation WHERE version IN (500, 501)')).rows[0].n)).toBe(0);
  });

  it('takes every cut the app makes of 300 drawn texts (splits and merges inside code blocks too), and refuses each one altered', async () => {
    const seed = Number(process.env.FUZZ_SEED ?? 20261128);
    const rng = seededRng(seed);
    const words = ['Take', '3.', 'x', '=', 'y', 'So', '6.', 'Done.', 'é', 'δ', '\u00a0', '\t'];
    const fence = () => rng.pick(['```', '~~~', '````']);
    const piece = () => {
      const kind = rng.int(5);
      const text = Array.from({ length: 1 + rng.int(6) }, () => rng.pick(words)).join(rng.pick([' ', ' ', '  ', '\u00a0']));
      if (kind === 0) return `${1 + rng.int(9)}. ${text}`;
      if (kind === 1) return `Step ${1 + rng.int(9)}: ${text}`;
      if (kind === 2) return `${fence()}${rng.pick(['', 'py', 'js x'])}\n${text}\n${text}\n${fence()}`;
      return text;
    };
    const hub = async (text: string, steps: unknown) => (await admin.query('SELECT arbiter.cut_problem($1::json, $2::jsonb) AS why', [JSON.stringify({ text }), JSON.stringify(steps)])).rows[0].why as string | null;
    let desktopRefused = 0;
    for (let c = 0; c < 300; c++) {
      const text = Array.from({ length: 1 + rng.int(6) }, piece).join(rng.pick(['\n', '\n\n', '\n \n']));
      let steps = segment(text, rng.pick(['auto', 'markers', 'numbered', 'paragraphs', 'lines'] as const)).steps;
      if (steps.length === 0) continue;
      for (let k = rng.int(5); k > 0; k--) {
        const i = rng.int(steps.length);
        const next = rng.chance(0.6) ? splitStep(steps, i, 1 + rng.int(Math.max(1, steps[i]!.length - 1))) : mergeSteps(steps, i);
        if (next) steps = next;
      }
      const where = `seed ${seed}, case ${c}: ${JSON.stringify({ text, steps })}`;
      expect(await hub(text, steps), where).toBeNull();
      if (cutProblem(text, steps) !== null) desktopRefused++;
      // Altered: a word added at the end or the start of a step, or a letter or digit taken out (not from a
      // fence line: what a fence's info string says is the one thing the hub lets a cut say otherwise).
      const altered = [...steps];
      const i = rng.int(altered.length);
      const how = rng.int(3);
      const lastLine = altered[i]!.slice(altered[i]!.lastIndexOf('\n') + 1);
      if (how === 1) altered[i] = `Step 0: ${altered[i]}`;
      else if (how === 2 && /[A-Za-z0-9]/.test(lastLine) && !/^\s*(`{3,}|~{3,})/.test(lastLine)) altered[i] = altered[i]!.replace(/[A-Za-z0-9](?=[^A-Za-z0-9]*$)/, '');
      else altered[i] = `${altered[i]} seven`;
      expect(await hub(text, altered), `${where} altered ${JSON.stringify(altered)}`).not.toBeNull();
    }
    // The desktop's rule (shared/cuts.ts) is the stricter one: here it refuses a few cuts made by splits inside a fence's opening line.
    expect(desktopRefused).toBeLessThan(30);
  });

  it("refuses 'file' and 'auto' cuts from an annotator, and any write into a project they have not joined", async () => {
    const steps = segment(TEXT).steps;
    for (const origin of ['file', 'auto']) expect(await refusal(cut(ana, p, steps, origin))).toMatchObject({ code: '42501', message: expect.stringContaining(`a cut of origin ${origin}`) });
    const notJoined = { code: '42501', message: expect.stringContaining('"ana" has not joined the project "q" on this hub') };
    expect(await refusal(cut(ana, q, steps))).toMatchObject(notJoined);
    expect(await refusal(revision(ana, q, line(ANA, 'ana')))).toMatchObject(notJoined);
    // A member joins only as themselves, and only a project whose team (the lead's setting) is empty or names them.
    expect(await refusal(ana.query('INSERT INTO arbiter.project_member (project_id, annotator_uuid) VALUES ($1, $2)', [q, BEN]))).toMatchObject({ code: '42501', message: expect.stringContaining('only as themselves') });
    await lena.query(`UPDATE arbiter.project SET settings = '{"team": ["lena", "Ben"], "overlap": 1}' WHERE id = $1`, [q]);
    expect(await refusal(ana.query('INSERT INTO arbiter.project_member (project_id) VALUES ($1)', [q]))).toMatchObject({ code: '42501', message: expect.stringContaining('"ana" is not in the team of the project "q"') });
    const ben = await as('arbiter_ben');
    expect((await ben.query('INSERT INTO arbiter.project_member (project_id) VALUES ($1)', [q])).rowCount).toBe(1);
    expect((await revision(ben, q, line(BEN, 'ben'))).rowCount).toBe(1);
    // The lead joined both by publishing them, and may write into either.
    expect((await admin.query('SELECT project_id FROM arbiter.project_member WHERE annotator_uuid = $1 ORDER BY 1', [LENA])).rows.map((r) => Number(r.project_id))).toEqual([p, q]);
  });

  it("refuses a line that names another person than its uuid's, or a file's line naming a person", async () => {
    expect(await refusal(revision(ana, p, line(ANA, 'lena')))).toMatchObject({ code: '23514', message: expect.stringContaining('names its annotator "lena", but its annotator_uuid is "ana"\'s on this hub') });
    const nameless = line(ANA, 'ana');
    delete (nameless as Partial<typeof nameless>).annotator;
    expect(await refusal(revision(ana, p, nameless))).toMatchObject({ code: '23514', message: expect.stringContaining('names its annotator nobody') });
    expect(await refusal(revision(lena, p, line(FILE, 'ana', { annotator_kind: 'source' })))).toMatchObject({ code: '23514', message: expect.stringContaining('names "ana" as its annotator, but is not under their uuid') });
    expect((await revision(ana, p, line(ANA, 'ana'))).rowCount).toBe(1);
    expect((await revision(lena, p, line(FILE, 'gsm8k-file', { annotator_kind: 'source' }))).rowCount).toBe(1);
  });

  it('refuses a revision for an item the project does not hold', async () => {
    expect(await refusal(revision(ana, p, line(ANA, 'ana', { item: 'ghost', item_uid: 'ghost-uid' })))).toMatchObject({
      code: '23503',
      message: expect.stringContaining('for the item with uid ghost-uid, which the project "p" on this hub does not hold'),
    });
    const noUid = line(ANA, 'ana');
    delete (noUid as Partial<typeof noUid>).item_uid;
    expect(await refusal(revision(ana, p, noUid))).toMatchObject({ code: '23503' });
    // 5,000 in one statement, one of them a ghost: none goes in.
    const lines = Array.from({ length: 5000 }, (_, i) => line(ANA, 'ana', i === 4321 ? { item_uid: 'ghost-uid' } : {}));
    const insertAll = (ls: typeof lines) =>
      ana.query(`INSERT INTO arbiter.revision (id, project_id, annotator_uuid, adjudicated, line) SELECT l->>'id', $1, (l->>'annotator_uuid')::uuid, false, l FROM jsonb_array_elements($2::jsonb) l`, [p, JSON.stringify(ls)]);
    expect((await refusal(insertAll(lines))).code).toBe('23503');
    lines[4321] = line(ANA, 'ana');
    expect((await insertAll(lines)).rowCount).toBe(5000);
  });

  it('a role with no Arbiter grant cannot stall pushes: the commit-order lock is not one it can take', async () => {
    await admin.query("CREATE ROLE stranger LOGIN; GRANT CONNECT ON DATABASE postgres TO stranger");
    const stranger = await as('stranger');
    // Version 2's lock: anyone may take an advisory lock, and held it stopped every push.
    await stranger.query('SELECT pg_advisory_lock(1098015347, 1), pg_advisory_lock(1098015347, 2)');
    await ana.query("SET statement_timeout = '5s'");
    try {
      expect((await revision(ana, p, line(ANA, 'ana'))).rowCount).toBe(1);
      expect((await cut(ana, p, segment(TEXT).steps)).rowCount).toBe(1);
    } finally {
      await ana.query('RESET statement_timeout');
    }
    // Nor may it lock what commit order rests on now.
    expect(await refusal(stranger.query('SELECT 1 FROM arbiter.commit_order FOR UPDATE'))).toMatchObject({ code: '42501' });
    // Nor stall hub grant (and revoke), which took an advisory lock too.
    await stranger.query('SELECT pg_advisory_lock($1)', [0x4172_6267]);
    await admin.query("SET statement_timeout = '5s'");
    try {
      expect(await grant(admin, where(), { annotator: 'ana', role: 'annotator' })).toMatchObject({ uuid: ANA, created: false });
    } finally {
      await admin.query('RESET statement_timeout');
    }
    // Still in commit order: a push waits for an earlier one to commit, and takes the later hub_seq.
    const ben = await as('arbiter_ben');
    await ben.query('INSERT INTO arbiter.project_member (project_id) VALUES ($1)', [p]);
    await ana.query('BEGIN');
    const first = line(ANA, 'ana');
    await revision(ana, p, first);
    const second = line(BEN, 'ben');
    const waiting = revision(ben, p, second);
    const deadline = Date.now() + 10_000;
    while (((await admin.query("SELECT 1 FROM pg_stat_activity WHERE usename = 'arbiter_ben' AND wait_event_type = 'Lock'")).rowCount ?? 0) === 0) {
      if (Date.now() > deadline) throw new Error("ben's insert never waited for ana's");
      await new Promise((r) => setTimeout(r, 20));
    }
    await ana.query('COMMIT');
    await waiting;
    const seqs = (await admin.query('SELECT id, hub_seq FROM arbiter.revision WHERE id = ANY($1) ORDER BY hub_seq', [[first.id, second.id]])).rows.map((r) => r.id);
    expect(seqs).toEqual([first.id, second.id]);
  });

  it('a hub at version 2 brought to 3 keeps its writers writing: who pushed or published into a project has joined it', async () => {
    await admin.query('CREATE DATABASE older');
    const owner = await connectHub(hub.cluster.url(undefined, undefined, 'older'));
    open.push(owner);
    await initHub(owner, where(), listHubMigrations().filter((m) => m.version <= 2));
    await grant(owner, where(), { annotator: 'lena', role: 'lead', uuid: LENA, password: null });
    await grant(owner, where(), { annotator: 'ana', role: 'annotator', uuid: ANA, password: null });
    await grant(owner, where(), { annotator: 'ben', role: 'annotator', uuid: BEN, password: null });
    const lead = await connectHub(hub.cluster.url('arbiter_lena', undefined, 'older'));
    const anaOld = await connectHub(hub.cluster.url('arbiter_ana', undefined, 'older'));
    open.push(lead, anaOld);
    const id = Number((await lead.query("INSERT INTO arbiter.project (name) VALUES ('p') RETURNING id")).rows[0].id);
    await lead.query("INSERT INTO arbiter.item_line (project_id, seq, uid, line) VALUES ($1, 1, 'u1', $2)", [id, JSON.stringify(ITEM)]);
    await revision(anaOld, id, line(ANA, 'ana'));
    expect((await initHub(owner, where())).applied).toEqual(listHubMigrations().filter((m) => m.version > 2).map((m) => m.name));
    const members = (await owner.query('SELECT a.name FROM arbiter.project_member m JOIN arbiter.annotator a ON a.uuid = m.annotator_uuid ORDER BY 1')).rows.map((r) => r.name);
    expect(members).toEqual(['ana', 'lena']);
    expect((await revision(anaOld, id, line(ANA, 'ana'))).rowCount).toBe(1);
    // Ben never wrote there: he joins first.
    const benOld = await connectHub(hub.cluster.url('arbiter_ben', undefined, 'older'));
    open.push(benOld);
    expect(await refusal(revision(benOld, id, line(BEN, 'ben')))).toMatchObject({ code: '42501', message: expect.stringContaining('"ben" has not joined the project "p"') });
  });

  it('hub revoke: the login role no longer logs in nor writes, its open session ends, its work stays; grant gives it back', async () => {
    const ben = await as('arbiter_ben');
    const before = Number((await admin.query('SELECT count(*) AS n FROM arbiter.revision WHERE annotator_uuid = $1', [BEN])).rows[0].n);
    expect(before).toBeGreaterThan(0);
    const sessions = Number((await admin.query("SELECT count(*) AS n FROM pg_stat_activity WHERE usename = 'arbiter_ben'")).rows[0].n);
    expect(sessions).toBeGreaterThan(0);
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(['hub', 'revoke', '--hub', hub.cluster.url(), '--annotator', 'ben'], { out: (l) => out.push(l), err: (l) => err.push(l) });
    expect(code, err.join('\n')).toBe(0);
    expect(JSON.parse(out[0]!)).toMatchObject({ annotator: 'ben', uuid: BEN, login_role: 'arbiter_ben', was: 'annotator', revoked: true, already: false, sessions_ended: sessions, revisions: before });
    expect(err.join('\n')).toMatch(/ben \(annotator, login role arbiter_ben\) can no longer log in, nor write\. \d+ open sessions? ended\. Their \d+ revisions and 0 cuts stay on the hub/);
    expect(await refusal(ben.query('SELECT 1'))).not.toMatchObject({ code: 'none' });
    await expect(connectHub(hub.cluster.url('arbiter_ben'))).rejects.toThrow(/not permitted to log in/);
    // The row stays (the uuid still names ben's revisions), marked revoked.
    expect((await admin.query('SELECT revoked_at IS NOT NULL AS revoked FROM arbiter.annotator WHERE name = $1', ['ben'])).rows[0].revoked).toBe(true);
    expect(Number((await admin.query('SELECT count(*) AS n FROM arbiter.revision WHERE annotator_uuid = $1', [BEN])).rows[0].n)).toBe(before);
    // Again: says so, changes nothing; someone never granted is refused.
    expect(await revoke(admin, where(), 'ben')).toMatchObject({ already: true, sessionsEnded: 0 });
    await expect(revoke(admin, where(), 'nobody')).rejects.toThrow(/granted nobody named "nobody"; nothing was changed/);
    // A revoked lead keeps no lead rights either.
    await revoke(admin, where(), 'lena');
    expect((await admin.query("SELECT pg_has_role('arbiter_lena', 'arbiter_hub_lead', 'MEMBER') AS lead, rolcanlogin FROM pg_roles WHERE rolname = 'arbiter_lena'")).rows[0]).toEqual({ lead: false, rolcanlogin: false });
    await grant(admin, where(), { annotator: 'ben', role: 'annotator' });
    const back = await as('arbiter_ben');
    expect((await revision(back, q, line(BEN, 'ben'))).rowCount).toBe(1);
  });
});
