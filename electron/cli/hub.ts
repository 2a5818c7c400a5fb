// `arbiter hub …`: the team hub on PostgreSQL. Each subcommand is one entry in hubSubcommands; they share
// how a hub is named (--hub URL, never with a password in it) and how its password comes: ARBITER_HUB_PASSWORD,
// else a prompt that does not echo on a terminal, else none (a hub that trusts the connection).
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { connectHub, parseHubUrl, type HubAddress } from '../core/hub/connect';
import { grant, HUB_ROLES, loginRoleExists, loginRoleFor, type HubRole } from '../core/hub/roles';
import { initHub } from '../core/hub/schema';
import { parse, UsageError, type CliIo } from './io';
import { joinCommand, publishCommand } from './hubProject';

export type HubIo = CliIo & {
  /** Asks for a secret without echoing it; absent where nobody can answer. */
  askSecret?: (question: string) => Promise<string>;
};
type Command = (argv: string[], io: HubIo) => Promise<number>;
export type HubClient = Awaited<ReturnType<typeof connectHub>>;

/** Reads a line from the terminal without showing what is typed. */
function askHidden(question: string): Promise<string> {
  let muted = false;
  const output = new Writable({
    write(chunk, _encoding, done) {
      if (!muted) process.stderr.write(chunk);
      done();
    },
  });
  const rl = createInterface({ input: process.stdin, output, terminal: true });
  return new Promise<string>((answer) => {
    rl.once('close', () => answer(''));
    rl.once('SIGINT', () => rl.close());
    rl.question(question, (line) => {
      process.stderr.write('\n');
      answer(line);
      rl.close();
    });
    muted = true;
  });
}

function secretAsker(io: HubIo): ((question: string) => Promise<string>) | undefined {
  return io.askSecret ?? (process.stdin.isTTY ? askHidden : undefined);
}

/** `--hub URL`, checked. */
export function hubAddress(values: Record<string, string | boolean | undefined>): HubAddress {
  const value = values.hub;
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError('--hub is required: the hub address, postgres://USER@HOST:PORT/DATABASE');
  return parseHubUrl(value);
}

/** The hub password for the URL's user: ARBITER_HUB_PASSWORD, else a prompt on a terminal, else none. */
export async function hubPassword(io: HubIo, address: HubAddress): Promise<string | undefined> {
  const env = process.env.ARBITER_HUB_PASSWORD;
  if (env !== undefined && env !== '') return env;
  const ask = secretAsker(io);
  if (!ask) return undefined;
  const answer = await ask(`Password for ${address.user} at ${address.where}: `);
  return answer === '' ? undefined : answer;
}

/** Connects to the hub named by --hub, runs the work, and closes the connection whatever happens. */
export async function withHub<T>(values: Record<string, string | boolean | undefined>, io: HubIo, work: (client: HubClient, address: HubAddress) => Promise<T>): Promise<T> {
  const address = hubAddress(values);
  const client = await connectHub(address, { password: await hubPassword(io, address) });
  try {
    return await work(client, address);
  } finally {
    await client.end().catch(() => undefined);
  }
}

const initCommand: Command = async (argv, io) => {
  const { values } = parse(argv, { hub: { type: 'string' } });
  return withHub(values, io, async (client, address) => {
    const result = await initHub(client, address.where);
    io.out(JSON.stringify({ hub: `${address.where}/${address.database}`, version: result.version, from: result.from, applied: result.applied }));
    return 0;
  });
};

/** The new login role's password: ARBITER_HUB_NEW_PASSWORD, --no-password, a prompt (typed twice), or kept. */
async function newPassword(io: HubIo, values: Record<string, string | boolean | undefined>, pgRole: string, exists: boolean): Promise<string | null | undefined> {
  const env = process.env.ARBITER_HUB_NEW_PASSWORD;
  if (env !== undefined && env !== '') {
    if (values['no-password']) throw new UsageError('--no-password and ARBITER_HUB_NEW_PASSWORD say different things; give one');
    return env;
  }
  if (values['no-password']) return null;
  const ask = secretAsker(io);
  if (!ask) {
    if (exists) return undefined;
    throw new UsageError(
      `the new login role ${pgRole} needs a password: set ARBITER_HUB_NEW_PASSWORD, run the command in a terminal to be asked, or pass --no-password where the hub trusts its connections`,
    );
  }
  const first = await ask(`New password for ${pgRole}${exists ? ' (Enter keeps the current one)' : ''}: `);
  if (first === '') {
    if (exists) return undefined;
    throw new UsageError(`no password typed for the new login role ${pgRole}; nothing was changed`);
  }
  if ((await ask(`The same password again: `)) !== first) throw new UsageError('the two passwords differ; nothing was changed');
  return first;
}

const grantCommand: Command = async (argv, io) => {
  const { values } = parse(argv, {
    hub: { type: 'string' },
    annotator: { type: 'string' },
    role: { type: 'string' },
    uuid: { type: 'string' },
    'no-password': { type: 'boolean', default: false },
  });
  const address = hubAddress(values);
  if (typeof values.annotator !== 'string' || values.annotator.trim() === '') throw new UsageError('--annotator NAME is required');
  const role = values.role;
  if (typeof role !== 'string' || !(HUB_ROLES as readonly string[]).includes(role)) throw new UsageError(`--role is required: ${HUB_ROLES.join(' or ')}`);
  return withHub({ ...values, hub: address.url }, io, async (client) => {
    const pgRole = loginRoleFor(values.annotator as string);
    const exists = await loginRoleExists(client, pgRole);
    const password = await newPassword(io, values, pgRole, exists);
    const result = await grant(client, address.where, {
      annotator: values.annotator as string,
      role: role as HubRole,
      uuid: typeof values.uuid === 'string' ? values.uuid : undefined,
      password,
    });
    io.out(JSON.stringify({ annotator: result.annotator, uuid: result.uuid, role: result.role, login_role: result.pgRole, created: result.created }));
    const url = new URL(address.url);
    url.username = encodeURIComponent(result.pgRole);
    io.err(`arbiter hub grant: ${result.annotator} (${result.role}) connects as ${url.toString()}`);
    return 0;
  });
};

/** `arbiter hub <sub> …`; publish and join add themselves here. */
export const hubSubcommands: Record<string, Command> = {
  init: initCommand,
  grant: grantCommand,
  // (Wrapped: hubProject.ts imports withHub from here, so its functions are read when called, not at load.)
  publish: (argv, io) => publishCommand(argv, io),
  join: (argv, io) => joinCommand(argv, io),
};

export const hubCommand: Command = async (argv, io) => {
  const [sub, ...rest] = argv;
  const command = sub ? hubSubcommands[sub] : undefined;
  if (!command) throw new UsageError(`${sub ? `unknown hub command "${sub}"` : 'a hub command is needed'}; one of: ${Object.keys(hubSubcommands).join(', ')}`);
  return command(rest, io);
};
