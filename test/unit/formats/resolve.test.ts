import { describe, expect, it } from 'vitest';
import { decide } from '../../../electron/core/formats';
import type { HeadLabel } from '../../../electron/core/formats/base/resolve';
import type { AnnotatorKind, Choice } from '../../../shared/domain';

const l = (annotator: string, choice: Choice | null, strength: number | null = null, kind: AnnotatorKind = 'human'): HeadLabel => ({
  annotator,
  kind,
  choice,
  ranking: null,
  strength,
});

describe('decide', () => {
  it('majority of humans, with the mean strength of the winners as margin', () => {
    expect(decide(2, [l('a', 'B', 3), l('b', 'B', 2), l('c', 'A', 1)])).toEqual({ winner: 1, margin: 2.5 });
    expect(decide(2, [l('a', 'A'), l('b', 'A', 2)])).toEqual({ winner: 0, margin: 2 });
    expect(decide(2, [l('a', 'A')])).toEqual({ winner: 0, margin: null });
  });

  it('an even split is a conflict; tie and both_bad are reasons to leave the item out', () => {
    expect(decide(2, [l('a', 'A'), l('b', 'B')])).toEqual({ skip: 'conflict' });
    expect(decide(2, [l('a', 'A'), l('b', 'tie')])).toEqual({ skip: 'conflict' });
    expect(decide(2, [l('a', 'tie'), l('b', 'tie'), l('c', 'A')])).toEqual({ skip: 'tie' });
    expect(decide(2, [l('a', 'both_bad')])).toEqual({ skip: 'both_bad' });
  });

  it('source only where no human has a current choice; models never', () => {
    const source = l('source', 'A', null, 'source');
    expect(decide(2, [source, l('rm', 'B', null, 'model')])).toEqual({ winner: 0, margin: null });
    expect(decide(2, [source, l('alice', null)])).toEqual({ winner: 0, margin: null });
    expect(decide(2, [source, l('alice', 'B')])).toEqual({ winner: 1, margin: null });
    expect(decide(2, [l('rm', 'B', null, 'model')])).toEqual({ skip: 'unlabeled' });
    expect(decide(2, [])).toEqual({ skip: 'unlabeled' });
  });

  it('a named annotator decides alone, whatever their kind', () => {
    const labels = [l('alice', 'B', 1), l('bob', 'A'), l('rm', 'A', null, 'model')];
    expect(decide(2, labels, 'alice')).toEqual({ winner: 1, margin: 1 });
    expect(decide(2, labels, 'rm')).toEqual({ winner: 0, margin: null });
    expect(decide(2, labels, 'carol')).toEqual({ skip: 'unlabeled' });
  });

  it('items without exactly two responses are not pairwise', () => {
    expect(decide(3, [l('a', 'A')])).toEqual({ skip: 'not_pairwise' });
  });

  it('a two-response ranking counts as a choice', () => {
    expect(decide(2, [{ ...l('a', null), ranking: [[1], [0]] }])).toEqual({ winner: 1, margin: null });
  });
});
