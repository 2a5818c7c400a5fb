// `arbiter stats` starts on what it needs (issue 20, stats ≤ 4× a GROUP BY pass, start-up included): the
// built CLI is in chunks (scripts/build.mjs writes the chunk graph to out/node/cli-meta.json), and what
// cli.mjs and the stats command's chunk import before running holds neither the formats nor the scorer
// nor the service's app. Its text and --json stay byte for byte what they were before the CLI was split:
// a project of pairs, rankings and verdicts labelled by three people, against
// test/fixtures/cli/stats-golden.txt and .json (computedAt left out), written by the build before.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildNodeSide, ROOT } from '../helpers/host';
import { tempDir } from '../helpers/tmp';

beforeAll(() => buildNodeSide(), 120_000);

// ARBITER_STATS_CLI runs another build's cli.mjs (the golden files were written by the build before the split).
const CLI = process.env.ARBITER_STATS_CLI ?? join(ROOT, 'out/node/cli.mjs');
const GOLDEN = join(ROOT, 'test/fixtures/cli');

function arbiter(args: string[]) {
  const script = `const { runCli } = await import(${JSON.stringify(pathToFileURL(CLI).href)}); process.exitCode = await runCli(${JSON.stringify(args)});`;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', env: { ...process.env, ARBITER_NO_DEMO: '1' } });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

interface Output {
  path: string;
  bytes: number;
  inputs: Record<string, unknown>;
  imports: { path: string; kind: string }[];
}

/** The chunks a chunk loads before it runs (static imports, transitively). */
function loadedWith(outputs: Record<string, Output>, start: string): Set<string> {
  const seen = new Set<string>();
  const todo = [start];
  while (todo.length) {
    const file = todo.pop()!;
    if (seen.has(file) || !outputs[file]) continue;
    seen.add(file);
    for (const i of outputs[file].imports) if (i.kind === 'import-statement') todo.push(i.path);
  }
  return seen;
}

/** Items of three shapes and labels of three people at fixed times: splits, ties, both bad, strengths. */
function project(dir: string) {
  const items: object[] = [];
  const labels: object[] = [];
  const people = ['ana', 'ben', 'cy'];
  let n = 0;
  const label = (item: string, who: number, body: object) => {
    n++;
    labels.push({
      id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
      item,
      annotator: people[who],
      created_at: new Date(Date.UTC(2026, 10, 2 + (n % 9), 9, n % 60, n % 37)).toISOString(),
      time_ms: 3000 + ((n * 977) % 20_000),
      ...body,
    });
  };
  const choices = ['A', 'B', 'tie', 'both_bad'];
  for (let i = 0; i < 24; i++) {
    items.push({ id: `p${i}`, prompt: `Pair question ${i}?`, responses: [{ text: `Short ${i}.` }, { text: `A longer answer to ${i}, with more words in it.` }] });
    for (let who = 0; who < 3; who++) {
      if ((i + who) % 7 === 6) continue;
      const choice = choices[(i * (who + 1) + (i % 5 === 0 ? who : 0)) % (i % 3 === 0 ? 4 : 2)]!;
      label(`p${i}`, who, { choice, ...(choice === 'A' || choice === 'B' ? { strength: 1 + ((i + who) % 3) } : {}), shown_order: (i + who) % 2 ? [1, 0] : [0, 1], prelabel_visible: (i + who) % 3 === 0 });
    }
  }
  for (let i = 0; i < 8; i++) {
    items.push({ id: `r${i}`, prompt: `Rank these ${i}.`, responses: [{ text: `one ${i}` }, { text: `two ${i} two` }, { text: `three ${i} three three` }] });
    for (let who = 0; who < 3; who++) label(`r${i}`, who, { ranking: (i + who) % 4 === 0 ? [1, 0, 2] : (i + who) % 2 ? [0, 1, 2] : [2, 0, 1] });
  }
  for (let i = 0; i < 8; i++) {
    items.push({ id: `v${i}`, prompt: `Is this right ${i}?`, responses: [{ text: `Answer ${i}.` }] });
    for (let who = 0; who < 3; who++) label(`v${i}`, who, { task: 'verdict', verdict: (i * (who + 2)) % 3 === 0 ? 'bad' : 'good' });
  }
  const itemsFile = join(dir, 'items.jsonl');
  const labelsFile = join(dir, 'labels.jsonl');
  writeFileSync(itemsFile, items.map((x) => JSON.stringify(x)).join('\n') + '\n');
  writeFileSync(labelsFile, labels.map((x) => JSON.stringify(x)).join('\n') + '\n');
  return { itemsFile, labelsFile };
}

describe('arbiter stats start-up', () => {
  it('loads neither the formats, the scorer nor the service app before stats runs', () => {
    const meta = JSON.parse(readFileSync(join(ROOT, 'out/node/cli-meta.json'), 'utf8')) as { outputs: Record<string, Output> };
    const statsChunk = Object.keys(meta.outputs).find((k) => !k.endsWith('.map') && 'electron/cli/stats.ts' in meta.outputs[k]!.inputs);
    expect(statsChunk, 'stats has a chunk of its own, loaded when asked').toBeDefined();
    expect(statsChunk).not.toBe('out/node/cli.mjs');
    const loaded = new Set([...loadedWith(meta.outputs, 'out/node/cli.mjs'), ...loadedWith(meta.outputs, statsChunk!)]);
    const modules = [...loaded].flatMap((file) => Object.keys(meta.outputs[file]!.inputs));
    expect(modules).toContain('electron/core/review/report.ts');
    expect(modules.filter((m) => /^electron\/core\/(formats|scorer|judge|hub|tasks)\//.test(m) || /service\/(openApp|direct|index)\.ts$/.test(m))).toEqual([]);
    const bytes = [...loaded].reduce((sum, file) => sum + meta.outputs[file]!.bytes, 0);
    expect(bytes).toBeLessThan(1_600_000); // the whole CLI is over 3 MB
  });

  it("prints the same text and --json as the build before the split (test/fixtures/cli/stats-golden.*)", () => {
    const dir = tempDir();
    const db = join(dir, 's.db');
    const { itemsFile, labelsFile } = project(dir);
    expect(arbiter(['import', itemsFile, '--project', 'golden', '--db', db]).code).toBe(0);
    const merged = arbiter(['labels', 'import', labelsFile, '--project', 'golden', '--db', db]);
    expect(merged.code, merged.stderr).toBe(0);
    const text = arbiter(['stats', '--project', 'golden', '--db', db]);
    const json = arbiter(['stats', '--project', 'golden', '--json', '--db', db]);
    expect(text.code, text.stderr).toBe(0);
    expect(json.code, json.stderr).toBe(0);
    const jsonOut = json.stdout.replace(/"computedAt":"[^"]*",/, '');
    if (process.env.ARBITER_WRITE_GOLDEN === '1') {
      writeFileSync(join(GOLDEN, 'stats-golden.txt'), text.stdout);
      writeFileSync(join(GOLDEN, 'stats-golden.json'), jsonOut);
    }
    expect(text.stdout).toBe(readFileSync(join(GOLDEN, 'stats-golden.txt'), 'utf8'));
    expect(jsonOut).toBe(readFileSync(join(GOLDEN, 'stats-golden.json'), 'utf8'));
  });
});
