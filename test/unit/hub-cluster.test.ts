// The throwaway PostgreSQL cluster the hub tests run against (test/helpers/postgres.ts): it starts, answers
// through node-postgres, and stops leaving no folder behind; under scram auth a wrong password is refused;
// clusters made from the run's template (test/helpers/postgresTemplates.ts) are each their own.
import { existsSync, readdirSync } from 'node:fs';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { skipReason, startCluster } from '../helpers/postgres';

const reason = skipReason();
if (reason) console.warn(`hub-cluster skipped: ${reason}`);

describe.skipIf(reason)('throwaway PostgreSQL cluster', () => {
  it('starts on a free port, answers select 1 through pg, and stops removing its folder', async () => {
    const cluster = await startCluster();
    try {
      expect(cluster.port).toBeGreaterThan(0);
      const client = new pg.Client({ connectionString: cluster.url() });
      await client.connect();
      const { rows } = await client.query<{ one: number; version: string }>(
        "select 1 as one, current_setting('server_version_num') as version",
      );
      await client.end();
      expect(rows[0]?.one).toBe(1);
      expect(Number(rows[0]?.version)).toBeGreaterThanOrEqual(150000);
    } finally {
      await cluster.stop();
    }
    expect(existsSync(cluster.dir)).toBe(false);
    // Nothing listens there any more.
    const late = new pg.Client({ connectionString: cluster.url(), connectionTimeoutMillis: 2000 });
    await expect(late.connect()).rejects.toThrow(/ECONNREFUSED/);
  });

  it('under scram auth, takes the right password over TCP and refuses a wrong one', async () => {
    const cluster = await startCluster({ auth: 'scram' });
    try {
      const good = new pg.Client({ connectionString: cluster.url() });
      await good.connect();
      expect((await good.query('select 1 as one')).rows[0].one).toBe(1);
      await good.end();
      const bad = new pg.Client({ connectionString: cluster.url('postgres', 'wrong') });
      await expect(bad.connect()).rejects.toThrow(/password authentication failed/);
    } finally {
      await cluster.stop();
    }
  });

  it('starts each cluster from one initdb per kind in the run, and each copy is its own cluster', async () => {
    const templates = process.env.ARBITER_PG_TEMPLATES;
    expect(templates, 'vitest.config.ts names test/helpers/postgresTemplates.ts as its globalSetup').toBeTruthy();
    const [a, b] = await Promise.all([startCluster(), startCluster()]);
    try {
      // One template of the trust kind, whichever cluster (of this file or another worker's) made it. (A
      // folder beside it named <kind>.<pid>.<random> is another worker's template of a kind still being made.)
      const made = readdirSync(templates!);
      expect(made.filter((name) => name === Buffer.from('trust\n').toString('hex'))).toHaveLength(1);
      const one = new pg.Client({ connectionString: a.url() });
      await one.connect();
      await one.query('CREATE DATABASE only_in_a');
      await one.end();
      const other = new pg.Client({ connectionString: b.url() });
      await other.connect();
      const { rows } = await other.query("SELECT count(*)::int AS n FROM pg_database WHERE datname = 'only_in_a'");
      await other.end();
      expect(rows[0].n).toBe(0);
      expect(a.port).not.toBe(b.port);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });
});
