// Every reference to a document points at one that exists (issue 21, section 4): a `docs/….md` or
// `README.md` named in code, tests, scripts or docs, a markdown link's file and its #anchor, and a quoted
// section after a document's name (`docs/models.md, "NVIDIA GPU"`, `README "Backup and restore"`).
// DESIGN.md, FORMATS.md and UX.md are not in the repository: naming them fails too. In a markdown file,
// a path into the code (`electron/core/base/limits.ts`) must exist as well: files move.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..', '..');
const SKIP = new Set(['node_modules', 'out', '.git', 'dist', '.cache', 'resources', 'coverage']);
const EXTENSIONS = /\.(ts|tsx|mjs|js|md|py)$/;
/** Paths of other projects' documents that sources cite (huggingface/trl's docs folder). */
const EXTERNAL = new Set(['docs/source/dataset_formats.md']);

function files(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name) || name.startsWith('.venv') || (name === '.data' && dir.endsWith('bench'))) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files(path, out);
    else if (EXTENSIONS.test(name)) out.push(path);
  }
  return out;
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) => heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
const plain = (heading: string) => heading.replace(/[`*]/g, '').trim().toLowerCase();

function headings(path: string): string[] {
  return readFileSync(path, 'utf8').split('\n').filter((l) => /^#{1,6} /.test(l)).map((l) => l.replace(/^#+ /, ''));
}

/** Where a named document is: beside the file that names it (for ./ and ../ paths and README.md), else the root. */
function locate(name: string, from: string): string | null {
  const candidates = name.startsWith('.') ? [resolve(dirname(from), name)] : [resolve(dirname(from), name), resolve(ROOT, name)];
  return candidates.find((c) => existsSync(c)) ?? null;
}

/** The problems in one file's text ("file:line: …"), for files read from `path`. */
export function problems(path: string, text: string): string[] {
  const out: string[] = [];
  const where = (i: number) => `${relative(ROOT, path)}:${i + 1}`;
  text.split('\n').forEach((line, i) => {
    const named = /(?<![\w/.@-])((?:\.{1,2}\/)*(?:docs\/[\w./-]*?\.md|README\.md|DESIGN\.md|FORMATS\.md|UX\.md))(?:[,:]? ?["“]([^"”]+)["”])?/g;
    for (const m of line.matchAll(named)) {
      const [, name, section] = m;
      if (EXTERNAL.has(name!)) continue;
      const found = locate(name!, path);
      if (!found) out.push(`${where(i)}: ${name} does not exist`);
      else if (section && !headings(found).some((h) => plain(h).startsWith(plain(section)))) out.push(`${where(i)}: ${name} has no section "${section}"`);
    }
    for (const m of line.matchAll(/(?<![\w/.-])README,? ["“]([^"”]+)["”]/g)) {
      if (!headings(join(ROOT, 'README.md')).some((h) => plain(h).startsWith(plain(m[1]!)))) out.push(`${where(i)}: README.md has no section "${m[1]}"`);
    }
    if (!path.endsWith('.md')) return;
    for (const m of line.matchAll(/(?<![\w/.-])((?:electron|shared|renderer|scripts|bench|test|migrations)\/[\w./-]+\.(?:ts|tsx|mjs|sql))\b/g)) {
      if (!existsSync(join(ROOT, m[1]!))) out.push(`${where(i)}: ${m[1]} does not exist`);
    }
    for (const m of line.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1]!;
      if (/^[a-z]+:/i.test(target)) continue;
      const [file, anchor] = target.split('#');
      const found = file ? resolve(dirname(path), file) : path;
      if (!existsSync(found)) out.push(`${where(i)}: link to ${target}: ${file} does not exist`);
      else if (anchor && found.endsWith('.md') && !headings(found).some((h) => slug(h) === anchor)) out.push(`${where(i)}: link to ${target}: no such heading`);
    }
  });
  return out;
}

describe('document references', () => {
  it('finds a reference to a document that does not exist, and one to a missing section', () => {
    const path = join(ROOT, 'test', 'unit', 'probe.ts');
    expect(problems(path, '// see docs/nope.md and DESIGN.md')).toEqual([
      'test/unit/probe.ts:1: docs/nope.md does not exist',
      'test/unit/probe.ts:1: DESIGN.md does not exist',
    ]);
    expect(problems(path, '// docs/models.md, "NVIDIA GPU" and docs/models.md, "No such part"')).toEqual([
      'test/unit/probe.ts:1: docs/models.md has no section "No such part"',
    ]);
    expect(problems(join(ROOT, 'docs', 'probe.md'), '[a](cli.md#limits) [b](cli.md#nope) [c](gone.md) electron/core/gone.ts')).toEqual([
      'docs/probe.md:1: electron/core/gone.ts does not exist',
      'docs/probe.md:1: link to cli.md#nope: no such heading',
      'docs/probe.md:1: link to gone.md: gone.md does not exist',
    ]);
  });

  it('every document named in the repository exists', () => {
    const found = files(ROOT)
      .filter((path) => path !== import.meta.filename)
      .flatMap((path) => problems(path, readFileSync(path, 'utf8')));
    expect(found).toEqual([]);
  });
});
