// The background sync's schedule (electron/core/service/teamSync.ts) with a hub stand-in: saves are
// debounced into one sync, syncs never overlap, a NOTIFY starts one at once, a failure is said in a
// sentence and retried with growing delays (saves start nothing meanwhile), and stop ends it all.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BackgroundSync, type SyncHooks } from '../../electron/core/service/teamSync';

const TIMING = { afterSaveMs: 200, afterNotifyMs: 10, backoffFirstMs: 100, backoffMaxMs: 1000 };

function standIn() {
  const log: string[] = [];
  let running = 0;
  let maxRunning = 0;
  let fail: Error | null = null;
  let notify: (payload: string) => void = () => undefined;
  let lose: (error: Error) => void = () => undefined;
  let release: (() => void) | null = null;
  let hold = false;
  let moved: boolean | null = null;
  let checks = 0;
  const hooks: SyncHooks = {
    async run() {
      running++;
      maxRunning = Math.max(maxRunning, running);
      log.push('run');
      try {
        if (hold) await new Promise<void>((resolve) => (release = resolve));
        else await new Promise((resolve) => setTimeout(resolve, 5));
        if (fail) throw fail;
        return { pushed: 1, pulled: 2 };
      } finally {
        running--;
      }
    },
    async listen(onNotify, onLost) {
      log.push('listen');
      if (fail) throw fail;
      notify = onNotify;
      lose = onLost;
      // moved (when set): the hub's cheap answer to "anything new since this desktop's pull mark?"
      return { close: async () => void log.push('close'), ...(moved === null ? {} : { moved: async () => (checks++, moved!) }) };
    },
    describe: (error) => `said: ${(error as Error).message}`,
    changed: () => undefined,
  };
  return {
    hooks,
    log,
    runs: () => log.filter((l) => l === 'run').length,
    maxRunning: () => maxRunning,
    setFail: (e: Error | null) => (fail = e),
    notify: (p = '1') => notify(p),
    lose: (e: Error) => lose(e),
    hold: (on: boolean) => (hold = on),
    release: () => release?.(),
    setMoved: (m: boolean | null) => (moved = m),
    checks: () => checks,
  };
}

let sync: BackgroundSync | null = null;
afterEach(async () => {
  await sync?.stop();
  sync = null;
});

describe('background sync', () => {
  it('connects, syncs once, and debounces a burst of saves into one more sync', async () => {
    const hub = standIn();
    sync = new BackgroundSync(hub.hooks, TIMING);
    await sync.start();
    expect(sync.listening).toBe(true);
    await vi.waitFor(() => expect(hub.runs()).toBe(1));
    for (let i = 0; i < 20; i++) {
      sync.afterSave();
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(hub.runs()).toBe(1);
    await vi.waitFor(() => expect(hub.runs()).toBe(2), { timeout: 2000 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(hub.runs()).toBe(2);
    expect(sync.lastSync).toMatchObject({ pushed: 1, pulled: 2 });
  });

  it('never runs two syncs at once: requests during a sync make one more after it', async () => {
    const hub = standIn();
    sync = new BackgroundSync(hub.hooks, TIMING);
    await sync.start();
    await vi.waitFor(() => expect(hub.runs()).toBe(1));
    hub.hold(true);
    const first = sync.syncNow();
    await vi.waitFor(() => expect(hub.runs()).toBe(2));
    const second = sync.syncNow();
    hub.notify();
    hub.notify();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(hub.runs()).toBe(2);
    hub.hold(false);
    hub.release();
    await Promise.all([first, second]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(hub.maxRunning()).toBe(1);
    expect(hub.runs()).toBeLessThanOrEqual(4);
    expect(hub.runs()).toBeGreaterThanOrEqual(3);
  });

  it('a NOTIFY starts a sync within the notify delay', async () => {
    const hub = standIn();
    // Every other delay is far beyond the test's wait, so the sync that follows can only be the notify's.
    sync = new BackgroundSync(hub.hooks, { ...TIMING, afterSaveMs: 600_000, backoffFirstMs: 600_000, backoffMaxMs: 600_000 });
    await sync.start();
    await vi.waitFor(() => expect(hub.runs()).toBe(1));
    hub.notify();
    await vi.waitFor(() => expect(hub.runs()).toBe(2), { timeout: 5000, interval: 2 });
  });

  it('says a failure in a sentence, retries with growing delays, ignores saves meanwhile, and clears the error when the hub is back', async () => {
    const hub = standIn();
    sync = new BackgroundSync(hub.hooks, TIMING);
    await sync.start();
    await vi.waitFor(() => expect(hub.runs()).toBe(1));
    hub.setFail(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    hub.lose(new Error('connect ECONNREFUSED'));
    expect(sync.listening).toBe(false);
    expect(sync.lastError).toBe('said: connect ECONNREFUSED');
    expect(sync.retryAt).not.toBeNull();
    const firstDelay = sync.retryAt! - Date.now();
    sync.afterSave();
    await vi.waitFor(() => expect(sync!.failures).toBe(2), { timeout: 2000 });
    const secondDelay = sync.retryAt! - Date.now();
    expect(secondDelay).toBeGreaterThan(firstDelay);
    hub.setFail(null);
    await vi.waitFor(() => expect(sync!.lastError).toBeNull(), { timeout: 3000 });
    expect(sync.listening).toBe(true);
    expect(sync.failures).toBe(0);
  });

  it('a storm of 100 NOTIFYs makes at most a couple of syncs (hints: coalesced, one per notify gap), and none when the hub has nothing new', async () => {
    const hub = standIn();
    hub.setMoved(true);
    sync = new BackgroundSync(hub.hooks, { ...TIMING, notifyGapMs: 400 });
    await sync.start();
    await vi.waitFor(() => expect(hub.runs()).toBe(1));
    const started = performance.now();
    while (performance.now() - started < 600) {
      for (let i = 0; i < 10; i++) hub.notify();
      await new Promise((resolve) => setTimeout(resolve, 60));
    }
    // 100 notifications over 600 ms; the last one's sync comes within a notify gap.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(hub.runs() - 1).toBeGreaterThanOrEqual(1);
    expect(hub.runs() - 1).toBeLessThanOrEqual(3);
    // Nothing new on the hub: the check is asked, no sync runs.
    hub.setMoved(false);
    const runs = hub.runs();
    const checks = hub.checks();
    await sync.stop();
    sync = new BackgroundSync(hub.hooks, { ...TIMING, notifyGapMs: 400 });
    await sync.start();
    await vi.waitFor(() => expect(hub.runs()).toBe(runs + 1));
    for (let i = 0; i < 100; i++) hub.notify();
    await vi.waitFor(() => expect(hub.checks()).toBeGreaterThan(checks));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(hub.runs()).toBe(runs + 1);
    // A save is not a hint: it syncs whatever the hub says.
    sync.afterSave();
    await vi.waitFor(() => expect(hub.runs()).toBe(runs + 2), { timeout: 2000 });
  });

  it('stop returns at once even when the running sync does not end', async () => {
    const hub = standIn();
    sync = new BackgroundSync(hub.hooks, { ...TIMING, stopWaitMs: 300 });
    await sync.start();
    await vi.waitFor(() => expect(hub.runs()).toBe(1));
    hub.hold(true);
    void sync.syncNow();
    await vi.waitFor(() => expect(sync!.syncing).toBe(true));
    // stop() answers while the sync it started is still held on the hub (released only below): it does
    // not wait for it (a stop that did would never return here).
    await sync.stop();
    expect(sync.syncing).toBe(false);
    expect(hub.maxRunning()).toBe(1);
    hub.release();
  });

  it('stop closes the LISTEN connection and starts nothing after', async () => {
    const hub = standIn();
    sync = new BackgroundSync(hub.hooks, TIMING);
    await sync.start();
    await vi.waitFor(() => expect(hub.runs()).toBe(1));
    await sync.stop();
    expect(hub.log).toContain('close');
    sync.afterSave();
    hub.notify();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(hub.runs()).toBe(1);
  });
});
