// label_head's stats columns (store/headColumns.ts) are computed with shortcuts for the common cases; every
// value must equal what migration 17's expressions give (HEAD_VALUES_MIGRATION_17), for well-formed rows and
// odd ones alike: created_at strings near the canonical form (out-of-range fields, every millisecond, other
// separators), shown orders, and bodies that name a key in a string, spell it with escapes, or are no JSON.
import Database from 'better-sqlite3';
import { expect, it } from 'vitest';
import { HEAD_VALUES, HEAD_VALUES_MIGRATION_17 } from '../../electron/core/store/headColumns';

/** A fixed sequence of pseudo-random numbers in [0, 1), so a failure is reproducible. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    s ^= s + Math.imul(s ^ (s >>> 7), 61);
    return ((s ^ (s >>> 14)) >>> 0) / 4294967296;
  };
}

function createdAts(rand: () => number): string[] {
  const out = ['', 'now', '2026-11-01', '2026-11-01T00:00:00Z', '2026-11-01T00:00:00.00Z', '2026-11-01T00:00:00.0000Z', '2026-11-01 00:00:00.000Z'];
  out.push('2026-11-01t00:00:00.000z', '2026-11-01T00:00:00.000+00:00', ' 2026-11-01T00:00:00.000Z', '2026-11-01T00:00:00.000Z ', '2026-11-01T00:00:00.000Zx');
  out.push('2026-02-29T12:00:00.000Z', '2024-02-29T12:00:00.000Z', '2026-04-31T00:00:00.000Z', '2026-13-01T00:00:00.000Z', '2026-00-10T00:00:00.000Z');
  out.push('2026-11-00T00:00:00.000Z', '2026-11-01T24:00:00.000Z', '2026-11-01T23:60:00.000Z', '2026-11-01T23:59:60.000Z', '2026-11-01T23:59:59.999Z');
  out.push('0000-01-01T00:00:00.000Z', '9999-12-31T23:59:59.999Z', '1969-12-31T23:59:59.999Z', '1970-01-01T00:00:00.000Z', '2026-11-01T00:00:00.000\u00c5');
  out.push('２026-11-01T00:00:00.000Z', '2026-11-01T00:00:00,000Z', '2026-11-01T00:00:00.0a0Z', '2026/11/01T00:00:00.000Z', '+2026-11-01T00:00:00.000Z');
  for (let ms = 0; ms < 1000; ms++) out.push(`2026-11-01T12:34:56.${String(ms).padStart(3, '0')}Z`);
  const alphabet = '0123456789-:.TZtz +/';
  for (let i = 0; i < 6000; i++) {
    const date = new Date(Math.floor(rand() * 253402300800000)).toISOString();
    const chars = [...date];
    // Half stay canonical; the others get one or two characters changed.
    if (rand() < 0.5) {
      for (let n = 0; n < 1 + Math.floor(rand() * 2); n++) chars[Math.floor(rand() * chars.length)] = alphabet[Math.floor(rand() * alphabet.length)]!;
    }
    out.push(chars.join(''));
  }
  return out;
}

const SHOWN = [null, '[0,1]', '[1,0]', '[0, 1]', '[1, 0]', '[2,0,1]', '[1.0,0]', '[1e0,0]', '["0",1]', '[]', 'null', '[0,1', '[-1,0]', ' [0,1]', '[0,1] ', '{"0":1}', '[true,0]'];

const BODIES = [
  '{}',
  '{"time_ms":5}',
  '{"time_ms":5.5}',
  '{"time_ms":"5"}',
  '{"time_ms":null}',
  '{"prelabel_visible":true}',
  '{"prelabel_visible":false}',
  '{"prelabel_visible":null}',
  '{"prelabel_visible":1}',
  '{"prelabel_visible":"true"}',
  '{"prelabel\\u005fvisible":true}',
  '{"\\u0070relabel_visible":false}',
  '{"a":"prelabel_visible"}',
  '{"a":"x\\"y","prelabel_visible":false}',
  '{"a":"x\\\\","time_ms":3}',
  '{"x":{"prelabel_visible":true}}',
  '{"prelabel_visible":true',
  '{prelabel_visible:true}',
  '{"rationale":"Looked at 0.","time_ms":4000}',
  '{"regions":[{"x":1}],"time_ms":12,"prelabel_visible":true}',
  '{"prelabel_visible":true,"prelabel_visible":false}',
  '[]',
  'null',
  '',
  'not json',
];

it('computes every stats column as migration 17 did, for well-formed and odd rows alike', () => {
  const rand = random(20);
  const db = new Database(':memory:');
  db.exec('CREATE TABLE l (n INTEGER PRIMARY KEY, strength INTEGER, shown_order TEXT, created_at TEXT NOT NULL, body TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO l (strength, shown_order, created_at, body) VALUES (?, ?, ?, ?)');
  db.transaction(() => {
    for (const createdAt of createdAts(rand)) {
      const shown = SHOWN[Math.floor(rand() * SHOWN.length)]!;
      const body = BODIES[Math.floor(rand() * BODIES.length)]!;
      insert.run(Math.floor(rand() * 4), shown, createdAt, body);
    }
    for (const shown of SHOWN) for (const body of BODIES) insert.run(null, shown, '2026-11-01T00:00:00.000Z', body);
  })();
  // Stored as other types than text: a shown order and a body as BLOBs (the JSONB form and raw bytes).
  db.prepare("INSERT INTO l (strength, shown_order, created_at, body) VALUES (1, CAST('[0,1]' AS BLOB), '2026-11-01T00:00:00.000Z', jsonb('{\"prelabel_visible\":true,\"time_ms\":7}'))").run();
  db.prepare("INSERT INTO l (strength, shown_order, created_at, body) VALUES (1, jsonb('[1,0]'), 20261101, CAST('{\"prelabel_visible\":false}' AS BLOB))").run();

  const now = db.prepare(`SELECT n, ${HEAD_VALUES} FROM l ORDER BY n`).raw().all();
  const then = db.prepare(`SELECT n, ${HEAD_VALUES_MIGRATION_17} FROM l ORDER BY n`).raw().all();
  const rows = db.prepare('SELECT n, shown_order, created_at, body FROM l ORDER BY n').raw().all();
  const differ = now.flatMap((row, i) => (JSON.stringify(row) === JSON.stringify(then[i]) ? [] : [{ row: rows[i], now: row, then: then[i] }]));
  expect(differ.slice(0, 5)).toEqual([]);
  // The shortcuts are taken and the sample is not all odd: most rows have a save time, some a shown order
  // and a visibility.
  const count = (column: number) => now.filter((row) => (row as unknown[])[column] !== null).length;
  const [shown, saved, visible] = [count(2), count(3), count(5)];
  expect(saved).toBeGreaterThan(3000);
  expect(shown).toBeGreaterThan(1000);
  expect(visible).toBeGreaterThan(50);
  db.close();
});
