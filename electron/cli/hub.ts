// `arbiter hub …`: the team hub on PostgreSQL. Each subcommand is one entry in hubSubcommands; they share
// how a hub is named and its password (hubIo.ts).
import { grant, HUB_ROLES, loginRoleExists, loginRoleFor, revoke, type HubRole, initHub } from '../core/service/hubDirect';
import { parse, UsageError } from './io';
import { hubAddress, secretAsker, withHub, type HubIo } from './hubIo';
import { joinCommand, publishCommand } from './hubProject';

type Command = (argv: string[], io: HubIo) => Promise<number>;

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

const revokeCommand: Command = async (argv, io) => {
  const { values } = parse(argv, { hub: { type: 'string' }, annotator: { type: 'string' } });
  const address = hubAddress(values);
  if (typeof values.annotator !== 'string' || values.annotator.trim() === '') throw new UsageError('--annotator NAME is required');
  return withHub({ ...values, hub: address.url }, io, async (client) => {
    const r = await revoke(client, address.where, values.annotator as string);
    io.out(JSON.stringify({ annotator: r.annotator, uuid: r.uuid, login_role: r.pgRole, was: r.was, revoked: true, already: r.already, sessions_ended: r.sessionsEnded, revisions: r.revisions, cuts: r.cuts }));
    const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
    const sessions =
      r.sessionsEnded === null
        ? ' Their open sessions could not be ended from this role (it needs pg_signal_backend); they can no longer write in them.'
        : r.sessionsEnded > 0
          ? ` ${plural(r.sessionsEnded, 'open session')} ended.`
          : '';
    io.err(
      `arbiter hub revoke: ${r.annotator} (${r.was}, login role ${r.pgRole}) ${r.already ? 'was already revoked' : 'can no longer log in, nor write'}.${sessions} ` +
        `Their ${plural(r.revisions, 'revision')} and ${plural(r.cuts, 'cut')} stay on the hub under their name, and every desktop keeps what it pulled; ` +
        `arbiter hub grant gives their access back.`,
    );
    return 0;
  });
};

/** `arbiter hub <sub> …`; publish and join add themselves here. */
export const hubSubcommands: Record<string, Command> = {
  init: initCommand,
  grant: grantCommand,
  revoke: revokeCommand,
  publish: publishCommand,
  join: joinCommand,
};

export const hubCommand: Command = async (argv, io) => {
  const [sub, ...rest] = argv;
  const command = sub ? hubSubcommands[sub] : undefined;
  if (!command) throw new UsageError(`${sub ? `unknown hub command "${sub}"` : 'a hub command is needed'}; one of: ${Object.keys(hubSubcommands).join(', ')}`);
  return command(rest, io);
};
