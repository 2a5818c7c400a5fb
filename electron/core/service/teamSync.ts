// One project's background sync with its hub while it is connected. Syncs run one at a time (a request
// while one runs makes one more run after it, never two at once), never inside a save: a save only
// (re)starts a debounce timer, and the sync itself (core/hub/sync.ts) commits in short batches and
// yields between them. What starts a sync: connecting, a save (2 s after the last one), the hub's NOTIFY
// on the LISTEN connection (a teammate pushed), Sync now, and after a failure the retry timer, with
// exponential backoff (1 s, 2 s, 4 s … at most 5 minutes, ±20%), during which saves start nothing.
// A NOTIFY is a hint (anyone granted may send one): hints coalesce into one timer, start at most one sync
// per notify gap (3 s), and one starts nothing when the hub has no revision past this desktop's pull
// mark (one indexed max() on the LISTEN connection). Stop returns within a bound whatever a sync does.

export interface SyncResult {
  pushed: number;
  pulled: number;
  /** Items a lead published since, that came down with it. */
  items?: number;
  /** Why new items on the hub did not come down (tried again at the next sync), or null. */
  itemsProblem?: string | null;
  /** The project's settings and rubric in force: 'taken' when the hub's replaced this desktop's, 'refused' when the hub's fail the app's checks. */
  settings?: 'sent' | 'taken' | 'same' | 'refused';
  /** Who the hub's user is granted to (null: nobody). */
  as?: string | null;
  /** Revisions saved here that the hub's user may not push, and whose they are. */
  notPushed?: number;
  notPushedBy?: string[];
  /** Revisions from the hub that cannot merge here yet, and the first reason. */
  deferred?: number;
  deferredReason?: string | null;
  /** What the sync refused of what the hub holds (forged cuts, malformed settings or rubric versions, lines too long…), in sentences. */
  refused?: string[];
}

export interface ListenHandle {
  close(): Promise<void>;
  /** Whether the hub holds something this desktop has not pulled (a cheap check); absent: assume so. */
  moved?(): Promise<boolean>;
}

/** What the scheduler needs from the hub (the real one: core/hub; tests may give their own). */
export interface SyncHooks {
  /** One sync, push then pull; stops between batches when isCancelled() says so. */
  run(isCancelled: () => boolean): Promise<SyncResult>;
  /** Opens the LISTEN connection: onNotify per notification, onLost once when it drops. */
  listen(onNotify: (payload: string) => void, onLost: (error: Error) => void): Promise<ListenHandle>;
  /** A sentence for people about what failed, and what to do. */
  describe(error: unknown): string;
  /** Something people see changed (syncing, a result, an error): the service emits an event. */
  changed(what: { synced?: SyncResult }): void;
}

export interface SyncTiming {
  afterSaveMs: number;
  afterNotifyMs: number;
  backoffFirstMs: number;
  backoffMaxMs: number;
  /** At most one sync started by NOTIFYs per this many ms. */
  notifyGapMs?: number;
  /** How long stop waits for the running sync and the LISTEN connection to close before it returns anyway. */
  stopWaitMs?: number;
}

export const DEFAULT_TIMING: SyncTiming = { afterSaveMs: 2000, afterNotifyMs: 50, backoffFirstMs: 1000, backoffMaxMs: 5 * 60_000, notifyGapMs: 3000, stopWaitMs: 2000 };

export class BackgroundSync {
  listening = false;
  syncing = false;
  lastError: string | null = null;
  /** When the retry after a failure is due (ms since the epoch), or null. */
  retryAt: number | null = null;
  failures = 0;
  lastSync: (SyncResult & { at: string }) | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private timerDue = 0;
  private listener: ListenHandle | null = null;
  private loop: Promise<void> | null = null;
  private pending = false;
  /** The pending run was asked for by more than a NOTIFY (connecting, a save, Sync now, a retry): it runs whatever the hub says. */
  private full = false;
  /** When a NOTIFY last led to a check or a sync (ms since the epoch). */
  private lastHintAt = 0;
  private stopped = false;

  constructor(
    private readonly hooks: SyncHooks,
    private readonly timing: SyncTiming = DEFAULT_TIMING,
  ) {}

  /** Opens the LISTEN connection (a failure is thrown: Connect says it at once), then syncs. */
  async start(): Promise<void> {
    await this.openListener();
    this.full = true;
    this.schedule(0);
  }

  /** A save here: a sync 2 s after the last one (nothing while a failure waits for its retry). */
  afterSave(): void {
    if (this.stopped || this.retryAt !== null) return;
    this.full = true;
    this.schedule(this.timing.afterSaveMs, true);
  }

  /** The hub hinted that something new is there: one timer for every hint, one per notify gap. */
  notified(): void {
    if (this.stopped) return;
    const gap = this.lastHintAt + (this.timing.notifyGapMs ?? 0) - Date.now();
    this.schedule(Math.max(this.timing.afterNotifyMs, gap));
  }

  /** Syncs now, past any backoff; resolves when it (and any run it queued behind) is over. */
  syncNow(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.clearTimer();
    this.retryAt = null;
    this.pending = true;
    this.full = true;
    return this.drain();
  }

  /**
   * Stops: no new runs, the running one stops (its hub connection is ended, core/hub/connect.ts), the
   * LISTEN connection closes. Returns once they did, or after stopWaitMs whatever they do.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    this.clearTimer();
    this.retryAt = null;
    const listener = this.listener;
    this.listener = null;
    this.listening = false;
    let bound: ReturnType<typeof setTimeout> | undefined;
    const waited = new Promise<void>((resolve) => {
      bound = setTimeout(resolve, this.timing.stopWaitMs ?? 2000);
      bound.unref?.();
    });
    await Promise.race([Promise.allSettled([listener?.close(), this.loop]), waited]);
    clearTimeout(bound);
    this.syncing = false;
  }

  /** Runs `ms` from now; an earlier timer stays unless `reset` (a debounce) asks to move it. */
  private schedule(ms: number, reset = false): void {
    const due = Date.now() + ms;
    if (this.timer && !reset && this.timerDue <= due) return;
    this.clearTimer();
    this.timerDue = due;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.retryAt = null;
      this.pending = true;
      void this.drain();
    }, ms);
    this.timer.unref?.();
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private drain(): Promise<void> {
    if (!this.loop) {
      this.loop = (async () => {
        while (this.pending && !this.stopped) {
          this.pending = false;
          const full = this.full;
          this.full = false;
          if (!full) {
            this.lastHintAt = Date.now();
            if (!(await this.hubMoved())) continue;
          }
          await this.attempt();
        }
      })().finally(() => (this.loop = null));
    }
    return this.loop;
  }

  /** A hint's check: whether the hub holds anything new for this desktop (yes when it cannot tell). */
  private async hubMoved(): Promise<boolean> {
    const listener = this.listener;
    if (!listener?.moved) return true;
    try {
      return await listener.moved();
    } catch {
      return true;
    }
  }

  private async openListener(): Promise<void> {
    if (this.listener || this.stopped) return;
    const handle = await this.hooks.listen(
      () => this.notified(),
      (error) => {
        if (this.listener !== handle) return;
        this.listener = null;
        this.listening = false;
        if (!this.stopped) this.failed(error);
      },
    );
    if (this.stopped) {
      await handle.close().catch(() => undefined);
      return;
    }
    this.listener = handle;
    this.listening = true;
  }

  private async attempt(): Promise<void> {
    this.syncing = true;
    this.hooks.changed({});
    try {
      await this.openListener();
      const result = await this.hooks.run(() => this.stopped);
      if (this.stopped) return;
      this.lastSync = { ...result, at: new Date().toISOString() };
      this.failures = 0;
      this.lastError = null;
      this.retryAt = null;
      this.syncing = false;
      this.hooks.changed({ synced: result });
    } catch (error) {
      if (this.stopped) return;
      this.syncing = false;
      this.failed(error);
    } finally {
      this.syncing = false;
    }
  }

  /** Says what failed and schedules the retry with exponential backoff. */
  private failed(error: unknown): void {
    this.failures++;
    this.lastError = this.hooks.describe(error);
    const base = Math.min(this.timing.backoffMaxMs, this.timing.backoffFirstMs * 2 ** (this.failures - 1));
    const delay = Math.round(base * (0.8 + Math.random() * 0.4));
    this.clearTimer();
    this.retryAt = Date.now() + delay;
    this.timerDue = this.retryAt;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.retryAt = null;
      this.pending = true;
      this.full = true;
      void this.drain();
    }, delay);
    this.timer.unref?.();
    this.hooks.changed({});
  }
}
