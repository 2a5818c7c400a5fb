// The import preview's "File says" column: formats that give the file's choice as a pairwise judgement
// (Multimodal RewardBench's Better, Pick-a-Pic's label_0 / label_1) show it, as the import then keeps it.
import { describe, expect, it } from 'vitest';
import { previewHead } from '../../electron/core/formats/import/preview';

describe('previewHead: the file’s own choice', () => {
  it('shows Multimodal RewardBench’s Better as A / B', () => {
    const rows = [
      { ID: 'a', Text: 'Q?', Image: 'https://example.com/a.png', Output1: 'x', Output2: 'y', Better: 'Output2' },
      { ID: 'b', Text: 'Q?', Image: 'https://example.com/b.png', Output1: 'x', Output2: 'y', Better: 'Output1' },
      { ID: 'c', Text: 'Q?', Image: 'https://example.com/c.png', Output1: 'x', Output2: 'y' },
    ];
    const result = previewHead(rows.map((r) => JSON.stringify(r)).join('\n') + '\n', 'multimodal-rewardbench');
    expect(result.errors).toEqual([]);
    expect(result.records.map((r) => r.choice)).toEqual(['B', 'A', null]);
  });

  it('still shows a preference given as such (TRL chosen / rejected: A)', () => {
    const result = previewHead(JSON.stringify({ prompt: 'p', chosen: 'c', rejected: 'r' }) + '\n', 'trl');
    expect(result.records.map((r) => r.choice)).toEqual(['A']);
  });
});
