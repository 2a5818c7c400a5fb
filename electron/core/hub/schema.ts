// The hub's schema: numbered plain-SQL migrations (electron/core/hub/migrations/NNNN_name.sql, read at run
// time like the local migrations/), applied by `arbiter hub init` in one transaction, each recorded in
// arbiter.hub_schema_version. A hub already at the newest version is left untouched (no DDL at all, so a
// second init changes nothing and needs no rights); a hub written by a newer Arbiter is refused.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type pg from 'pg';
import { appRoot } from '../base/paths';
import { HubError } from './connect';

export interface HubMigration {
  version: number;
  name: string;
  sql: string;
}

/** Every hub init serialises on this (pg_advisory_xact_lock), so two at once cannot both create the schema. */
const INIT_LOCK = 0x4172_6269; // "Arbi"

export function hubMigrationsDir(): string {
  return join(appRoot(), 'electron', 'core', 'hub', 'migrations');
}

export function listHubMigrations(dir = hubMigrationsDir()): HubMigration[] {
  return readdirSync(dir)
    .filter((f) => /^\d{4}_.+\.sql$/.test(f))
    .sort()
    .map((name) => ({ version: Number(name.slice(0, 4)), name, sql: readFileSync(join(dir, name), 'utf8') }));
}

export function latestHubVersion(migrations = listHubMigrations()): number {
  return Math.max(0, ...migrations.map((m) => m.version));
}

type Queryable = Pick<pg.ClientBase, 'query'>;

/** The hub's schema version; 0 where `hub init` never ran. */
export async function hubSchemaVersion(client: Queryable): Promise<number> {
  const { rows } = await client.query<{ t: string | null }>("SELECT to_regclass('arbiter.hub_schema_version')::text AS t");
  if (!rows[0]?.t) return 0;
  const version = await client.query<{ v: number | null }>('SELECT max(version) AS v FROM arbiter.hub_schema_version');
  return version.rows[0]?.v ?? 0;
}

function newerHub(where: string, version: number, known: number): HubError {
  return new HubError(
    'schema',
    `The hub at ${where} has schema version ${version}, newer than this Arbiter knows (up to ${known}). Nothing was changed. Update Arbiter on this machine to use it.`,
  );
}

export interface InitResult {
  /** The version before and after. */
  from: number;
  version: number;
  /** Migration files applied now (none when the hub was up to date). */
  applied: string[];
}

/** Brings the hub to the newest schema; `where` (host:port) names it in sentences. */
export async function initHub(client: pg.ClientBase, where: string, migrations = listHubMigrations()): Promise<InitResult> {
  const known = latestHubVersion(migrations);
  const before = await hubSchemaVersion(client);
  if (before > known) throw newerHub(where, before, known);
  if (before === known) return { from: before, version: before, applied: [] };
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [INIT_LOCK]);
    await client.query('CREATE SCHEMA IF NOT EXISTS arbiter');
    await client.query(`CREATE TABLE IF NOT EXISTS arbiter.hub_schema_version (
      version    integer PRIMARY KEY,
      name       text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now(),
      applied_by name NOT NULL DEFAULT current_user
    )`);
    // Another init may have finished while this one waited for the lock.
    const current = await hubSchemaVersion(client);
    if (current > known) throw newerHub(where, current, known);
    const applied: string[] = [];
    for (const migration of migrations.filter((m) => m.version > current)) {
      await client.query(migration.sql);
      await client.query('INSERT INTO arbiter.hub_schema_version (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
      applied.push(migration.name);
    }
    await client.query('COMMIT');
    return { from: current, version: known, applied };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw explainInitError(error, where);
  }
}

/**
 * For every command but init: the hub must have been initialised, and not by a newer Arbiter. Returns
 * its version.
 */
export async function requireHubSchema(client: Queryable, where: string, migrations = listHubMigrations()): Promise<number> {
  const known = latestHubVersion(migrations);
  const version = await hubSchemaVersion(client);
  if (version === 0) throw new HubError('schema', `The hub at ${where} has no Arbiter schema yet. Its admin creates it with: arbiter hub init --hub URL`);
  if (version > known) throw newerHub(where, version, known);
  if (version < known) {
    throw new HubError('schema', `The hub at ${where} has schema version ${version}; this Arbiter needs ${known}. Its admin updates it with: arbiter hub init --hub URL`);
  }
  return version;
}

function explainInitError(error: unknown, where: string): unknown {
  const e = error as { code?: string; message?: string };
  if (e.code === '42501') {
    return new HubError(
      'refused',
      `The hub at ${where} refused to create the Arbiter schema (${e.message}). Nothing was changed. Run hub init as the database's owner, a role that may create schemas and roles (CREATEROLE).`,
    );
  }
  return error;
}
