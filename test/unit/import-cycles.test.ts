// No import circles in our own code (issue 13, finding 32). The graph is built with a regex over the
// import and export-from statements (type-only and dynamic imports included: a circle through either
// still ties two files' designs together), resolved the way the bundler does, then searched for cycles.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '..', '..');
const TREES = ['electron', 'shared', 'renderer/src'];
const SPEC = /(?:\bimport\s+(?:type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?|\bexport\s+(?:type\s+)?(?:\*|\{[^}]*\})(?:\s+as\s+\w+)?\s+from\s+|\bimport\s*\()\s*['"]([^'"]+)['"]/g;

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) {
      if (name !== 'node_modules') sourceFiles(full, out);
    } else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

function resolveSpec(from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const base = resolve(dirname(from), spec.replace(/\.js$/, ''));
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')])
    if (existsSync(candidate) && statSync(candidate).isFile() && /\.tsx?$/.test(candidate)) return candidate;
  return undefined;
}

export function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const tree of TREES)
    for (const file of sourceFiles(join(ROOT, tree))) {
      const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
      const targets = new Set<string>();
      for (const m of text.matchAll(SPEC)) {
        const target = resolveSpec(file, m[1]!);
        if (target) targets.add(target);
      }
      graph.set(file, [...targets]);
    }
  return graph;
}

/** Every strongly connected component of more than one file (or a file importing itself), each as one circle found in it. */
export function importCycles(graph: Map<string, string[]>): string[][] {
  // Tarjan's algorithm, iterative.
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  for (const start of graph.keys()) {
    if (idx.has(start)) continue;
    const work: Array<{ node: string; next: number }> = [{ node: start, next: 0 }];
    idx.set(start, index);
    low.set(start, index++);
    stack.push(start);
    onStack.add(start);
    while (work.length) {
      const frame = work[work.length - 1]!;
      const edges = graph.get(frame.node) ?? [];
      if (frame.next < edges.length) {
        const to = edges[frame.next++]!;
        if (!idx.has(to)) {
          idx.set(to, index);
          low.set(to, index++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, next: 0 });
        } else if (onStack.has(to)) low.set(frame.node, Math.min(low.get(frame.node)!, idx.get(to)!));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1]!.node;
        low.set(parent, Math.min(low.get(parent)!, low.get(frame.node)!));
      }
      if (low.get(frame.node) === idx.get(frame.node)) {
        const component: string[] = [];
        let n: string;
        do {
          n = stack.pop()!;
          onStack.delete(n);
          component.push(n);
        } while (n !== frame.node);
        if (component.length > 1 || edges.includes(frame.node)) components.push(component);
      }
    }
  }
  // One concrete circle per component: a shortest path back to its first file, within the component.
  return components.map((component) => {
    const inside = new Set(component);
    const first = [...component].sort()[0]!;
    const previous = new Map<string, string>();
    const queue = [first];
    while (queue.length) {
      const node = queue.shift()!;
      for (const to of graph.get(node) ?? []) {
        if (!inside.has(to)) continue;
        if (to === first) {
          const path = [node];
          while (path[0] !== first) path.unshift(previous.get(path[0]!)!);
          return [...path, first];
        }
        if (!previous.has(to)) {
          previous.set(to, node);
          queue.push(to);
        }
      }
    }
    return [first, first];
  });
}

describe('import graph', () => {
  it('has no circles in electron/, shared/ or renderer/src', () => {
    const graph = importGraph();
    expect(graph.size).toBeGreaterThan(100);
    const circles = importCycles(graph).map((c) => c.map((f) => relative(ROOT, f)).join(' -> '));
    expect(circles, `import circles:\n${circles.join('\n')}`).toEqual([]);
  });

  it('finds a circle when there is one', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(importCycles(graph)).toEqual([['a', 'b', 'c', 'a']]);
  });
});
