// CI must not pass quietly: a hub suite skipped for want of PostgreSQL fails the run when
// ARBITER_REQUIRE_ALL=1 (.ci/run exports it), and elsewhere it is skipped saying why. Runs one hub test
// file (hub-cluster) in a vitest of its own with the PostgreSQL binaries pointed at a folder that does not exist.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { failIfRequired, skipOrFail } from '../helpers/required';

const root = join(__dirname, '..', '..');

function hubClusterSuite(requireAll: boolean) {
  const env: NodeJS.ProcessEnv = { ...process.env, ARBITER_PG_BIN: join(root, 'no-such-postgres', 'bin'), FORCE_COLOR: '0' };
  if (requireAll) env.ARBITER_REQUIRE_ALL = '1';
  else delete env.ARBITER_REQUIRE_ALL;
  const run = spawnSync(process.execPath, [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', 'test/unit/hub-cluster.test.ts'], { cwd: root, env, encoding: 'utf8', timeout: 120_000 });
  return { status: run.status, said: `${run.stdout}\n${run.stderr}` };
}

describe('ARBITER_REQUIRE_ALL', () => {
  it('fails a hub suite that cannot find PostgreSQL, naming what is missing', () => {
    const run = hubClusterSuite(true);
    expect(run.status, run.said).not.toBe(0);
    expect(run.said).toContain('no-such-postgres/bin/initdb');
    expect(run.said).toContain('ARBITER_REQUIRE_ALL=1');
  });

  it('without it, skips that suite and prints why', () => {
    const run = hubClusterSuite(false);
    expect(run.status, run.said).toBe(0);
    expect(run.said).toMatch(/hub-cluster skipped: PostgreSQL 15 is not installed \(no .*no-such-postgres\/bin\/initdb\)/);
    expect(run.said).toMatch(/1 skipped/);
  });

  it('turns any reason into a failure, and passes a suite that can run', () => {
    const before = process.env.ARBITER_REQUIRE_ALL;
    try {
      process.env.ARBITER_REQUIRE_ALL = '1';
      expect(() => failIfRequired('The TRL checks', 'no Python was found')).toThrow(/The TRL checks cannot run here: no Python was found/);
      expect(failIfRequired('The TRL checks', null)).toBeNull();
      delete process.env.ARBITER_REQUIRE_ALL;
      expect(skipOrFail('The TRL checks', 'no Python was found')).toBe('no Python was found');
    } finally {
      if (before === undefined) delete process.env.ARBITER_REQUIRE_ALL;
      else process.env.ARBITER_REQUIRE_ALL = before;
    }
  });
});
