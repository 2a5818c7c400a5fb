// `arbiter stats` in words: counts with their right plural ("1 person", not "1 people") and each α with
// its level named (a Likert criterion: ordinal, with interval beside it).
import { describe, expect, it } from 'vitest';
import { reviewLines } from '../../../electron/cli/review';
import type { ReviewReport } from '../../../shared/api/review';

const figure = (value: number, n: number) => ({ value, n, reason: null });

describe('stats in words', () => {
  it('says 1 person and 1 current human label, and names the α levels', () => {
    const report = {
      project: 'p',
      computedAt: '',
      labels: 1,
      items: 1,
      annotators: 1,
      fields: [{ task: 'rubric', field: 'rubric:style/clarity', level: 'ordinal', percent: figure(0.5, 4), cohen: null, fleiss: null, alpha: figure(0.815, 40), alsoAlpha: { level: 'interval', ...figure(0.849, 40) } }],
      people: [],
      models: [],
      consensus: { method: 'dawid-skene', items: 0, ties: 0, agreeWithMajority: { value: null, n: 0, reason: 'none' } },
      overTime: [],
      queue: { total: 0, byReason: { annotators: 0, model: 0, uncertain: 0 }, adjudicated: 0 },
    } as unknown as ReviewReport;
    const lines = reviewLines(report).join('\n');
    expect(lines).toContain('agreement (1 current human label by 1 person)');
    expect(lines).toContain('α ordinal 0.815, α interval 0.849');
  });
});
