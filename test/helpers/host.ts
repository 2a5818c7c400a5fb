// Starts the real browser host (`arbiter serve`) as a child process and reads its URL and token.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..');

export function buildNodeSide(): void {
  if (process.env.ARBITER_SKIP_BUILD === '1' && existsSync(join(ROOT, 'out/node/cli.mjs'))) return;
  const result = spawnSync(process.execPath, [join(ROOT, 'scripts/build.mjs'), '--node-only'], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`build failed:\n${result.stderr}`);
}

export interface HostProcess {
  child: ChildProcess;
  baseUrl: string;
  token: string;
  url: string;
  output: () => string;
}

export function startHostProcess(dbPath: string, env: Record<string, string> = {}, extraArgs: string[] = []): Promise<HostProcess> {
  const child = spawn(process.execPath, [join(ROOT, 'bin/arbiter.mjs'), 'serve', '--db', dbPath, '--port', '0', ...extraArgs], {
    env: { ...process.env, ARBITER_NO_DEMO: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`host did not start:\n${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = output.match(/(http:\/\/127\.0\.0\.1:\d+)\/#token=([\w-]+)/);
      if (match) {
        clearTimeout(timer);
        resolve({ child, baseUrl: match[1]!, token: match[2]!, url: match[0], output: () => output });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`host exited with ${code}:\n${output}`)));
  });
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read whatever JSON the host answers
export async function call(host: HostProcess, name: string, input: unknown, token = host.token): Promise<{ status: number; body: any }> {
  const response = await fetch(`${host.baseUrl}/api/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-arbiter-token': token },
    body: typeof input === 'string' ? input : JSON.stringify(input),
  });
  return { status: response.status, body: await response.json() };
}
