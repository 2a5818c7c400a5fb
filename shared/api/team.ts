// The team hub in the app (issue 16): a project joined from a PostgreSQL hub syncs in the background
// while it is connected (after saves, and when the hub says a teammate pushed), and the Team panel shows
// where that stands. The password never travels back to the page and is never written to disk in plain
// text: the host keeps it in memory for the session (or reads ARBITER_HUB_PASSWORD); Electron keeps it
// with the OS keychain (safeStorage).
import { z } from 'zod';
import { annotatorName, projectName } from './common';

export const HUB_URL_MAX = 2000;

/** A PostgreSQL connection URL: postgres://user@host:port/db?sslmode=… (the password may be left out). */
export const hubUrl = z
  .string()
  .trim()
  .min(1, 'the hub address is empty')
  .max(HUB_URL_MAX, `the hub address is longer than ${HUB_URL_MAX.toLocaleString('en')} characters`)
  .refine((text) => hubUrlProblem(text) === null, { error: (issue) => hubUrlProblem(String(issue.input)) ?? 'not a hub address' });

/** Why text is not a PostgreSQL URL Arbiter can connect to, or null when it is one. */
export function hubUrlProblem(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'expected a hub address like postgres://name@host:5432/database';
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') return `expected a postgres:// address, not ${url.protocol}//`;
  if (!url.hostname) return 'the hub address names no host (postgres://name@host:5432/database)';
  return null;
}

/**
 * Why the connection to a hub at this address is not encrypted, in a sentence for the Team panel; null
 * when the address asks for TLS. No sslmode means sslmode=disable (Arbiter never tries TLS and falls
 * back, as libpq's default `prefer` would).
 */
export function hubUnencrypted(text: string): string | null {
  let mode: string | null;
  try {
    mode = new URL(text.trim()).searchParams.get('sslmode');
  } catch {
    return null;
  }
  if (mode !== null && mode !== 'disable') return null;
  return `${mode === null ? 'This address names no sslmode, which means sslmode=disable' : 'This address says sslmode=disable'}: the connection to the hub is not encrypted, and labels, items and your user name cross the network readable by anyone on the way (your password goes by SCRAM, which never reveals it). Ask the hub’s admin for an address with sslmode=verify-full (or at least sslmode=require).`;
}

/** The address as people may see it: the password (if the URL held one) left out. */
export function hubAddressShown(text: string): string {
  try {
    const url = new URL(text);
    if (!url.password) return text;
    url.password = '';
    return url.toString();
  } catch {
    return text;
  }
}

export const teamSchemas = {
  /** `annotator`: who is labeling here, so the status can say their uuid (the hub grants them under it). */
  teamStatus: z.object({ project: projectName, annotator: annotatorName.optional() }).strict(),
  /**
   * Links (the first time) and connects a project to a hub, then syncs in the background while connected.
   * The URL may carry the password; it is taken out before the address is stored.
   */
  connectHub: z
    .object({
      project: projectName,
      url: hubUrl,
      password: z.string().max(1000, 'the password is longer than 1,000 characters').optional(),
    })
    .strict(),
  /** Stops the background sync (the link and what was synced stay; Connect resumes). */
  disconnectHub: z.object({ project: projectName }).strict(),
  /** Syncs now (waits for it) and answers the status after it. */
  syncNow: z.object({ project: projectName }).strict(),
  /**
   * A shared desktop: the annotator takes the uuid the hub granted their name, while they have no labels
   * in another project here (teamStatus's you.hub says whether they may); then a sync sends what waited.
   */
  adoptHubUuid: z.object({ project: projectName, annotator: annotatorName }).strict(),
} as const;

/** Per annotator of the project: what they labeled here, and what of it has not gone up yet. */
export interface TeamAnnotator {
  name: string;
  uuid: string;
  /** Items with a current judgement by this annotator, every task together. */
  labels: number;
  /** Revisions saved on this machine that have not reached the hub yet (0 for teammates' labels). */
  waiting: number;
  /** The hub grants this person (as its last sync while connected read): their role there; null: not granted, or not known. */
  granted?: 'lead' | 'annotator' | null;
}

export interface TeamStatus {
  project: string;
  /** The hub's address without the password; null when the project was never linked to a hub. */
  hub: string | null;
  /** Background sync is on (Connect was pressed and Disconnect was not). */
  connected: boolean;
  /** The hub tells this app when teammates push (a LISTEN connection is open). */
  listening: boolean;
  /** A sync is running now. */
  syncing: boolean;
  lastSyncAt: string | null;
  /** This machine's revisions that have not gone up yet. */
  waiting: number;
  /** What failed last, in a sentence, and what to do; null after a sync that worked. */
  lastError: string | null;
  /** When the next try after a failure is due (backoff). */
  retryAt: string | null;
  /** A password is held for this hub (memory, environment or keychain); never the password itself. */
  hasPassword: boolean;
  annotators: TeamAnnotator[];
  /** The last sync's counts. */
  /** `items`: items a lead published since, that came down with the sync. */
  lastSync: { pushed: number; pulled: number; items: number; at: string } | null;
  /** What the last sync could not do, in sentences (revisions the hub's user may not push, revisions that cannot merge here yet). */
  notices: string[];
  /** The annotator asked about: their uuid here (null before their first label), which the hub grant must name. */
  you: {
    name: string;
    uuid: string | null;
    /**
     * The hub grants this name another uuid (a name typed here before the grant): `uuid` the hub's, `role`
     * theirs there, `adoptable` whether this desktop may take it (adoptHubUuid), else `why` not and the
     * grant command the hub's admin runs instead. Absent when the hub knows this name by this uuid, or nothing is known.
     */
    hub?: { uuid: string; role: 'lead' | 'annotator'; adoptable: boolean; why: string | null; command: string };
  } | null;
}

export interface TeamOutputs {
  teamStatus: TeamStatus;
  connectHub: TeamStatus;
  disconnectHub: TeamStatus;
  syncNow: TeamStatus;
  adoptHubUuid: TeamStatus;
}
