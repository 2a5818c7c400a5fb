// A project on a real SQLite file with N items of two responses each (prompt `prompt i`, external id `qi`),
// and the service over it: the setup of the integration tests that label through the service.
import { ArbiterService } from '../../electron/core/service';
import { openDb } from '../../electron/core/store/db';
import { itemInserter } from '../../electron/core/store/itemInsert';
import { createProject } from '../../electron/core/store/projects';

export interface PairProjectOptions {
  /** How many items. */
  items: number;
  /** The two responses' texts of item i. */
  texts: (i: number) => [string, string];
  /** The two responses' models. */
  models?: [string | null, string | null];
  /** The service's default annotator. */
  annotator: string;
  /** Makes every item visible to the labeling loop and sets the project's item count (as an import's end does). */
  visibleSeq?: number | 'all';
}

export function pairProject(dbPath: string, { items, texts, models = [null, null], annotator, visibleSeq }: PairProjectOptions) {
  const db = openDb(dbPath);
  const project = createProject(db, 'p');
  const insert = itemInserter(db, project.id);
  const ids = db.transaction(() =>
    Array.from({ length: items }, (_, i) => {
      const [first, second] = texts(i);
      return insert.insert({
        externalId: `q${i}`,
        prompt: `prompt ${i}`,
        responses: [
          { content: first, model: models[0], steps: null },
          { content: second, model: models[1], steps: null },
        ],
        reference: null,
        metadata: {},
      }).id;
    }),
  )();
  if (visibleSeq === 'all') db.prepare('UPDATE project SET visible_seq = (SELECT MAX(seq) + 1 FROM item), item_count = ? WHERE id = ?').run(items, project.id);
  else if (visibleSeq !== undefined) db.prepare('UPDATE project SET visible_seq = ?, item_count = ? WHERE id = ?').run(visibleSeq, items, project.id);
  const service = new ArbiterService(db, { dbPath, transport: 'http', version: 'test', defaultAnnotator: annotator });
  return { db, project, service, ids };
}
