// The team hub in the app (shared/api/team.ts). A project joined from a PostgreSQL hub syncs in the
// background while connected: after saves (debounced), when the hub NOTIFYs that a teammate pushed
// (a LISTEN connection held while connected), on Sync now, and after a failure with backoff
// (teamSync.ts). A save never waits for any of it: it only moves a timer.
//
// The password: never written to disk in plain text. It is taken out of the URL before the address is
// stored; the service holds it in memory for the session; ARBITER_HUB_PASSWORD gives one to the browser
// host and the CLI; in Electron a HubKeeper (electron/main/hubKeychain.ts) keeps it with safeStorage.
import type { EventEmitter } from 'node:events';
import type { ApiParsed } from '../../../shared/api';
import { hubAddressShown, type TeamStatus } from '../../../shared/api/team';
import { conflict } from '../base/errors';
import { redact, sameHub } from '../hub/connect';
import type { HubMember } from '../hub/listen';
import type { Db } from '../store/db';
import { findProject } from '../store/projects';
import { projectNameOf, teamFigures } from '../store/team';
import { adoptHubUuidHere } from '../store/teamUuid';
import type { FeatureHandlers, ServiceContext } from './context';
import { requireProject } from './guards';
import { BackgroundSync, DEFAULT_TIMING, type ListenHandle, type SyncResult, type SyncTiming } from './teamSync';
import { grantCommand, hubYou, withMembers } from './teamMembers';
import { hubErrorSentence, syncNotices } from './teamWords';

export const HUB_PASSWORD_ENV = 'ARBITER_HUB_PASSWORD';

/** The local link of a project to its hub (the SQLite hub_link row). */
export interface HubLinkView {
  url: string;
  hubProjectId: string;
  pushedLabelSeq: number;
  /** The pull mark: the hub's last revision seq merged here. */
  pulledSeq: number;
  lastSyncAt: string | null;
  lastError: string | null;
}

/** What the app needs from core/hub: the link, join, one sync, and a LISTEN connection. */
export interface HubBackend {
  link(db: Db, projectId: number): HubLinkView | null;
  /** Links a project that is not linked yet to the hub's project of the same name (join); what it refused of the hub's, in sentences. */
  join(db: Db, input: { project: string; url: string; password?: string }): Promise<string[] | void>;
  sync(db: Db, input: { project: string; url: string; password?: string; isCancelled(): boolean }): Promise<SyncResult>;
  listen(input: {
    url: string;
    password?: string;
    onNotify(payload: string): void;
    onLost(error: Error): void;
  }): Promise<ListenHandle & { latestRevisionSeq?(hubProjectId: string): Promise<number | null>; members?(): Promise<HubMember[]> }>;
}

/** Where the desktop app keeps hub passwords (the OS keychain) and which projects were connected. */
export interface HubKeeper {
  /** Whether remembered passwords outlive the session (a keychain is there). */
  readonly persistent: boolean;
  password(project: string, url: string): string | undefined;
  remember(project: string, url: string, entry: { password?: string; connected: boolean }): void;
  connected(): { project: string; url: string }[];
}

interface Session {
  projectId: number;
  url: string;
  password: string | undefined;
  sync: BackgroundSync;
}

type TeamOps = 'teamStatus' | 'connectHub' | 'disconnectHub' | 'syncNow' | 'adoptHubUuid';

/** Events after which there is something of this machine's to push. */
const CHANGES = new Set(['label', 'adjudication', 'rubricInForce', 'segmentation', 'gold']);

/** The URL without its password, and the password it held. */
export function splitHubUrl(url: string): { address: string; password: string | undefined } {
  try {
    const parsed = new URL(url);
    const password = parsed.password ? decodeURIComponent(parsed.password) : undefined;
    return { address: hubAddressShown(url), password };
  } catch {
    // Not a URL: whatever stands where a password would is never repeated in a message.
    return { address: redact(url), password: undefined };
  }
}

export class TeamHub {
  private readonly sessions = new Map<number, Session>();
  /** Passwords given this session, per project (memory only). */
  private readonly passwords = new Map<number, { url: string; password: string }>();
  /** The last sync's summary per project (this session). */
  private readonly results = new Map<number, SyncResult & { at: string }>();
  /** What the join that made a project here refused of the hub's (cuts, rubric versions…): said until the next Connect. */
  private readonly joinRefused = new Map<number, string[]>();
  /** Who the hub grants, per project, as the last sync while connected read it (this session). */
  private readonly members = new Map<number, HubMember[]>();
  private keeper: HubKeeper | null = null;
  private readonly db: Db;
  private readonly events: EventEmitter;

  constructor(
    context: Pick<ServiceContext, 'db' | 'events'>,
    private readonly backend: HubBackend,
    private readonly timing: SyncTiming = DEFAULT_TIMING,
  ) {
    this.db = context.db;
    this.events = context.events;
    this.events.on('event', (event: { type?: string; project?: unknown }) => {
      if (!this.sessions.size || typeof event?.project !== 'string') return;
      if (event.type === 'projectDeleted') {
        for (const [id, session] of this.sessions) if (!projectNameOf(this.db, id)) void this.end(id, session);
        return;
      }
      if (!event.type || !CHANGES.has(event.type)) return;
      const project = findProject(this.db, event.project);
      if (project) this.sessions.get(project.id)?.sync.afterSave();
    });
  }

  /** Electron: passwords kept by the OS keychain, and the projects to connect again at start. */
  keepPasswordsWith(keeper: HubKeeper): void {
    this.keeper = keeper;
  }

  /** Connects again the projects that were connected when the app closed; failures go to their status. */
  resume(projects: { project: string; url: string }[]): void {
    for (const { project, url } of projects) {
      const row = findProject(this.db, project);
      if (!row || this.sessions.has(row.id)) continue;
      void this.connect({ project, url }).catch(() => undefined);
    }
  }

  handlers(): FeatureHandlers<TeamOps> {
    return {
      teamStatus: ({ project, annotator }) => this.status(project, annotator),
      connectHub: (input) => this.connect(input),
      disconnectHub: async ({ project }) => {
        const row = requireProject(this.db, project);
        const session = this.sessions.get(row.id);
        if (session) {
          await this.end(row.id, session);
          this.keeper?.remember(project, session.url, { connected: false });
        }
        this.changed(project);
        return this.status(project);
      },
      syncNow: async ({ project }) => {
        const row = requireProject(this.db, project);
        const session = this.sessions.get(row.id);
        if (session) await session.sync.syncNow();
        else await this.syncOnce(row.name, row.id);
        return this.status(project);
      },
      adoptHubUuid: ({ project, annotator }) => this.adopt(project, annotator),
    };
  }

  /** The annotator takes the uuid the hub grants their name (you.hub.adoptable), and a sync sends what waited. */
  private adopt(project: string, annotator: string): TeamStatus {
    const row = requireProject(this.db, project);
    const member = this.members.get(row.id)?.find((m) => m.name === annotator);
    if (!member) {
      throw conflict(`As far as this desktop knows, the hub grants nobody named "${annotator}": connect to the hub (the Team panel reads who it grants at each sync), or ask the hub's admin to grant the name.`);
    }
    const outcome = adoptHubUuidHere(this.db, annotator, member.uuid, row.id);
    if (outcome.outcome === 'elsewhere' || outcome.outcome === 'taken') {
      const why =
        outcome.outcome === 'elsewhere'
          ? `"${annotator}" has labels in ${outcome.projects.map((p) => `"${p}"`).join(', ')} on this desktop, which keep the uuid ${outcome.localUuid}`
          : `the hub's uuid ${member.uuid} belongs to "${outcome.holder}" here`;
      throw conflict(`${why}; nothing was changed. Ask the hub's admin to run: ${grantCommand(annotator, member.role, outcome.localUuid)}`);
    }
    if (outcome.outcome !== 'adopted' && outcome.outcome !== 'same') throw conflict(`"${annotator}" is not a person who labels on this desktop; nothing was changed.`);
    this.changed(row.name);
    void this.sessions.get(row.id)?.sync.syncNow();
    return this.status(row.name, annotator);
  }

  /** Stops every background sync and closes every LISTEN connection. */
  async stop(): Promise<void> {
    await Promise.allSettled([...this.sessions].map(([id, session]) => this.end(id, session)));
  }

  status(project: string, annotator?: string): TeamStatus {
    const row = requireProject(this.db, project);
    const link = this.backend.link(this.db, row.id);
    const session = this.sessions.get(row.id);
    const members = this.members.get(row.id) ?? [];
    const annotators = withMembers(teamFigures(this.db, row.id, link?.pushedLabelSeq ?? 0), members);
    const sync = session?.sync;
    const url = session?.url ?? link?.url ?? null;
    const last = this.results.get(row.id) ?? null;
    return {
      project: row.name,
      hub: url ? hubAddressShown(url) : null,
      connected: Boolean(session),
      listening: sync?.listening ?? false,
      syncing: sync?.syncing ?? false,
      lastSyncAt: link?.lastSyncAt ?? sync?.lastSync?.at ?? null,
      waiting: annotators.reduce((sum, a) => sum + a.waiting, 0),
      lastError: sync ? sync.lastError : (link?.lastError ?? null),
      retryAt: sync?.retryAt ? new Date(sync.retryAt).toISOString() : null,
      hasPassword: url ? this.passwordFor(project, row.id, url) !== undefined : false,
      annotators,
      lastSync: last ? { pushed: last.pushed, pulled: last.pulled, items: last.items ?? 0, at: last.at } : null,
      notices: [...(this.joinRefused.get(row.id) ?? []), ...(last && url ? syncNotices(last, url) : [])],
      you: annotator ? hubYou(this.db, row.id, annotator, members) : null,
    };
  }

  private passwordFor(project: string, projectId: number, url: string): string | undefined {
    const held = this.passwords.get(projectId);
    // The password kept is that user's: another user on the same hub needs their own.
    if (held && held.url === url) return held.password;
    return this.keeper?.password(project, url) ?? (process.env[HUB_PASSWORD_ENV] || undefined);
  }

  private async connect({ project, url: given, password: typed }: ApiParsed<'connectHub'>): Promise<TeamStatus> {
    const { address, password: inUrl } = splitHubUrl(given);
    // A project not here yet is joined from the hub (made here with the hub's items, then synced).
    const here = findProject(this.db, project);
    const link = here ? this.backend.link(this.db, here.id) : null;
    if (here && link && !sameHub(link.url, address))
      throw conflict(
        `${here.name} is linked to the hub at ${hubAddressShown(link.url)}, not ${address}. Connect to that hub (another PostgreSQL user there is fine), or join the other hub's project into a new project.`,
      );
    const password = typed || inUrl || (here ? this.passwordFor(project, here.id, address) : (this.keeper?.password(project, address) ?? (process.env[HUB_PASSWORD_ENV] || undefined)));
    const before = here && this.sessions.get(here.id);
    if (here && before) await this.end(here.id, before);
    let refused: string[] = [];
    if (!link) {
      try {
        refused = (await this.backend.join(this.db, { project, url: address, password })) ?? [];
      } catch (error) {
        throw conflict(hubErrorSentence(error, address));
      }
    }
    const row = requireProject(this.db, project);
    if (refused.length) this.joinRefused.set(row.id, refused);
    else this.joinRefused.delete(row.id);
    await this.openSession(row.name, row.id, { url: address, password });
    if (password) this.passwords.set(row.id, { url: address, password });
    this.keeper?.remember(row.name, address, { password: typed || inUrl || undefined, connected: true });
    return this.status(row.name);
  }

  /** Starts a session: opens LISTEN (a failure is thrown as a sentence), then syncs in the background. */
  private async openSession(project: string, projectId: number, { url, password }: { url: string; password: string | undefined }): Promise<Session> {
    const link = this.backend.link(this.db, projectId);
    const hubProjectId = link?.hubProjectId;
    const name = () => projectNameOf(this.db, projectId) ?? project;
    let listening: Awaited<ReturnType<HubBackend['listen']>> | null = null;
    const sync: BackgroundSync = new BackgroundSync(
      {
        run: (isCancelled) => this.backend.sync(this.db, { project: name(), url, password, isCancelled }),
        listen: async (onNotify, onLost) => {
          const handle = await this.backend.listen({
            url,
            password,
            onNotify: (payload) => {
              const current = this.backend.link(this.db, projectId)?.hubProjectId ?? hubProjectId;
              if (!payload || current === undefined || String(current) === payload) onNotify(payload);
            },
            onLost,
          });
          listening = handle;
          const latest = handle.latestRevisionSeq?.bind(handle);
          // A NOTIFY's check: a revision on the hub past this desktop's pull mark.
          const moved = async () => {
            const now = this.backend.link(this.db, projectId);
            if (!latest || !now) return true;
            const seq = await latest(now.hubProjectId);
            return seq !== null && seq > now.pulledSeq;
          };
          return { close: () => handle.close(), moved };
        },
        describe: (error) => hubErrorSentence(error, url),
        changed: ({ synced }) => {
          if (synced) this.results.set(projectId, { ...synced, at: new Date().toISOString() });
          this.changed(name(), synced);
          if (synced && listening?.members) void this.readMembers(projectId, listening.members.bind(listening), name);
        },
      },
      this.timing,
    );
    const session: Session = { projectId, url, password, sync };
    try {
      await sync.start();
    } catch (error) {
      await sync.stop();
      throw conflict(hubErrorSentence(error, url));
    }
    this.sessions.set(projectId, session);
    this.changed(project);
    return session;
  }

  /** Who the hub grants, read after a sync on the LISTEN connection; the page is told when it changed. */
  private async readMembers(projectId: number, read: () => Promise<HubMember[]>, name: () => string): Promise<void> {
    try {
      const members = await read();
      const before = JSON.stringify(this.members.get(projectId) ?? null);
      this.members.set(projectId, members);
      if (JSON.stringify(members) !== before) this.changed(name());
    } catch {
      /* the connection went away: the next sync reads them again */
    }
  }

  /** Sync now while not connected: one sync, its failure said at once. */
  private async syncOnce(project: string, projectId: number): Promise<void> {
    const url = this.backend.link(this.db, projectId)?.url;
    if (!url) throw conflict(`${project} is not linked to a hub yet. Type the hub's address in the Team panel and connect.`);
    try {
      const result = await this.backend.sync(this.db, { project, url, password: this.passwordFor(project, projectId, url), isCancelled: () => false });
      this.results.set(projectId, { ...result, at: new Date().toISOString() });
      this.changed(project, result);
    } catch (error) {
      throw conflict(hubErrorSentence(error, url));
    }
  }

  private async end(projectId: number, session: Session): Promise<void> {
    if (this.sessions.get(projectId) === session) this.sessions.delete(projectId);
    await session.sync.stop();
  }

  private changed(project: string, synced?: SyncResult): void {
    this.events.emit('event', { type: 'team', project, ...(synced ? { pushed: synced.pushed, pulled: synced.pulled, items: synced.items ?? 0, settings: synced.settings ?? 'same' } : {}) });
  }
}

