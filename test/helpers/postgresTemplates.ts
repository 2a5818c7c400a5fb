// vitest globalSetup (vitest.config.ts): a folder for the run's PostgreSQL data-folder templates, named in
// ARBITER_PG_TEMPLATES for the workers, removed when the run ends. It runs no initdb itself: the first hub test
// file that starts a cluster makes the template, so a run without hub tests pays nothing (test/helpers/postgres.ts).
import { chownSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-pg-templates-'));
  // As root the clusters belong to the postgres user (initdb refuses root), who must write here.
  if (typeof process.getuid === 'function' && process.getuid() === 0) {
    const line = readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('postgres:'));
    if (line) {
      const [, , uid, gid] = line.split(':');
      chownSync(dir, Number(uid), Number(gid));
    }
  }
  process.env.ARBITER_PG_TEMPLATES = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
