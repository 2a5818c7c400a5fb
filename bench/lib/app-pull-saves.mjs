// Label saves through the app's service while its background sync pulls a project (connectHub: the join,
// then the pull in a task worker), against the same saves with nothing running, after the pull, in the same
// process and database. Each save's time runs from the moment it was due, so time this thread spent busy
// elsewhere counts against it. Target: every save under 50 ms (test/integration/hub-app-load.test.ts holds
// the behaviour: the merge runs off the saving thread, saves go in while the pull runs; this prints the figure).
import { ArbiterService } from '../../electron/core/service/index.ts';
import { ensureAnnotator } from '../../electron/core/store/annotators.ts';
import { openDb } from '../../electron/core/store/db.ts';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const q = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))];
const line = (name, v) => `${name}: ${v.length} saves, p50 ${q(v, 0.5).toFixed(1)} ms, p95 ${q(v, 0.95).toFixed(1)} ms, max ${Math.max(...v).toFixed(1)} ms`;

/**
 * `grant(uuid)` grants the annotator `name` on the hub under that uuid (no password) and answers the hub
 * address to connect as them. Prints the figures; answers whether every save during the pull met the target.
 */
export async function savesDuringPull({ dbPath, project, name, grant, revisions, saves = 50, everyMs = 60, startAt = 10_000 }) {
  const db = openDb(dbPath);
  const me = ensureAnnotator(db, name, 'human');
  const service = new ArbiterService(db, { dbPath, transport: 'http', version: 'bench', defaultAnnotator: name });
  const labels = db.prepare('SELECT count(*) FROM label').pluck();
  const status = () => service.team.status(project);
  try {
    const started = performance.now();
    await service.dispatch('connectHub', { project, url: grant(me.uuid) });
    const items = db.prepare('SELECT id FROM item ORDER BY seq').pluck().all();
    while (labels.get() < Math.min(startAt, revisions / 10)) await sleep(20);
    const run = async (from) => {
      const times = [];
      const start = performance.now();
      for (let i = 0; i < saves; i++) {
        const due = start + i * everyMs;
        const wait = due - performance.now();
        if (wait > 0) await sleep(wait);
        await service.dispatch('saveLabel', { project, annotator: name, itemId: items[from + i], choice: 'A', strength: 1, shownOrder: [1, 0] });
        times.push(performance.now() - due);
      }
      return times;
    };
    const atStart = labels.get();
    const during = await run(0);
    const atEnd = labels.get();
    const stillSyncing = status().syncing;
    while (status().syncing || status().waiting > 0) await sleep(200);
    const pullSeconds = (performance.now() - started) / 1000;
    const alone = await run(saves);
    console.log(`saves during the app's pull: ${revisions.toLocaleString('en')} revisions pulled by connectHub's sync in its worker in ${pullSeconds.toFixed(1)} s; ${atStart.toLocaleString('en')} → ${atEnd.toLocaleString('en')} merged while the saves went in${stillSyncing ? '' : ' (the pull ENDED before the last save)'}`);
    console.log(`  ${line('saves, nothing else running', alone)}`);
    console.log(`  ${line("saves during the app's pull ", during)}`);
    const met = Math.max(...during) < 50;
    console.log(`  ratio during / alone: p50 ${(q(during, 0.5) / q(alone, 0.5)).toFixed(1)}×, p95 ${(q(during, 0.95) / q(alone, 0.95)).toFixed(1)}×  (target: every save under 50 ms: ${met ? 'met' : 'NOT met'}; lastError ${status().lastError ?? 'none'})`);
    return met;
  } finally {
    await service.team.stop();
    service.stopBackgroundWork();
    db.close();
  }
}
