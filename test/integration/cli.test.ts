// The CLI contract (docs/cli.md) as a script would use it: exit codes, stderr lines, JSON on stdout.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../../electron/cli/commands';
import { buildNodeSide, ROOT } from '../helpers/host';
import { tempDir } from '../helpers/tmp';

function arbiter(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [join(ROOT, 'bin/arbiter.mjs'), ...args], {
    encoding: 'utf8',
    env: { ...process.env, ARBITER_NO_DEMO: '1', ...env },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const pairs = [
  { prompt: 'The sky is', chosen: ' blue.', rejected: ' green.' },
  { prompt: 'Two plus two is', chosen: ' four.', rejected: ' five.' },
  { prompt: 'Water boils at', chosen: ' 100 °C at sea level.', rejected: ' 50 °C.' },
];

beforeAll(() => buildNodeSide(), 120_000);

/** A database with one project per name, each holding the three pairs. */
function seeded(names: string[]) {
  const dir = tempDir();
  const db = join(dir, 'arbiter.db');
  const file = join(dir, 'pairs.jsonl');
  writeFileSync(file, pairs.map((p) => JSON.stringify(p)).join('\n') + '\n');
  for (const name of names) {
    const imported = arbiter(['import', file, '--project', name, '--db', db]);
    expect(imported.code, imported.stderr).toBe(0);
  }
  return { dir, db, file };
}

function projectNames(db: string): string[] {
  const listed = arbiter(['projects', '--json', '--db', db]);
  expect(listed.code, listed.stderr).toBe(0);
  return (JSON.parse(listed.stdout) as { name: string }[]).map((p) => p.name);
}

function countItems(path: string): number {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare('SELECT count(*) FROM item').pluck().get() as number;
  } finally {
    db.close();
  }
}

/** Runs the built CLI in a child process whose io answers the delete question with `answer`, as a person at a terminal would. */
function arbiterAnswering(args: string[], answer: string) {
  const cli = pathToFileURL(join(ROOT, 'out/node/cli.mjs')).href;
  const script = `
    const { runCli } = await import(${JSON.stringify(cli)});
    const asked = [];
    const code = await runCli(${JSON.stringify(args)}, {
      out: (l) => process.stdout.write(l + '\\n'),
      err: (l) => process.stderr.write(l + '\\n'),
      ask: async (q) => { asked.push(q); return ${JSON.stringify(answer)}; },
    });
    process.stderr.write('ASKED ' + JSON.stringify(asked) + '\\n');
    process.exitCode = code;`;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', env: { ...process.env, ARBITER_NO_DEMO: '1' } });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('arbiter CLI', () => {
  it('imports, refuses a bad file whole, skips invalid lines on request, exports and reports stats', () => {
    const dir = tempDir();
    const db = join(dir, 'a.db');
    const good = join(dir, 'good.jsonl');
    writeFileSync(good, pairs.map((p) => JSON.stringify(p)).join('\n') + '\n');

    const first = arbiter(['import', good, '--project', 'cli', '--db', db]);
    expect(first.code, first.stderr).toBe(0);
    const summary = JSON.parse(first.stdout.trim());
    expect(summary).toMatchObject({ project: 'cli', format: 'trl', items: 3, labels: 3, rejected: 0 });

    const again = arbiter(['import', good, '--project', 'cli', '--db', db]);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout.trim())).toMatchObject({ items: 0, labels: 0 });

    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, [JSON.stringify({ prompt: 'ok', chosen: ' a', rejected: ' b' }), '{not json', JSON.stringify({ prompt: 'x', chosen: ' y' }), ''].join('\n'));
    const refused = arbiter(['import', bad, '--project', 'cli', '--db', db]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${bad}:2:`);
    expect(refused.stderr).toContain(`${bad}:3:`);
    expect(refused.stderr).not.toContain(`${bad}:1:`);

    const stats = JSON.parse(arbiter(['stats', '--project', 'cli', '--json', '--db', db]).stdout);
    expect(stats).toMatchObject({ items: 3, labeled: 0, source: { labeled: 3 } });

    const skipped = arbiter(['import', bad, '--project', 'cli', '--db', db, '--skip-invalid']);
    expect(skipped.code, skipped.stderr).toBe(0);
    expect(JSON.parse(skipped.stdout.trim())).toMatchObject({ items: 1, rejected: 2 });
    const rejects = `${bad}.rejects.jsonl`;
    expect(existsSync(rejects)).toBe(true);
    expect(readFileSync(rejects, 'utf8').trim().split('\n')).toHaveLength(2);

    const out = join(dir, 'out.jsonl');
    const exported = arbiter(['export', '--project', 'cli', '--format', 'trl', '--out', out, '--db', db]);
    expect(exported.code, exported.stderr).toBe(0);
    const lines = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.slice(0, 3)).toEqual(pairs);
    expect(lines).toHaveLength(4);
  });

  it('imports the same through the bundled import worker as without it', () => {
    const dir = tempDir();
    const file = join(dir, 'many.jsonl');
    const lines = Array.from({ length: 3000 }, (_, i) => JSON.stringify({ prompt: `p${i % 2900}`, chosen: ` c${i % 2900}`, rejected: ` r${i % 2900}` }));
    lines.splice(1234, 0, '{broken');
    writeFileSync(file, lines.join('\n') + '\n');
    const run = (mode: string) =>
      spawnSync(process.execPath, [join(ROOT, 'bin/arbiter.mjs'), 'import', file, '--project', 'w', '--db', join(dir, `${mode}.db`), '--skip-invalid'], {
        encoding: 'utf8',
        env: { ...process.env, ARBITER_NO_DEMO: '1', ARBITER_IMPORT_WORKER: mode },
      });
    const withWorker = run('on');
    const without = run('off');
    expect(withWorker.status, withWorker.stderr).toBe(0);
    expect(JSON.parse(withWorker.stdout)).toEqual(JSON.parse(without.stdout));
    expect(JSON.parse(withWorker.stdout)).toMatchObject({ items: 2900, duplicates: 100, rejected: 1, labels: 2900 });
    expect(withWorker.stderr).toContain(`${file}:1235:`);
  });

  it('says what is wrong for unknown projects, formats and commands', () => {
    const db = join(tempDir(), 'b.db');
    const noProject = arbiter(['stats', '--project', 'ghost', '--json', '--db', db]);
    expect(noProject.code).toBe(1);
    expect(noProject.stderr).toMatch(/No project named "ghost"/);
    const badFormat = arbiter(['export', '--project', 'ghost', '--format', 'csv', '--out', 'x', '--db', db]);
    expect(badFormat.code).toBe(2);
    expect(badFormat.stderr).toMatch(/unknown export format "csv"/);
    expect(arbiter(['frobnicate']).code).toBe(2);
    const doctor = arbiter(['doctor', '--json', '--db', db]);
    const report = JSON.parse(doctor.stdout);
    expect(report.checks.find((c: { name: string }) => c.name === 'database').ok).toBe(true);
  });

  it('--help lists every command the CLI runs, and only those', () => {
    const help = arbiter(['--help']);
    expect(help.code).toBe(0);
    // The commands named at the start of a line of the help (two spaces, the name).
    const listed = new Set([...help.stdout.matchAll(/^ {2}([a-z]+)\b/gm)].map((m) => m[1]));
    expect([...listed].sort()).toEqual(Object.keys(commands).sort());
    for (const sub of ['rubric import FILE', 'rubric export', 'rubric list']) expect(help.stdout).toContain(`  ${sub}`);
    for (const sub of ['hub init', 'hub grant', 'hub publish', 'hub join']) expect(help.stdout).toContain(`  ${sub}`);
  });

  it('answers a usage mistake with its one line and where to look, not the whole help', () => {
    const db = join(tempDir(), 'u.db');
    for (const args of [
      ['import', 'x.jsonl', '--project', 'a/b'],
      ['stats', '--project', 'tab\there'],
      ['export', '--project', 'p', '--format', 'csv', '--out', 'x'],
      ['frobnicate'],
    ]) {
      const result = arbiter([...args, '--db', db]);
      expect(result.code, args.join(' ')).toBe(2);
      const lines = result.stderr.trim().split('\n');
      expect(lines, result.stderr).toHaveLength(2);
      expect(lines[0]).toMatch(/^arbiter( [a-z]+)?: /);
      expect(lines[1]).toBe('See arbiter --help for the commands and their options.');
      expect(result.stdout).toBe('');
    }
    // A bare `arbiter` still shows the help (on stdout) with exit 2.
    const bare = arbiter([]);
    expect(bare.code).toBe(2);
    expect(bare.stdout).toMatch(/^arbiter <command>/);
  });

  // Issue 20, item 23: an unknown option printed parseArgs' own text ("Unknown option '--bogus'. To specify
  // a positional argument starting with a '-', place it at the end…"), and `arbiter export --help` was itself
  // an unknown option. Now one sentence naming the option and the command's own help, which answers.
  it('answers an unknown option with one sentence and the command’s own --help, which answers', () => {
    const db = join(tempDir(), 'u.db');
    for (const [option, command, ...rest] of [['--bogus', 'stats', '--bogus'], ['--formt', 'export', '--project', 'p', '--formt', 'trl'], ['-x', 'review', '-x']]) {
      const result = arbiter([command!, ...rest, '--db', db]);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toBe(`arbiter ${command}: Unknown option ${option}. See \`arbiter ${command} --help\`.\n`);
      expect(existsSync(db)).toBe(false);
    }
    for (const command of ['stats', 'export', 'adjudicate', 'projects', 'hub']) {
      const help = arbiter([command, '--help']);
      expect(help.code, `${command}: ${help.stderr}`).toBe(0);
      expect(help.stdout).toMatch(new RegExp(`^ {2}${command}\\b`, 'm'));
      expect(help.stdout).toContain('--db');
    }
    expect(arbiter(['export', '-h']).stdout).toContain('--force');
  });

  // Issue 20, item 23: `export --out` overwrote an existing file silently.
  it('export refuses to overwrite --out unless --force', () => {
    const { dir, db } = seeded(['p']);
    const out = join(dir, 'pairs-out.jsonl');
    writeFileSync(out, 'keep me\n');
    const refused = arbiter(['export', '--project', 'p', '--format', 'trl', '--out', out, '--db', db]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`arbiter export: ${out} exists; pass --force to overwrite it.`);
    expect(readFileSync(out, 'utf8')).toBe('keep me\n');
    const forced = arbiter(['export', '--project', 'p', '--format', 'trl', '--out', out, '--force', '--db', db]);
    expect(forced.code, forced.stderr).toBe(0);
    expect(readFileSync(out, 'utf8').trim().split('\n')).toHaveLength(3);
  });

  it('backs up the database with VACUUM INTO beside it or to --out, and never overwrites a file', () => {
    const { dir, db } = seeded(['one', 'two']);
    const made = arbiter(['backup', '--db', db]);
    expect(made.code, made.stderr).toBe(0);
    const printed = JSON.parse(made.stdout.trim()) as { backup: string; bytes: number };
    expect(made.stdout.trim().split('\n')).toHaveLength(1);
    expect(dirname(printed.backup)).toBe(dir);
    expect(printed.backup).toMatch(/arbiter\.db\.backup-\d{8}-\d{6}(-\d+)?\.sqlite$/);
    expect(existsSync(printed.backup)).toBe(true);
    expect(printed.bytes).toBe(statSync(printed.backup).size);
    // The copy opens on its own, with the same schema version and the same items.
    expect(countItems(printed.backup)).toBe(6);
    expect(countItems(printed.backup)).toBe(countItems(db));
    const version = (path: string) => {
      const handle = new Database(path, { readonly: true });
      try {
        return handle.pragma('user_version', { simple: true });
      } finally {
        handle.close();
      }
    };
    expect(version(printed.backup)).toBe(version(db));
    // Arbiter itself opens it as a database (--db pointed at the backup).
    expect(projectNames(printed.backup)).toEqual(['one', 'two']);

    const out = join(dir, 'copy.sqlite');
    const named = arbiter(['backup', '--out', out, '--db', db]);
    expect(named.code, named.stderr).toBe(0);
    expect(JSON.parse(named.stdout)).toEqual({ backup: out, bytes: statSync(out).size });
    const before = readFileSync(out);
    const again = arbiter(['backup', '--out', out, '--db', db]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already exists');
    expect(again.stdout).toBe('');
    expect(readFileSync(out).equals(before)).toBe(true);

    const missing = arbiter(['backup', '--db', join(dir, 'none.db')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/no database at/i);
    expect(existsSync(join(dir, 'none.db'))).toBe(false);
  });

  it('renames a project, and exports it under the new name', () => {
    const { dir, db } = seeded(['old name', 'other']);
    const renamed = arbiter(['projects', 'rename', 'old name', 'new name', '--db', db]);
    expect(renamed.code, renamed.stderr).toBe(0);
    expect(JSON.parse(renamed.stdout)).toMatchObject({ renamed: 'old name', name: 'new name', items: 3 });
    expect(projectNames(db)).toEqual(['new name', 'other']);

    const out = join(dir, 'renamed.jsonl');
    const exported = arbiter(['export', '--project', 'new name', '--format', 'trl', '--out', out, '--db', db]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l))).toEqual(pairs);
    const gone = arbiter(['export', '--project', 'old name', '--format', 'trl', '--out', join(dir, 'x.jsonl'), '--db', db]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/No project named "old name"/);

    const taken = arbiter(['projects', 'rename', 'new name', 'other', '--db', db]);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toMatch(/already exists/);
    const ghost = arbiter(['projects', 'rename', 'ghost', 'spirit', '--db', db]);
    expect(ghost.code).toBe(1);
    expect(ghost.stderr).toMatch(/No project named "ghost"/);
    expect(projectNames(db)).toEqual(['new name', 'other']);
    expect(arbiter(['projects', 'rename', 'new name', '--db', db]).code).toBe(2);
  });

  it('deletes a project with --yes after writing a backup into backups/ beside the database', () => {
    const { dir, db } = seeded(['keep', 'drop']);
    const deleted = arbiter(['projects', 'delete', 'drop', '--yes', '--db', db]);
    expect(deleted.code, deleted.stderr).toBe(0);
    const printed = JSON.parse(deleted.stdout) as { deleted: string; items: number; backup: string };
    expect(printed).toMatchObject({ deleted: 'drop', items: 3 });
    expect(dirname(printed.backup)).toBe(join(dir, 'backups'));
    expect(readdirSync(join(dir, 'backups'))).toHaveLength(1);
    expect(projectNames(db)).toEqual(['keep']);
    expect(countItems(db)).toBe(3);
    // The backup holds the project as it was before the delete.
    expect(countItems(printed.backup)).toBe(6);
    expect(projectNames(printed.backup)).toEqual(['drop', 'keep']);

    const ghost = arbiter(['projects', 'delete', 'drop', '--yes', '--db', db]);
    expect(ghost.code).toBe(1);
    expect(ghost.stderr).toMatch(/No project named "drop"/);
  });

  it('asks before deleting at a terminal, and wants --yes where stdin is not one', () => {
    const { dir, db } = seeded(['a', 'b']);
    // spawnSync's stdin is a pipe, not a terminal: no question can be asked.
    const unasked = arbiter(['projects', 'delete', 'a', '--db', db]);
    expect(unasked.code).toBe(2);
    expect(unasked.stderr).toMatch(/pass --yes/);
    expect(projectNames(db)).toEqual(['a', 'b']);
    expect(existsSync(join(dir, 'backups'))).toBe(false);

    const declined = arbiterAnswering(['projects', 'delete', 'a', '--db', db], 'n');
    expect(declined.code, declined.stderr).toBe(1);
    expect(declined.stderr).toContain('ASKED ["Delete project a and its 3 items? A backup is written first. [y/N] "]');
    expect(declined.stderr).toContain('Nothing was deleted.');
    expect(projectNames(db)).toEqual(['a', 'b']);
    expect(existsSync(join(dir, 'backups'))).toBe(false);

    const confirmed = arbiterAnswering(['projects', 'delete', 'a', '--db', db], 'y');
    expect(confirmed.code, confirmed.stderr).toBe(0);
    expect(JSON.parse(confirmed.stdout)).toMatchObject({ deleted: 'a', items: 3 });
    expect(projectNames(db)).toEqual(['b']);
    expect(readdirSync(join(dir, 'backups'))).toHaveLength(1);
  });

  it('refuses names the API refuses (exit 2) and creates or changes nothing', () => {
    const { dir, db, file } = seeded(['fine']);
    const fresh = join(dir, 'fresh.db');
    const slash = arbiter(['import', file, '--project', 'a/b', '--db', fresh]);
    expect(slash.code).toBe(2);
    expect(slash.stderr).toContain('project name has a slash or a control character');
    expect(existsSync(fresh)).toBe(false);

    const before = readFileSync(db);
    const out = join(dir, 'out.jsonl');
    const refused: [string[], RegExp][] = [
      [['import', file, '--project', 'back\\slash'], /slash or a control character/],
      [['import', file, '--project', 'x'.repeat(121)], /longer than 120 characters/],
      [['export', '--project', 'a/b', '--format', 'trl', '--out', out], /slash or a control character/],
      [['export', '--project', 'fine', '--format', 'trl', '--out', out, '--annotator', ' '], /annotator name is empty/],
      [['export', '--project', 'fine', '--format', 'trl', '--out', out, '--annotator', 'x'.repeat(81)], /--annotator/],
      [['labels', 'import', file, '--project', 'tab\there'], /slash or a control character/],
      [['stats', '--project', 'a/b', '--json'], /slash or a control character/],
      [['score', '--project', 'a/b'], /slash or a control character/],
      [['projects', 'rename', 'fine', 'fi/ne'], /NEW: project name has a slash/],
      [['projects', 'rename', 'fine', ' '], /NEW: project name is empty/],
      [['projects', 'delete', 'a\u0001b', '--yes'], /NAME: project name has a slash/],
    ];
    for (const [args, message] of refused) {
      const result = arbiter([...args, '--db', db]);
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(2);
      expect(result.stderr).toMatch(message);
    }
    expect(readFileSync(db).equals(before)).toBe(true);
    expect(existsSync(out)).toBe(false);
    expect(existsSync(join(dir, 'backups'))).toBe(false);
    expect(projectNames(db)).toEqual(['fine']);
  });

  it('review lists the disputed items; adjudicate resolves one; an adjudicated-only export has it alone', () => {
    const dir = tempDir();
    const db = join(dir, 'arbiter.db');
    const items = join(dir, 'items.jsonl');
    writeFileSync(items, [0, 1, 2].map((i) => JSON.stringify({ id: `q${i}`, prompt: `Question ${i}?`, responses: [{ text: `yes ${i}` }, { text: `no ${i}` }] })).join('\n') + '\n');
    expect(arbiter(['import', items, '--project', 'team', '--db', db]).code).toBe(0);
    const labels = join(dir, 'labels.jsonl');
    const votes: [string, string[]][] = [
      ['alice', ['A', 'A', 'B']],
      ['bob', ['A', 'B', 'B']],
    ];
    const lines = votes.flatMap(([who, choices]) =>
      choices.map((choice, i) => JSON.stringify({ id: `${who}-${i}`, item: `q${i}`, annotator: who, choice, strength: 2, created_at: '2026-11-23T10:00:00Z' })),
    );
    writeFileSync(labels, lines.join('\n') + '\n');
    expect(arbiter(['labels', 'import', labels, '--project', 'team', '--db', db]).code).toBe(0);

    const review = arbiter(['review', '--project', 'team', '--json', '--db', db]);
    expect(review.code, review.stderr).toBe(0);
    expect((JSON.parse(review.stdout) as { rows: { externalId: string; votes: object }[] }).rows.map((r) => [r.externalId, r.votes])).toEqual([['q1', { A: 1, B: 1 }]]);
    const text = arbiter(['review', '--project', 'team', '--db', db]);
    expect(text.stdout).toMatch(/1 pairwise item\(s\) to review[\s\S]*q1 +0\.50 +annotators +A×1 B×1/);

    const resolved = arbiter(['adjudicate', '--project', 'team', '--item', 'q1', '--choice', 'B', '--note', 'B is right', '--lead', 'lead', '--db', db]);
    expect(resolved.code, resolved.stderr).toBe(0);
    expect(JSON.parse(resolved.stdout)).toMatchObject({ project: 'team', item: 'q1', task: 'pairwise', by: 'lead' });
    expect(arbiter(['adjudicate', '--project', 'team', '--item', 'q9', '--choice', 'B', '--db', db])).toMatchObject({ code: 1, stderr: expect.stringMatching(/No item "q9"/) });
    expect(arbiter(['adjudicate', '--project', 'team', '--item', 'q1', '--choice', 'C', '--db', db]).code).toBe(2);

    const out = join(dir, 'gold.jsonl');
    const exported = arbiter(['export', '--project', 'team', '--format', 'trl', '--out', out, '--adjudicated-only', '--db', db]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l).chosen)).toEqual(['no 1']);
    expect(JSON.parse(exported.stdout).skipped).toMatchObject({ not_adjudicated: 2 });

    const stats = arbiter(['stats', '--project', 'team', '--json', '--db', db]);
    const report = JSON.parse(stats.stdout).review as { fields: { field: string; percent: { value: number; n: number } }[]; queue: { total: number; adjudicated: number } };
    // Three items are fewer than a figure needs (10): null, with the reason, in --json too.
    expect(report.fields.find((f) => f.field === 'choice')?.percent).toMatchObject({ value: null, n: 3, reason: 'not enough data: 3 items (10 needed)' });
    expect(report.queue).toMatchObject({ total: 1, adjudicated: 1 });
  });

  // Issue 20, item 15: review lists an item without an external id as #N, and adjudicate said "No item" to
  // both '#N' and 'N'. Both reach it now, and --help says what ID is.
  it('adjudicate reaches an item without an external id by the #N review lists, or by N', () => {
    const dir = tempDir();
    const db = join(dir, 'arbiter.db');
    const items = join(dir, 'items.jsonl');
    writeFileSync(items, [0, 1].map((i) => JSON.stringify({ prompt: `Question ${i}?`, responses: [{ text: `yes ${i}` }, { text: `no ${i}` }] })).join('\n') + '\n');
    expect(arbiter(['import', items, '--project', 'anon', '--db', db]).code).toBe(0);
    const rows = (() => {
      const handle = new Database(db, { readonly: true });
      try {
        return handle.prepare('SELECT id, uid, external_id FROM item ORDER BY seq').all() as { id: number; uid: string; external_id: string | null }[];
      } finally {
        handle.close();
      }
    })();
    expect(rows.map((r) => r.external_id)).toEqual([null, null]);
    const labels = join(dir, 'labels.jsonl');
    const lines = rows.flatMap((row, i) => [['alice', 'A'], ['bob', i === 0 ? 'B' : 'A']].map(([who, choice]) => JSON.stringify({ id: `${who}-${i}`, item: row.uid, annotator: who, choice, strength: 2, created_at: '2026-11-23T10:00:00Z' })));
    writeFileSync(labels, lines.join('\n') + '\n');
    const merged = arbiter(['labels', 'import', labels, '--project', 'anon', '--db', db]);
    expect(merged.code, merged.stderr).toBe(0);
    const listed = arbiter(['review', '--project', 'anon', '--db', db]);
    const shown = `#${rows[0]!.id}`;
    expect(listed.stdout).toContain(`${shown} `);
    for (const ref of [shown, String(rows[0]!.id)]) {
      const resolved = arbiter(['adjudicate', '--project', 'anon', '--item', ref, '--choice', 'B', '--lead', 'lead', '--db', db]);
      expect(resolved.code, `${ref}: ${resolved.stderr}`).toBe(0);
      expect(JSON.parse(resolved.stdout)).toMatchObject({ item: ref, task: 'pairwise', by: 'lead' });
    }
    const missing = arbiter(['adjudicate', '--project', 'anon', '--item', '#999', '--choice', 'B', '--db', db]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/No item "#999" in project "anon"/);
    expect(missing.stderr).toMatch(/#N/);
    expect(arbiter(['--help']).stdout).toMatch(/ID: the item's external id[^\n]*, its uid, or the #N/);
  });

  // Issue 20, item 16: a mistyped --db in a folder that does not exist made the folders and an empty
  // database, silently. It is refused with a sentence (exit 1) and nothing is made; the default path
  // (ARBITER_DB here, as the app's own) is still created with its folders.
  it('refuses a --db whose folder does not exist, and makes nothing; the default path is still created', () => {
    const { dir, file } = seeded([]);
    const typo = join(dir, 'nonexistent', 'dir', 'a.db');
    for (const args of [['projects'], ['import', file, '--project', 'p'], ['stats', '--project', 'p'], ['backup']]) {
      const run = arbiter([...args, '--db', typo]);
      expect(run.code, `${args[0]}: ${run.stderr}`).toBe(1);
      expect(run.stderr).toContain(`arbiter ${args[0]}: --db names a database in a folder that does not exist: ${join(dir, 'nonexistent', 'dir')}`);
      expect(existsSync(join(dir, 'nonexistent')), args[0]).toBe(false);
    }
    const home = join(dir, 'home', 'deeper', 'arbiter.db');
    const fresh = arbiter(['projects', '--json'], { ARBITER_DB: home });
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(existsSync(home)).toBe(true);
  });

  it('says a missing input file is bad input (exit 1), and a missing FILE argument is usage (exit 2)', () => {
    const { dir, db } = seeded(['p']);
    const missing = arbiter(['import', join(dir, 'nope.jsonl'), '--project', 'p', '--db', db]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/no such file: .*nope\.jsonl/);
    const missingLabels = arbiter(['labels', 'import', join(dir, 'nope.jsonl'), '--project', 'p', '--db', db]);
    expect(missingLabels.code).toBe(1);
    expect(missingLabels.stderr).toMatch(/no such file/);
    const folder = arbiter(['import', dir, '--project', 'p', '--db', db]);
    expect(folder.code).toBe(1);
    expect(folder.stderr).toMatch(/is a folder, not a file/);
    expect(arbiter(['import', '--project', 'p', '--db', db]).code).toBe(2);
    // Nothing was made for a file that is not there: the project still has its three items.
    expect(JSON.parse(arbiter(['stats', '--project', 'p', '--json', '--db', db]).stdout)).toMatchObject({ items: 3 });
    const fresh = join(dir, 'fresh.db');
    expect(arbiter(['import', join(dir, 'nope.jsonl'), '--project', 'q', '--db', fresh]).code).toBe(1);
    expect(existsSync(fresh)).toBe(false);
  });
});
