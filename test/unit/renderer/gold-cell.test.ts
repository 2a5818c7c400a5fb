// "Where the team stands" shows each annotator's accuracy on gold (renderer/src/features/goldRules/
// GoldAccuracy.tsx GoldCell): the share with its n, a flag under the lead's bar naming the missed items in
// its title, and a dash for someone with no gold judged.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import type { GoldAccuracyReport } from '../../../shared/api';

vi.mock('../../../renderer/src/api', () => ({ api: {}, errorMessage: String }));
const { GoldCell } = await import('../../../renderer/src/features/goldRules/GoldAccuracy');

const gold: GoldAccuracyReport = {
  tasks: [
    {
      task: 'pairwise',
      goldItems: 12,
      bar: 0.8,
      honeypotRate: 0.1,
      qualification: 0,
      people: [
        { name: 'bo', accuracy: { value: 1 / 3, n: 3, reason: null, low: 0.06, high: 0.79 }, correct: 1, flagged: true, wrong: [{ itemId: 4, seq: 3, externalId: 'q3' }, { itemId: 9, seq: 8, externalId: null }], qualification: null },
        { name: 'ann', accuracy: { value: 0.9, n: 10, reason: null, low: 0.6, high: 0.98 }, correct: 9, flagged: false, wrong: [{ itemId: 2, seq: 1, externalId: 'q1' }], qualification: null },
      ],
    },
  ],
};
const cell = (name: string) => renderToStaticMarkup(createElement('table', null, createElement('tbody', null, createElement('tr', null, createElement(GoldCell, { gold, name })))));

describe('GoldCell', () => {
  it('flags a person under the bar, naming the items they missed', () => {
    const html = cell('bo');
    expect(html).toContain('33% (n 3) ⚑');
    expect(html).toContain('text-bad');
    expect(html).toContain('under the bar of 80%, missed q3, #9');
  });
  it('shows a person over the bar plainly, and a dash for someone with no gold judged', () => {
    expect(cell('ann')).toContain('90% (n 10)');
    expect(cell('ann')).not.toContain('⚑');
    expect(cell('cy')).toContain('>—<');
  });
});
