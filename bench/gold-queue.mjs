// The next item with gold rules on (issue 23 §1): `node --import tsx bench/gold-queue.mjs [items] [gold]`.
// A project of `items` pairs, `gold` of them the file's marked labels; 300 nextItem + saveLabel by a new
// person with no rules, then with honeypots at 10% and a qualification set of 20 (pass mark 0, so the
// honeypots follow); prints nextItem's p50 and p95 for each.
import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { pairProject } from '../test/helpers/project.ts';
import { ensureAnnotator, SOURCE_ANNOTATOR } from '../electron/core/store/annotators.ts';
import { labelAppender } from '../electron/core/store/labels.ts';
import { writeNow } from '../electron/core/store/write.ts';
const N = Number(process.argv[2] ?? 100000);
const G = Number(process.argv[3] ?? 1000);
const s = pairProject(join(mkdtempSync(join(tmpdir(), 'gold-next-')), 'a.db'), { items: N, texts: (i) => [`a${i}`, `b${i}`], annotator: 'lead', visibleSeq: 'all' });
const source = ensureAnnotator(s.db, SOURCE_ANNOTATOR, 'source');
const append = labelAppender(s.db);
writeNow(s.db, () => { for (let i = 0; i < G; i++) append({ projectId: s.project.id, itemId: s.ids[i * Math.floor(N / G)], annotatorId: source.id, task: 'pairwise', choice: i % 2 ? 'A' : 'B' }); });
await s.service.dispatch('markGold', { project: 'p', itemIds: Array.from({ length: G }, (_, i) => s.ids[i * Math.floor(N / G)]) });
const run = async (label) => {
  const times = [];
  let after;
  for (let k = 0; k < 300; k++) {
    const t = performance.now();
    const item = await s.service.dispatch('nextItem', { project: 'p', annotator: `ann-${label}`, afterSeq: after });
    times.push(performance.now() - t);
    await s.service.dispatch('saveLabel', { project: 'p', annotator: `ann-${label}`, itemId: item.id, choice: 'A', shownOrder: [0, 1] });
    after = item.seq;
  }
  times.sort((a, b) => a - b);
  console.log(label, 'nextItem p50', times[150].toFixed(2), 'p95', times[285].toFixed(2), 'ms');
};
await run('none');
await s.service.dispatch('updateProjectSettings', { project: 'p', settings: { gold: { pairwise: { honeypotRate: 0.1, qualification: 20, passMark: 0, bar: 0.7, retries: {} } } } });
await run('rules');
s.service.stopBackgroundWork();
s.db.close();
