// `arbiter serve`: the browser host, kept running until the process is stopped.
import { join } from 'node:path';
import { appRoot } from '../core/paths';
import type { ArbiterService } from '../core/service';
import { startHost } from '../host/server';
import type { CliIo } from './io';

export async function serve(service: ArbiterService, options: { port: number; host: string; io: CliIo }): Promise<void> {
  const { io } = options;
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
