// What went wrong with the hub, in a sentence people can act on: node-postgres errors carry a SQLSTATE
// (`code`, five characters) from the server or a Node errno (ECONNREFUSED…) from the socket; anything
// else keeps its own first line (the hub modules already word their refusals: core/hub/connect.ts).
import { plural } from '../../../shared/plural';
import { ArbiterError } from '../base/errors';
import type { SyncResult } from './teamSync';

/** host:port of a hub URL, for sentences (never the password). */
export function hubPlace(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || '5432'}`;
  } catch {
    return 'the hub';
  }
}

function userOf(url: string): string {
  try {
    return decodeURIComponent(new URL(url).username) || 'your PostgreSQL user';
  } catch {
    return 'your PostgreSQL user';
  }
}

function databaseOf(url: string): string {
  try {
    return decodeURIComponent(new URL(url).pathname.replace(/^\//, '')) || 'postgres';
  } catch {
    return 'postgres';
  }
}

/** The sentence for an error that happened talking to the hub at `url`. */
export function hubErrorSentence(error: unknown, url: string): string {
  // Already a sentence (core/hub words what it refuses, and where).
  // ('internal': an engine error a worker passed on as it was; worded below.)
  if (error instanceof ArbiterError && error.code !== 'internal') return error.message;
  const e = (error ?? {}) as { code?: unknown; message?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  const message = typeof e.message === 'string' ? e.message.split('\n')[0]!.trim() : String(error);
  const place = hubPlace(url);
  const user = userOf(url);
  switch (code) {
    case 'ECONNREFUSED':
      return `The hub at ${place} refused the connection: PostgreSQL is not running there, or not on that port. Your labels are kept here and go up when it is back.`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `The hub's host in ${place} was not found: check the address (and this machine's network). Your labels are kept here and go up when it answers.`;
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `The hub at ${place} did not answer (${code}): check this machine's network. Your labels are kept here and go up when it answers.`;
    case 'ECONNRESET':
    case 'EPIPE':
    case '57P01':
    case '57P02':
    case '57P03':
      return `The connection to the hub at ${place} was cut (${code === 'ECONNRESET' || code === 'EPIPE' ? 'the server closed it' : 'the server is shutting down or starting'}). Your labels are kept here and go up when it is back.`;
    case '28P01':
      return `The hub at ${place} refused the password for ${user}. Type the right password and connect again.`;
    case '28000':
      return `The hub at ${place} does not let ${user} in (${message}). Ask whoever runs the hub to grant you access (arbiter hub grant), then connect again.`;
    case '3D000':
      return `The hub at ${place} has no database "${databaseOf(url)}". Check the address's database name.`;
    case '42501':
      return `The hub refused a write for ${user}: ${message}. Ask the hub's lead to grant you the right role (arbiter hub grant).`;
    case '3F000':
    case '42P01':
      return `The hub at ${place} has no Arbiter schema yet (${message}). Run arbiter hub init --hub URL against it, then publish the project.`;
    default:
      break;
  }
  if (/password authentication failed/i.test(message)) return `The hub at ${place} refused the password for ${user}. Type the right password and connect again.`;
  if (/SASL|client password must be a string|no password/i.test(message))
    return `The hub at ${place} asks ${user} for a password and none was given. Type it in the Team panel (or set ARBITER_HUB_PASSWORD) and connect again.`;
  if (/self[- ]signed|certificate|SSL|TLS/i.test(message)) return `The secure connection to the hub at ${place} failed: ${message}. Check the address's sslmode and sslrootcert.`;
  if (/Connection terminated|timeout/i.test(message)) return `The connection to the hub at ${place} was lost (${message}). Your labels are kept here and go up when it is back.`;
  return message || `The hub at ${place} could not be reached.`;
}

/** What a sync that worked could not do, in sentences: revisions the hub's user may not push, revisions that cannot merge here. */
export function syncNotices(result: SyncResult, url: string): string[] {
  const notices: string[] = [];
  const user = userOf(url);
  if (result.notPushed) {
    const who = result.notPushedBy?.length ? ` by ${result.notPushedBy.join(', ')}` : '';
    const granted = result.as ? `is granted to the annotator "${result.as}"` : 'is granted to no annotator';
    notices.push(
      `${plural(result.notPushed, 'revision')} saved here${who} did not go up: the hub's user ${user} ${granted}, and takes revisions only under that uuid. They wait here for a sync under their author's own hub user. Yours? See your uuid below.`,
    );
  }
  if (result.itemsProblem) notices.push(`New items on the hub did not come down: ${result.itemsProblem.replace(/\.$/, '')}. Arbiter tries again at the next sync; labels and everything else synced.`);
  if (result.refused?.length) notices.push(...result.refused);
  if (result.deferred) {
    notices.push(
      `${plural(result.deferred, 'revision')} from the hub cannot merge here yet${result.deferredReason ? `: ${result.deferredReason.replace(/\.$/, '')}` : ''}. Arbiter tries them again at every sync.`,
    );
  }
  return notices;
}
