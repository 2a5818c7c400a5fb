// One labeling loop (issue 21 §3): the step screen walks its queue with the same code as Compare, Rank and
// Verdict (features/labeling/queueWalk.ts) and saves through the same outbox (features/labeling/outbox.ts,
// arbiter.pendingJudgements), which carries in the saves an older page left under the step screen's own key.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it, vi } from 'vitest';

// The outbox reaches the renderer's api module, which picks its transport from the page's address.
vi.stubGlobal('location', { origin: 'http://127.0.0.1', hash: '', pathname: '/', search: '' });
vi.stubGlobal('sessionStorage', { getItem: () => null, setItem: () => undefined });
const store = new Map<string, string>();
vi.stubGlobal('localStorage', {
  getItem: (k: string) => store.get(k) ?? null,
  setItem: (k: string, v: string) => void store.set(k, v),
  removeItem: (k: string) => void store.delete(k),
});
const { carryOldSaves, OUTBOX_KEY } = await import('../../../renderer/src/features/labeling/outbox');

const root = join(import.meta.dirname, '../../..');
const src = join(root, 'renderer/src');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : /\.tsx?$/.test(name) ? [relative(root, path)] : [];
  });
}

describe('one labeling loop', () => {
  it('walks the step screen’s queue and the judging screens’ with the same code', () => {
    const walkers = files(src).filter((path) => /\buseQueueWalk\s*[<(]/.test(read(path)) && !path.endsWith('queueWalk.ts'));
    expect(walkers.sort()).toEqual(['renderer/src/features/labeling/useLabelingLoop.ts', 'renderer/src/features/steps/useStepItems.ts']);
    // No second walk beside it: the step screen keeps no item-ahead request or pre-label cache of its own.
    for (const path of files(join(src, 'features/steps'))) {
      expect(read(path), path).not.toMatch(/useRef<\{ seq: number; promise/);
      expect(read(path), path).not.toMatch(/api\.prelabels\(/);
    }
  });

  it('keeps the judgements’ saves under one key, named only by the loop’s outbox', () => {
    const naming = files(src).filter((path) => /'arbiter\.pending(Judgements|Saves|Rankings|Steps)'/.test(read(path)));
    expect(naming).toEqual(['renderer/src/features/labeling/outbox.ts']);
    expect(read('renderer/src/features/steps/useSteps.ts')).toMatch(/useLoopOutbox\(/);
  });

  it('carries a step save an older page left under arbiter.pendingSteps into the shared outbox', () => {
    store.clear();
    const input = { project: 'p', annotator: 'a', itemId: 7, response: 1, id: 'rev-1', steps: { version: 2, ratings: [1, -1], firstError: 1 } };
    store.set(OUTBOX_KEY, JSON.stringify([{ key: 'k0', words: 'Left better', itemNumber: 1, request: { kind: 'pairwise', input: { project: 'p', annotator: 'a', itemId: 3 } } }]));
    store.set('arbiter.pendingSteps', JSON.stringify([{ key: 'k1', words: 'Rated step 2 −1', itemNumber: 4, input }, 'not a save']));
    expect(carryOldSaves()).toBe(1);
    expect(store.has('arbiter.pendingSteps')).toBe(false);
    const box = JSON.parse(store.get(OUTBOX_KEY)!) as { key: string; request: { kind: string; input: unknown } }[];
    expect(box.map((e) => [e.key, e.request.kind])).toEqual([
      ['k0', 'pairwise'],
      ['k1', 'steps'],
    ]);
    expect(box[1]!.request.input).toEqual(input);
  });
});
