// The labels' half of the search index through a hub pull (issue 20; migration 19): a pull merges the
// hub's revisions through the labels merge, which writes each touched item's label_search row once per
// batch. Two teammates' rationales on the same item, and one edited rationale, arrive on the lead's
// desktop as the triggers would have written them: every head's text in the item's row, the old words of
// the edit gone, and each word found by a search.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncProject } from '../../electron/core/hub/sync';
import type { Db } from '../../electron/core/store/db';
import { requireProject } from '../../electron/core/store/projects';
import { searchPage } from '../../electron/core/store/search';
import { itemIds, PROJECT, setUpTeam, type Desktop } from '../helpers/hubTeam';
import { skipReason, startCluster, type PgCluster } from '../helpers/postgres';

const reason = skipReason();
if (reason) console.warn(`label-search-hub skipped: ${reason}`);

const sync = (d: Desktop) => syncProject(d.db, { project: PROJECT, password: undefined, batch: 40 });
const found = (db: Db, query: string) =>
  searchPage(db, requireProject(db, PROJECT).id, query)
    .rows.map((r) => db.prepare('SELECT external_id FROM item WHERE id = ?').pluck().get(r.itemId) as string)
    .sort();
const searchRows = (db: Db) => db.prepare('SELECT rowid, rationale, critique, correction, note FROM label_search ORDER BY rowid').all();
const viewRows = (db: Db) =>
  db.prepare("SELECT item_id AS rowid, rationale, critique, correction, note FROM item_label_text WHERE rationale <> '' OR critique <> '' OR correction <> '' OR note <> '' ORDER BY item_id").all();

describe.skipIf(reason)("the labels' search rows through a PostgreSQL hub", () => {
  let cluster: PgCluster;
  let dir: string;
  beforeAll(async () => {
    cluster = await startCluster();
    dir = mkdtempSync(join(tmpdir(), 'arbiter-label-search-hub-'));
  }, 120_000);
  afterAll(async () => {
    await cluster?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("a pull writes every teammate's rationale into the item's row, and an edit's old words leave it", async () => {
    const { publisher: lead, desktops, admin } = await setUpTeam(cluster, dir, 'hub_label_search', 6, [
      { name: 'alice', role: 'annotator' },
      { name: 'bob', role: 'annotator' },
    ]);
    const [alice, bob] = desktops as [Desktop, Desktop];
    try {
      const save = (d: Desktop, q: string, rationale: string) =>
        d.service.dispatch('saveLabel', { project: PROJECT, annotator: d.name, itemId: itemIds(d).get(q)!, choice: 'A', strength: 1, shownOrder: [0, 1], rationale });
      await save(alice, 'q1', 'quokka spotted');
      await save(bob, 'q1', 'wombat spotted');
      await save(alice, 'q2', 'platypus first');
      await save(alice, 'q2', 'echidna second'); // an edit: the later revision is the head
      await save(lead, 'q3', 'dingo here');
      await sync(alice);
      await sync(bob);
      await sync(lead);
      const q1 = itemIds(lead).get('q1')!;
      const row = lead.db.prepare('SELECT rationale FROM label_search WHERE rowid = ?').pluck().get(q1) as string;
      expect(row.split('\n').sort()).toEqual(['quokka spotted', 'wombat spotted']);
      expect(found(lead.db, 'rationale:quokka')).toEqual(['q1']);
      expect(found(lead.db, 'rationale:wombat')).toEqual(['q1']);
      expect(found(lead.db, 'echidna')).toEqual(['q2']);
      expect(found(lead.db, 'platypus')).toEqual([]);
      expect(found(lead.db, 'dingo')).toEqual(['q3']);
      expect(searchRows(lead.db)).toEqual(viewRows(lead.db));
      expect(lead.db.prepare('SELECT COUNT(*) FROM label_search_deferred').pluck().get()).toBe(0);
      // Alice, who pulled bob's rationale after her own save, has the same rows.
      await sync(alice);
      expect(found(alice.db, 'wombat')).toEqual(['q1']);
      expect(searchRows(alice.db)).toEqual(viewRows(alice.db));
    } finally {
      await admin.end();
      for (const d of [lead, alice, bob]) d.db.close();
    }
  }, 120_000);
});
