#!/usr/bin/env node
// A label change's refresh of the items explorer's facts (issue 22): `npm run bench:items-refresh`, or
//   node --import tsx bench/items-refresh.mjs [--items 200000] [--saves 20]
// N generated pairs (3 people label 60% of them each, two reward models score a fifth), then, per save of
// one label: the refresh of that item's facts on the thread that answers (electron/core/review/
// itemFactsDelta.ts refreshPeoplePart), beside the plain baseline measured in the same run, the whole read
// every label change cost before (the people's part and the review's part, as readLabelPart read them),
// and the review's project-wide part alone (what a large project now recomputes on a worker meanwhile).
// Checks that the refreshed facts equal a whole read at the end. The database goes to bench/.data/.
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const { importLines } = await import(resolve(here, '../electron/core/formats/index.ts'));
const { openDb } = await import(resolve(here, '../electron/core/store/db.ts'));
const { ensureAnnotator } = await import(resolve(here, '../electron/core/store/annotators.ts'));
const { labelAppender } = await import(resolve(here, '../electron/core/store/labels.ts'));
const { requireProject } = await import(resolve(here, '../electron/core/store/projects.ts'));
const { readPeoplePart, readReviewPart } = await import(resolve(here, '../electron/core/review/itemFacts.ts'));
const { refreshPeoplePart } = await import(resolve(here, '../electron/core/review/itemFactsDelta.ts'));

const argv = process.argv.slice(2);
const arg = (name, fallback) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : fallback);
const N = Number(arg('--items', '200000'));
const SAVES = Number(arg('--saves', '20'));
const dir = join(here, '.data');
mkdirSync(dir, { recursive: true });
const path = join(dir, `items-refresh-${N}.db`);
for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
let seed = 12345;
const random = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(0.95 * xs.length))];
const ms = (v) => `${v.toFixed(1)} ms`;

const db = openDb(path);
let t = performance.now();
const lines = Array.from({ length: N }, (_, i) => JSON.stringify({ id: `q${i}`, prompt: `question ${i}`, responses: [{ text: `answer a ${i}`, model: 'gen-a' }, { text: `answer b ${i}`, model: 'gen-b' }], metadata: { category: ['math', 'code', 'prose'][i % 3] } }));
await importLines(db, { project: 'p', fileName: 'bench.jsonl', lines, sha256: `bench-${N}`, format: 'arbiter', skipInvalid: false, createProject: true });
const project = requireProject(db, 'p');
const ids = db.prepare('SELECT id FROM item WHERE project_id = ? ORDER BY seq').pluck().all(project.id);
const append = labelAppender(db);
const people = ['alice', 'bob', 'carol'].map((name) => ensureAnnotator(db, name, 'human').id);
db.transaction(() => {
  for (const id of ids) for (const annotatorId of people) if (random() < 0.6) append({ projectId: project.id, itemId: id, annotatorId, task: 'pairwise', choice: random() < 0.5 ? 'A' : 'B', shownOrder: [0, 1] });
  const model = (name) => db.prepare("INSERT INTO model (name, hash, dir, kind, added_at) VALUES (?, ?, '/nowhere', 'outcome', '2026-01-01T00:00:00Z')").run(name, name).lastInsertRowid;
  const score = db.prepare("INSERT INTO score (model_id, content_hash, item_id, response_index, reward, provider, created_at) VALUES (?, ? || '/' || ?, ?, ?, ?, 'bench', '2026-01-01T00:00:00Z')");
  for (const m of [model('rm-one'), model('rm-two')]) for (let i = 0; i < ids.length; i += 5) for (const r of [0, 1]) score.run(m, ids[i], r, ids[i], r, random() * 4 - 2);
})();
console.log(`${N.toLocaleString()} pairs, ${db.prepare('SELECT COUNT(*) FROM label').pluck().get().toLocaleString()} labels: made in ${((performance.now() - t) / 1000).toFixed(1)} s`);

const whole = [];
const reviewOnly = [];
for (let k = 0; k < 3; k++) {
  t = performance.now();
  readPeoplePart(db, project.id, N);
  const people = performance.now() - t;
  t = performance.now();
  readReviewPart(db, project, N);
  reviewOnly.push(performance.now() - t);
  whole.push(people + reviewOnly.at(-1));
}
let part = readPeoplePart(db, project.id, N);
const refresh = [];
for (let k = 0; k < SAVES; k++) {
  append({ projectId: project.id, itemId: ids[Math.floor(random() * N)], annotatorId: people[k % 3], task: 'pairwise', choice: random() < 0.5 ? 'A' : 'tie', shownOrder: [0, 1] });
  t = performance.now();
  const refreshed = refreshPeoplePart(db, project.id, part, N);
  refresh.push(performance.now() - t);
  if (!refreshed || refreshed.changed.length !== 1) throw new Error(`a save refreshed ${refreshed ? refreshed.changed.length : 'every'} item(s), not one`);
  part = refreshed.part;
}
const again = readPeoplePart(db, project.id, N);
const decoded = (p) => Object.values(p.consensus).map((c) => Array.from(c.codes, (code) => (code ? c.names[code - 1] : null)));
const same = isDeepStrictEqual(decoded(part), decoded(again)) && isDeepStrictEqual(part.sets, again.sets) && isDeepStrictEqual(part.people, again.people) && isDeepStrictEqual(part.labels, again.labels);
console.log(`a save's refresh at ${N.toLocaleString()} items, ${SAVES} saves:`);
console.log(`  baseline, the whole read each label change cost before (people's + review's part): median ${ms(median(whole))} (of 3)`);
console.log(`  that item's facts refreshed (itemFactsDelta.ts, on the answering thread):       median ${ms(median(refresh))}, p95 ${ms(p95(refresh))}  (${(median(whole) / median(refresh)).toFixed(0)}× less)`);
console.log(`  the review's project-wide part alone (its Dawid–Skene consensus; a worker above 100k items): median ${ms(median(reviewOnly))}`);
console.log(`  refreshed facts equal a whole read: ${same ? 'yes' : 'NO'}`);
db.close();
if (!same) process.exit(1);
