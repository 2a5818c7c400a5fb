// The set-up every hub test file repeats: say why it skips where PostgreSQL is missing (fail under
// ARBITER_REQUIRE_ALL=1), start a throwaway cluster and a scratch folder before its tests, stop and remove
// both after them. Use it as
//
//   const reason = hubSkipReason('hub-views');
//   describe.skipIf(reason)('…', () => {
//     const hub = useHubCluster('hub-views');
//     … hub.cluster.url(), join(hub.dir, 'ana.db') …
//   });
//
// Call useHubCluster before the file's own beforeAll/afterAll: vitest runs after-hooks in reverse order,
// so the file's own clean-up (desktops closed, clients ended) runs before the cluster stops.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { skipReason, startCluster, type PgCluster, type PgClusterOptions } from './postgres';

/** skipReason(), printed with the file's name where the file skips. */
export function hubSkipReason(name: string): string | null {
  const reason = skipReason();
  if (reason) console.warn(`${name} skipped: ${reason}`);
  return reason;
}

export interface HubCluster {
  /** The file's cluster (from its beforeAll on). */
  readonly cluster: PgCluster;
  /** The file's scratch folder, kept for the whole file (a sync's worker opens files by path). */
  readonly dir: string;
}

export function useHubCluster(name: string, options: PgClusterOptions = {}): HubCluster {
  let cluster: PgCluster | undefined;
  let dir = '';
  beforeAll(async () => {
    cluster = await startCluster(options);
    dir = mkdtempSync(join(tmpdir(), `arbiter-${name}-`));
  }, 120_000);
  afterAll(async () => {
    await cluster?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  return {
    get cluster() {
      if (!cluster) throw new Error(`${name}: the cluster is there from beforeAll on`);
      return cluster;
    },
    get dir() {
      return dir;
    },
  };
}
