// The hub as the app uses it: the local link (store/hub.ts), join (hub/join.ts), one sync (hub/sync.ts)
// and the LISTEN connection (hub/listen.ts), behind the HubBackend the service's team room schedules.
// A sync runs in a task worker on its own database connection (tasks/), so the thread that answers
// saves never parses or merges a batch: a merge of 5,000 revisions held this thread ~180 ms at a time
// (test/integration/hub-app-load.test.ts). Where no worker can start (an in-memory database), it runs
// here, yielding between batches.
import { connectHub, parseHubUrl } from '../hub/connect';
import { joinProject } from '../hub/join';
import { listenHub } from '../hub/listen';
import { syncProject, type SyncSummary } from '../hub/sync';
import { hubLink } from '../store/hub';
import { startTask } from '../tasks/client';
import type { HubBackend } from './team';
import type { SyncResult } from './teamSync';

/** How often a running sync in a worker is asked whether it was stopped. */
const CANCEL_POLL_MS = 100;

/** What the Team panel keeps of a sync's summary. */
export function syncResultOf(summary: SyncSummary): SyncResult {
  const { pushed, pulled, items, itemsProblem, settings, as, notPushed, notPushedBy, deferred, deferredReason, refused } = summary;
  return { pushed, pulled, items, itemsProblem, settings, as, notPushed, notPushedBy, deferred, deferredReason, refused };
}

export function hubBackend(dbPath: string): HubBackend {
  return {
    link: (db, projectId) => {
      const link = hubLink(db, projectId);
      return link && { url: link.url, hubProjectId: String(link.hubProjectId), pushedLabelSeq: link.pushedLabelSeq, pulledSeq: link.pulledSeq, lastSyncAt: link.lastSyncAt, lastError: link.lastError };
    },
    join: async (db, { project, url, password }) => {
      const address = parseHubUrl(url);
      const client = await connectHub(address, { password });
      try {
        return (await joinProject(db, client, project, { where: address.where, url: address.url })).refused;
      } finally {
        await client.end().catch(() => undefined);
      }
    },
    sync: async (db, { project, url, password, isCancelled }) => {
      let handle;
      try {
        handle = startTask(dbPath, { kind: 'hubSync', project, url, ...(password === undefined ? {} : { password }) });
      } catch {
        return syncResultOf(await syncProject(db, { project, url, password, isCancelled }));
      }
      const poll = setInterval(() => isCancelled() && handle.cancel(), CANCEL_POLL_MS);
      poll.unref?.();
      try {
        return syncResultOf(await handle.promise);
      } finally {
        clearInterval(poll);
      }
    },
    listen: ({ url, password, onNotify, onLost }) => listenHub(url, { password, onNotify, onLost }),
  };
}
