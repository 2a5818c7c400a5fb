// `arbiter serve`: the browser host, kept running until the process is stopped.
import { statSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { checkLimits } from '../core/base/limits';
import { appRoot } from '../core/base/paths';
import type { ArbiterService } from '../core/service';
import { MODELS_DIRS_ENV, modelRoots } from '../core/service/models';
import { startHost } from '../host/server';
import { UsageError, type CliIo } from './io';

/**
 * `--models-dir DIR` (repeatable): folders the page may add model folders from, besides `models` beside
 * the database. Each must be a folder; they reach the service in ARBITER_MODELS_DIRS.
 */
export function modelDirsFrom(dirs: readonly string[]): string[] {
  return dirs.map((dir) => {
    const full = resolve(dir);
    let folder = false;
    try {
      folder = statSync(full).isDirectory();
    } catch {
      /* said below */
    }
    if (!folder) throw new UsageError(`--models-dir ${dir} is not a folder; name a folder that holds model folders`);
    return full;
  });
}

/** Sets ARBITER_MODELS_DIRS from the `--models-dir` values, before the service opens. */
export function useModelDirs(dirs: readonly string[] | undefined): void {
  if (dirs?.length) process.env[MODELS_DIRS_ENV] = modelDirsFrom(dirs).join(delimiter);
}

export async function serve(service: ArbiterService, options: { port: number; host: string; io: CliIo }): Promise<void> {
  const { io } = options;
  // A mistyped ARBITER_* limit stops here with its sentence, not at the first request that needs it.
  checkLimits();
  if (options.host !== '127.0.0.1' && options.host !== 'localhost' && options.host !== '::1')
    io.err(`warning: serving on ${options.host}: anyone who can reach this address and has the token can read and change your data.`);
  const start = (port: number) => startHost({ service, rendererDir: join(appRoot(), 'out', 'renderer'), host: options.host, port });
  let host;
  try {
    host = await start(options.port);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || options.port === 0) throw error;
    io.err(`port ${options.port} is in use; using a free one`);
    host = await start(0);
  }
  io.out(`Arbiter is serving at ${host.url}`);
  io.out(`database: ${service.options.dbPath}`);
  io.out(`models folders (the page adds models from these only): ${modelRoots(service.options).join(', ')}`);
  const stop = () => {
    void host.close().then(() => {
      service.db.close();
      process.exit(0);
    });
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await new Promise(() => undefined);
}
