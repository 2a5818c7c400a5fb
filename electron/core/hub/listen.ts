// The LISTEN connection a connected desktop holds: the hub's revision trigger NOTIFYs `arbiter_hub` with
// the hub project's id when revisions are pushed (one notification per statement, at commit), so a
// teammate's label reaches the others within seconds without polling. One connection per connected
// project; when it drops (the server restarted, the network went away) onLost is called once and the
// caller reconnects with backoff. A keepalive query every 30 s notices a connection that died quietly.
// Anyone granted may NOTIFY the channel too, so a notification is only a hint: the caller asks
// latestRevisionSeq, on this connection, whether anything is new before it syncs.
import { connectHub, type HubPassword } from './connect';

export const HUB_CHANNEL = 'arbiter_hub';
const KEEPALIVE_MS = 30_000;

export interface HubListener {
  close(): Promise<void>;
  /** The hub's last revision seq in a hub project (null: none yet): one indexed max() on this connection. */
  latestRevisionSeq(hubProjectId: string): Promise<number | null>;
  /** Everyone the hub grants (name, uuid, role; `me`: this connection's login role), at most MEMBERS_MAX. */
  members(): Promise<HubMember[]>;
}

export interface HubMember {
  name: string;
  uuid: string;
  role: 'lead' | 'annotator';
  me: boolean;
}

const MEMBERS_MAX = 1000;

export async function listenHub(
  url: string,
  options: { password?: HubPassword; onNotify(payload: string): void; onLost(error: Error): void },
): Promise<HubListener> {
  const client = await connectHub(url, { password: options.password });
  let closed = false;
  let lost = false;
  const lose = (error: Error) => {
    if (closed || lost) return;
    lost = true;
    clearInterval(keepalive);
    options.onLost(error);
    void client.end().catch(() => undefined);
  };
  client.on('notification', (message) => {
    if (message.channel === HUB_CHANNEL) options.onNotify(message.payload ?? '');
  });
  client.on('error', (error) => lose(error));
  client.on('end', () => lose(Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ECONNRESET' })));
  const keepalive = setInterval(() => {
    client.query('SELECT 1').catch((error: Error) => lose(error));
  }, KEEPALIVE_MS);
  keepalive.unref?.();
  try {
    await client.query(`LISTEN ${HUB_CHANNEL}`);
  } catch (error) {
    closed = true;
    clearInterval(keepalive);
    await client.end().catch(() => undefined);
    throw error;
  }
  return {
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(keepalive);
      await client.end().catch(() => undefined);
    },
    async latestRevisionSeq(hubProjectId) {
      const { rows } = await client.query<{ s: string | null }>('SELECT max(hub_seq) AS s FROM arbiter.revision WHERE project_id = $1', [hubProjectId]);
      return rows[0]?.s == null ? null : Number(rows[0].s);
    },
    async members() {
      const { rows } = await client.query<{ name: string; uuid: string; role: string; me: boolean }>(
        `SELECT name, uuid::text AS uuid, role, pg_role = current_user AS me FROM arbiter.annotator ORDER BY name LIMIT ${MEMBERS_MAX}`,
      );
      // Hub data is untrusted: names and roles as a grant writes them, nothing else.
      return rows
        .filter((r) => typeof r.name === 'string' && r.name.length > 0 && r.name.length <= 200 && /^[0-9a-f-]{36}$/i.test(r.uuid))
        .map((r) => ({ name: r.name, uuid: r.uuid.toLowerCase(), role: r.role === 'lead' ? 'lead' : 'annotator', me: r.me === true }));
    },
  };
}
