// A project made the way a user makes one: project "p" of N pairs imported from an Arbiter JSONL file (ids
// `q-0`, `q-1`, …; prompt "Question i?"; responses "One i." and "Two i."), in `<dir>/<name>.db`.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { importFile } from '../../electron/core/formats';
import { openDb, type Db } from '../../electron/core/store/db';

export async function importedPairs(dir: string, name: string, items: number): Promise<Db> {
  const db = openDb(join(dir, `${name}.db`));
  const file = join(dir, 'items.jsonl');
  writeFileSync(file, Array.from({ length: items }, (_, i) => JSON.stringify({ id: `q-${i}`, prompt: `Question ${i}?`, responses: [{ text: `One ${i}.` }, { text: `Two ${i}.` }] })).join('\n') + '\n');
  await importFile(db, { path: file, project: 'p', format: 'arbiter', createProject: true });
  return db;
}
