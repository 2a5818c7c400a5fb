// Names that say what a file holds (issue 21, section 3): no source file is named for its kind of content
// alone (words, walk, keep, parts, utils, helpers, misc), where a reader cannot tell one from another.
import { readdirSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '..', '..');
const VAGUE = /^(words|walk|keep|parts|utils?|helpers?|misc)\.tsx?$/;

const PENDING: string[] = [];

function files(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) {
      if (name !== 'node_modules') files(full, out);
    } else out.push(full);
  }
  return out;
}

describe('file names', () => {
  it('say what a file holds', () => {
    const vague = ['electron', 'shared', 'renderer/src']
      .flatMap((tree) => files(join(ROOT, tree)))
      .filter((file) => VAGUE.test(basename(file)))
      .map((file) => relative(ROOT, file).split('\\').join('/'))
      .sort();
    expect(vague).toEqual(PENDING);
  });
});
