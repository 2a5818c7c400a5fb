// `arbiter doctor`: what works on this machine and what does not, in words a user can act on.
import { createRequire } from 'node:module';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { appRoot } from '../base/paths';
import { databaseFacts, openDb } from '../store/db';
import type { ProviderStatus } from '../../../shared/scoring';

export interface DoctorCheck {
  name: string;
  ok: boolean;
  detail: string;
}

export interface DoctorReport {
  checks: DoctorCheck[];
  providers: ProviderStatus[] | null;
}

const require = createRequire(import.meta.url);

async function check(name: string, run: () => Promise<string> | string): Promise<DoctorCheck> {
  try {
    return { name, ok: true, detail: await run() };
  } catch (error) {
    return { name, ok: false, detail: (error as Error).message.split('\n')[0] ?? String(error) };
  }
}

export async function doctorReport(dbPath: string): Promise<DoctorReport> {
  const checks: DoctorCheck[] = [];
  checks.push(await check('node', () => `${process.version} on ${process.platform}-${process.arch}`));
  checks.push(
    await check('database', () => {
      const db = openDb(dbPath);
      try {
        const facts = databaseFacts(db);
        if (facts.integrity !== 'ok') throw new Error(`integrity_check says ${String(facts.integrity)}`);
        return `${dbPath} (SQLite ${facts.sqlite}, schema ${facts.schema}, integrity ok)`;
      } finally {
        db.close();
      }
    }),
  );
  let providers: ProviderStatus[] | null = null;
  checks.push(
    await check('onnxruntime-node', async () => {
      const ort = require('onnxruntime-node') as { listSupportedBackends?: () => { name: string }[] };
      const scorer = await import('../scorer/index');
      providers = scorer.availableProviders();
      const backends = ort.listSupportedBackends?.().map((b) => b.name).join(', ') ?? 'cpu';
      return `loaded; backends compiled in: ${backends} (whether each can start is listed below)`;
    }),
  );
  checks.push(
    await check('electron', () => {
      // Core never loads the electron package; its install records the binary's path in path.txt.
      try {
        const packageDir = dirname(require.resolve('electron/package.json'));
        const binary = join(packageDir, 'dist', readFileSync(join(packageDir, 'path.txt'), 'utf8').trim());
        if (existsSync(binary)) return `binary at ${binary}`;
      } catch {
        /* reported below */
      }
      return 'not installed here: `npm start` serves the app in the browser instead (the Electron binary downloads on machines with internet)';
    }),
  );
  checks.push(
    await check('renderer build', () => {
      const index = join(appRoot(), 'out', 'renderer', 'index.html');
      if (!existsSync(index)) throw new Error('out/renderer is missing: run `npm run build`');
      return index;
    }),
  );
  return { checks, providers };
}
