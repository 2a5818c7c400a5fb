// The bench's baseline for the hub (bench/hub-sync.mjs): a bare COPY of the same revisions into, and out of,
// the same PostgreSQL, in a process of its own so its peak memory is its own. Run as
//   node bench/lib/pg-copy.mjs in  URL LABELS.jsonl PROJECT_ID   → COPY every line into bench.revision_copy
//   node bench/lib/pg-copy.mjs out URL                           → COPY them out again, one JSON.parse per row
// bench.revision_copy has arbiter.revision's columns, keys and index, and none of its checks, row-level
// security or triggers. Prints one JSON line: {"rows", "ms"}.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import copyStreams from 'pg-copy-streams';

const [mode, url, file, projectId] = process.argv.slice(2);
const client = new pg.Client({ connectionString: url });
await client.connect();
const t0 = performance.now();
let rows = 0;
if (mode === 'in') {
  await client.query(`CREATE SCHEMA IF NOT EXISTS bench;
    DROP TABLE IF EXISTS bench.revision_copy;
    CREATE TABLE bench.revision_copy (
      hub_seq bigserial PRIMARY KEY, id text NOT NULL UNIQUE, project_id bigint NOT NULL, annotator_uuid uuid NOT NULL,
      adjudicated boolean NOT NULL DEFAULT false, line jsonb NOT NULL, pushed_at timestamptz NOT NULL DEFAULT now(),
      pushed_by name NOT NULL DEFAULT current_user);
    CREATE INDEX ON bench.revision_copy (project_id, hub_seq);`);
  const start = performance.now();
  // COPY's text format: tab-separated, backslash the escape (a JSON line holds no raw tab or newline).
  async function* tsv() {
    for await (const line of createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity })) {
      if (!line) continue;
      const r = JSON.parse(line);
      rows++;
      yield `${r.id}\t${projectId}\t${r.annotator_uuid}\t${r.adjudicated === true ? 't' : 'f'}\t${line.replace(/\\/g, '\\\\')}\n`;
    }
  }
  await pipeline(Readable.from(tsv()), client.query(copyStreams.from('COPY bench.revision_copy (id, project_id, annotator_uuid, adjudicated, line) FROM STDIN')));
  console.log(JSON.stringify({ rows, ms: performance.now() - start }));
} else if (mode === 'out') {
  let rest = '';
  const sink = new Writable({
    decodeStrings: false,
    write(chunk, _encoding, done) {
      const lines = (rest + chunk.toString('utf8')).split('\n');
      rest = lines.pop();
      for (const text of lines) {
        JSON.parse(text.replace(/\\\\/g, '\\'));
        rows++;
      }
      done();
    },
  });
  await pipeline(client.query(copyStreams.to('COPY (SELECT line FROM bench.revision_copy ORDER BY project_id, hub_seq) TO STDOUT')), sink);
  console.log(JSON.stringify({ rows, ms: performance.now() - t0 }));
} else {
  console.error('usage: node bench/lib/pg-copy.mjs in URL LABELS.jsonl PROJECT_ID | out URL');
  process.exitCode = 2;
}
await client.end();
