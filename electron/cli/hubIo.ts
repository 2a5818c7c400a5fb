// How a hub is named and reached from the command line, shared by every `arbiter hub …` subcommand and
// `arbiter sync`: --hub URL (never with a password in it), and its password from ARBITER_HUB_PASSWORD, else a
// prompt that does not echo on a terminal, else none (a hub that trusts the connection).
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { connectHub, parseHubUrl, type HubAddress } from '../core/service/hubDirect';
import { UsageError, type CliIo } from './io';

export type HubIo = CliIo & {
  /** Asks for a secret without echoing it; absent where nobody can answer. */
  askSecret?: (question: string) => Promise<string>;
};
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

export function secretAsker(io: HubIo): ((question: string) => Promise<string>) | undefined {
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
