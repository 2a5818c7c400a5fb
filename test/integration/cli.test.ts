// The CLI contract (DESIGN.md) as a script would use it: exit codes, stderr lines, JSON on stdout.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
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
});
