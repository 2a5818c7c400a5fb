// Who may write to the hub: `arbiter hub grant` makes (or updates) an annotator's PostgreSQL login role,
// puts it in the arbiter_hub_member group (and arbiter_hub_lead for a lead), and writes the annotator's
// row: name, role, uuid, login role. Row-level security reads that row (migrations/0001_hub.sql).
//
// The uuid is the annotator's identity across machines, the one every label line carries. Two ways in:
// - `hub grant --uuid U` records the uuid the annotator's desktop already uses (their labels' annotator_uuid,
//   e.g. from `arbiter labels export`), for someone who labeled before joining;
// - without --uuid, grant makes a new one (random, like a new local annotator), and `hub join`, connected as
//   that login role, adopts it: the local annotator of that name is made with the hub's uuid. Where the
//   desktop already has that name under another uuid, join says so, and the lead grants again with --uuid;
//   a uuid can change only while the hub holds no revision under the old one.
import { createHash, createHmac, pbkdf2Sync, randomBytes, randomUUID } from 'node:crypto';
import type pg from 'pg';
import { annotatorName } from '../../../shared/api/common';
import { conflict, invalidInput, notFound } from '../base/errors';

export const HUB_ROLES = ['annotator', 'lead'] as const;
export type HubRole = (typeof HUB_ROLES)[number];
export const MEMBER_GROUP = 'arbiter_hub_member';
export const LEAD_GROUP = 'arbiter_hub_lead';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/**
 * Serialises grants and revokes, so two at once cannot both make the same role: a lock on the annotator table
 * that conflicts with itself and not with reads, which only the table's owner may take (an advisory lock is
 * anyone's to take and hold, stalling every grant).
 */
const GRANT_LOCK = 'LOCK TABLE arbiter.annotator IN SHARE ROW EXCLUSIVE MODE';

/**
 * The login role for an annotator: arbiter_ + the name in lower case, letters and digits kept and the rest
 * made `_` (accents dropped); cut to PostgreSQL's 63 bytes with a hash of the name keeping it apart.
 */
export function loginRoleFor(name: string): string {
  const plain = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '');
  const hash = createHash('sha256').update(name).digest('hex').slice(0, 8);
  if (!plain) return `arbiter_${hash}`;
  return plain.length <= 55 ? `arbiter_${plain}` : `arbiter_${plain.slice(0, 46)}_${hash}`;
}

/**
 * A SCRAM-SHA-256 verifier for a password (RFC 5802 / 7677, as PostgreSQL stores it), so the password
 * itself never reaches the server, its logs or pg_stat_activity. The password is normalised like
 * node-postgres and libpq do before hashing (SASLprep's mapping and NFKC).
 */
export function scramVerifier(password: string, salt = randomBytes(16), iterations = 4096): string {
  const prepared = password
    .replace(/[\u00A0\u1680\u2000-\u200B\u202F\u205F\u3000]/g, ' ')
    .replace(/[\u00AD\u034F\u1806\u180B-\u180D\u200C\u200D\u2060\uFE00-\uFE0F\uFEFF]/g, '')
    .normalize('NFKC');
  const salted = pbkdf2Sync(prepared, salt, iterations, 32, 'sha256');
  const clientKey = createHmac('sha256', salted).update('Client Key').digest();
  const storedKey = createHash('sha256').update(clientKey).digest();
  const serverKey = createHmac('sha256', salted).update('Server Key').digest();
  return `SCRAM-SHA-256$${iterations}:${salt.toString('base64')}$${storedKey.toString('base64')}:${serverKey.toString('base64')}`;
}

export interface GrantInput {
  annotator: string;
  role: HubRole;
  /** The uuid the annotator's desktop uses; absent: kept for someone already granted, else a new one. */
  uuid?: string;
  /** The login role's password: a string sets it, null leaves it with none (trust-auth clusters only), undefined keeps what it has. */
  password?: string | null;
}

export interface GrantResult {
  annotator: string;
  uuid: string;
  role: HubRole;
  /** The PostgreSQL role they log in as. */
  pgRole: string;
  /** Whether the annotator row, and the login role, were made now. */
  created: boolean;
  roleCreated: boolean;
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

function quoteLiteral(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

interface AnnotatorRow {
  uuid: string;
  name: string;
  role: HubRole;
  pg_role: string;
}

/** Grants an annotator access to the hub, or changes their role; `where` (host:port) names the hub. */
export async function grant(client: pg.ClientBase, where: string, input: GrantInput): Promise<GrantResult> {
  const parsedName = annotatorName.safeParse(input.annotator);
  if (!parsedName.success) throw invalidInput(`--annotator: ${parsedName.error.issues[0]?.message ?? 'not a valid name'}`);
  const name = parsedName.data;
  if (!(HUB_ROLES as readonly string[]).includes(input.role)) throw invalidInput(`--role ${input.role}: one of ${HUB_ROLES.join(', ')}.`);
  if (input.uuid !== undefined && !UUID.test(input.uuid)) throw invalidInput(`--uuid ${input.uuid} is not a uuid (8-4-4-4-12 hexadecimal digits).`);
  const askedUuid = input.uuid?.toLowerCase();
  const pgRole = loginRoleFor(name);

  await client.query('BEGIN');
  try {
    await client.query(GRANT_LOCK);
    const rows = async (sql: string, params: unknown[]) => (await client.query<AnnotatorRow>(sql, params)).rows;
    const cols = 'uuid::text AS uuid, name, role, pg_role';
    const [byName] = await rows(`SELECT ${cols} FROM arbiter.annotator WHERE name = $1`, [name]);
    const uuid = askedUuid ?? byName?.uuid ?? randomUUID();
    const [byUuid] = await rows(`SELECT ${cols} FROM arbiter.annotator WHERE uuid = $1`, [uuid]);
    if (byUuid && byUuid.name !== name) throw conflict(`The uuid ${uuid} already belongs to annotator "${byUuid.name}" on the hub at ${where}; nothing was changed.`);
    const [byRole] = await rows(`SELECT ${cols} FROM arbiter.annotator WHERE pg_role = $1`, [pgRole]);
    if (byRole && byRole.name !== name) {
      throw conflict(`The login role ${pgRole} already belongs to annotator "${byRole.name}" on the hub at ${where}; nothing was changed. Grant "${name}" under a name that differs in its letters or digits.`);
    }
    if (byName?.uuid !== uuid) {
      // Revisions already under this uuid are a file's or a model's (no person could push them): a person
      // given it would take them over as their own labels.
      const { rows: taken } = await client.query<{ n: string }>('SELECT count(*) AS n FROM arbiter.revision WHERE annotator_uuid = $1', [uuid]);
      const n = Number(taken[0]?.n ?? 0);
      if (n > 0) throw conflict(`The hub at ${where} already holds ${n} revision${n === 1 ? '' : 's'} under uuid ${uuid} that are not "${name}"'s; nothing was changed. Grant them with their own uuid.`);
    }
    if (byName && byName.uuid !== uuid) {
      const { rows: used } = await client.query<{ n: string }>('SELECT count(*) AS n FROM arbiter.revision WHERE annotator_uuid = $1', [byName.uuid]);
      const n = Number(used[0]?.n ?? 0);
      if (n > 0) {
        throw conflict(
          `"${name}" has ${n} revision${n === 1 ? '' : 's'} on the hub at ${where} under uuid ${byName.uuid}, so their uuid cannot change to ${uuid}; nothing was changed.`,
        );
      }
    }

    const existing = await client.query<{ rolsuper: boolean }>('SELECT rolsuper FROM pg_roles WHERE rolname = $1', [pgRole]);
    const roleCreated = existing.rowCount === 0;
    if (existing.rows[0]?.rolsuper) throw conflict(`The role ${pgRole} on the hub at ${where} is a superuser; Arbiter will not hand it to an annotator. Nothing was changed.`);
    const password = input.password === undefined ? '' : input.password === null ? ' PASSWORD NULL' : ` PASSWORD ${quoteLiteral(scramVerifier(input.password))}`;
    const attributes = 'LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS INHERIT';
    await client.query(`${roleCreated ? 'CREATE' : 'ALTER'} ROLE ${quoteIdent(pgRole)} ${attributes}${password}`);
    await client.query(`GRANT ${MEMBER_GROUP} TO ${quoteIdent(pgRole)}`);
    const isLead = await client.query<{ m: boolean }>("SELECT pg_has_role($1, $2, 'MEMBER') AS m", [pgRole, LEAD_GROUP]);
    if (input.role === 'lead' && !isLead.rows[0]?.m) await client.query(`GRANT ${LEAD_GROUP} TO ${quoteIdent(pgRole)}`);
    if (input.role === 'annotator' && isLead.rows[0]?.m) await client.query(`REVOKE ${LEAD_GROUP} FROM ${quoteIdent(pgRole)}`);

    if (byName) {
      // Granting again gives back what a revoke took (hub schema 3 keeps revoked_at).
      await client.query('UPDATE arbiter.annotator SET uuid = $2, role = $3, pg_role = $4, granted_at = now(), granted_by = current_user, revoked_at = NULL, revoked_by = NULL WHERE name = $1', [
        name,
        uuid,
        input.role,
        pgRole,
      ]);
    } else {
      await client.query('INSERT INTO arbiter.annotator (uuid, name, role, pg_role) VALUES ($1, $2, $3, $4)', [uuid, name, input.role, pgRole]);
    }
    await client.query('COMMIT');
    return { annotator: name, uuid, role: input.role, pgRole, created: !byName, roleCreated };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    const e = error as { code?: string; message?: string };
    if (e.code === '42501') {
      throw conflict(`The hub at ${where} refused the grant (${e.message}); nothing was changed. Run hub grant as the role that ran hub init (the hub's admin; it needs CREATEROLE).`);
    }
    if (e.code === '42P01') throw conflict(`The hub at ${where} has no Arbiter schema yet; create it first with: arbiter hub init --hub URL`);
    if (e.code === '42703') throw conflict(`The hub at ${where} has an older Arbiter schema; update it first with: arbiter hub init --hub URL`);
    throw error;
  }
}

/** Whether a PostgreSQL role of this name exists (a grant then changes it rather than making it). */
export async function loginRoleExists(client: Pick<pg.ClientBase, 'query'>, pgRole: string): Promise<boolean> {
  return ((await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [pgRole])).rowCount ?? 0) > 0;
}

export interface HubIdentity {
  uuid: string;
  name: string;
  role: HubRole;
  pgRole: string;
}

/** The annotator this connection logs in as (current_user), or null for a role no grant made (the admin). */
export async function whoAmI(client: Pick<pg.ClientBase, 'query'>): Promise<HubIdentity | null> {
  const { rows } = await client.query<AnnotatorRow>('SELECT uuid::text AS uuid, name, role, pg_role FROM arbiter.annotator WHERE pg_role = current_user');
  const row = rows[0];
  return row ? { uuid: row.uuid, name: row.name, role: row.role, pgRole: row.pg_role } : null;
}

export interface RevokeResult {
  annotator: string;
  uuid: string;
  /** The role they had: a lead's published work and adjudications stay, like everyone's revisions. */
  was: HubRole;
  pgRole: string;
  /** Whether the row was revoked already (the command changes nothing more then). */
  already: boolean;
  /** Their sessions ended now; null where this admin may not end them (it needs pg_signal_backend, or membership in the role). */
  sessionsEnded: number | null;
  /** What stays on the hub under their uuid. */
  revisions: number;
  cuts: number;
}

function directMember(client: pg.ClientBase, group: string, pgRole: string): Promise<boolean> {
  return client
    .query<{ m: boolean }>(
      'SELECT EXISTS (SELECT 1 FROM pg_auth_members m JOIN pg_roles g ON g.oid = m.roleid JOIN pg_roles r ON r.oid = m.member WHERE g.rolname = $1 AND r.rolname = $2) AS m',
      [group, pgRole],
    )
    .then((r) => r.rows[0]?.m === true);
}

/**
 * Takes an annotator's access away: their login role may no longer log in (NOLOGIN) and leaves the member
 * and lead groups, so a session still open writes nothing either; their sessions are ended where this admin
 * may. Their row stays, marked revoked, so the uuid still names their revisions everywhere; what they
 * pushed stays. `hub grant` gives it all back.
 */
export async function revoke(client: pg.ClientBase, where: string, annotator: string): Promise<RevokeResult> {
  await client.query('BEGIN');
  let result: Omit<RevokeResult, 'sessionsEnded'>;
  try {
    await client.query(GRANT_LOCK);
    const row = (
      await client.query<AnnotatorRow & { revoked: boolean; revisions: string; cuts: string }>(
        `SELECT a.uuid::text AS uuid, a.name, a.role, a.pg_role, a.revoked_at IS NOT NULL AS revoked,
                (SELECT count(*) FROM arbiter.revision r WHERE r.annotator_uuid = a.uuid) AS revisions,
                (SELECT count(*) FROM arbiter.segmentation s WHERE s.pushed_by = a.pg_role) AS cuts
         FROM arbiter.annotator a WHERE a.name = $1`,
        [annotator],
      )
    ).rows[0];
    if (!row) throw notFound(`The hub at ${where} has granted nobody named "${annotator}"; nothing was changed. (Names are as hub grant was given them, letter case included.)`);
    const role = quoteIdent(row.pg_role);
    if ((await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [row.pg_role])).rowCount) {
      await client.query(`ALTER ROLE ${role} NOLOGIN`);
      for (const group of [LEAD_GROUP, MEMBER_GROUP]) if (await directMember(client, group, row.pg_role)) await client.query(`REVOKE ${group} FROM ${role}`);
    }
    if (!row.revoked) await client.query('UPDATE arbiter.annotator SET revoked_at = now(), revoked_by = current_user WHERE name = $1', [row.name]);
    await client.query('COMMIT');
    result = { annotator: row.name, uuid: row.uuid, was: row.role, pgRole: row.pg_role, already: row.revoked, revisions: Number(row.revisions), cuts: Number(row.cuts) };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    const e = error as { code?: string; message?: string };
    if (e.code === '42501') throw conflict(`The hub at ${where} refused the revoke (${e.message}); nothing was changed. Run hub revoke as the role that ran hub init (the hub's admin).`);
    if (e.code === '42P01' || e.code === '42703') throw conflict(`The hub at ${where} has no Arbiter schema, or an older one; update it first with: arbiter hub init --hub URL`);
    throw error;
  }
  // After the commit: a session that began before it holds no privilege now, and ends here where this admin may end it.
  let sessionsEnded: number | null = 0;
  try {
    const ended = await client.query<{ ok: boolean }>('SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE usename = $1 AND pid <> pg_backend_pid()', [result.pgRole]);
    sessionsEnded = ended.rows.filter((r) => r.ok).length;
  } catch (error) {
    if ((error as { code?: string }).code !== '42501') throw error;
    sessionsEnded = null;
  }
  return { ...result, sessionsEnded };
}

/**
 * Records on the hub that this login role's person joined the project (hub schema 3: a member writes only
 * into the projects they joined; one whose settings name a team, only when it names them). Nothing for the
 * admin, who is no annotator, nor for someone who joined before.
 */
export async function recordJoin(client: Pick<pg.ClientBase, 'query'>, project: string | number, where: string): Promise<void> {
  try {
    await client.query(
      `INSERT INTO arbiter.project_member (project_id)
       SELECT p.id FROM arbiter.project p
       WHERE ${typeof project === 'number' ? 'p.id = $1' : 'p.name = $1'} AND arbiter.my_uuid() IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM arbiter.project_member m WHERE m.project_id = p.id AND m.annotator_uuid = arbiter.my_uuid())`,
      [project],
    );
  } catch (error) {
    const e = error as { code?: string; message?: string };
    if (e.code === '42501') throw conflict(`The hub at ${where} refused the join: ${e.message ?? 'no reason given'}. Nothing was joined.`);
    throw error;
  }
}
