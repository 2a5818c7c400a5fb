// The labels merge checks common lines without zod (formats/exchange/labelLineQuick.ts): every variant
// of a line here must get the same answer from it as from labelSchema, accepted with the same value or
// refused with the same words, and a common line must not go through zod at all.
import { describe, expect, it } from 'vitest';
import { labelSchema } from '../../electron/core/formats/exchange/labelLine';
import { checkLabelLine } from '../../electron/core/formats/exchange/labelLineQuick';
import { check } from '../../electron/core/formats/validate';

const base = {
  id: '018f2b6e-0000-7000-8000-000000000001',
  item: 'q1',
  item_uid: 'u-1',
  annotator: 'ana',
  annotator_uuid: '11111111-1111-4111-8111-111111111111',
  annotator_kind: 'human',
  task: 'pairwise',
  choice: 'A',
  strength: 2,
  shown_order: [1, 0],
  rationale: 'B rambles.',
  time_ms: 4200,
  prelabel_visible: false,
  created_at: '2026-11-01T00:00:00.000Z',
};

const odd: unknown[] = [null, '', ' ', 'x', 'A', 'a', 'AB', 'tie', 'both_bad', 'good', 'bad', 'human', 'model', 'source', 'ranking', 0, -1, 1, 2, 3, 4, 1.5, -0.5, 2 ** 53, true, false, [], [0], [1, 0], [0, -1], [0, 1.5], ['0'], {}, { a: 1 }];
const strings = ['\ud800', 'a\udc00b', '\ud83d\ude00', 'x'.repeat(80), 'x'.repeat(81), 'x'.repeat(200), 'x'.repeat(201), 'x'.repeat(20_001), 'not a date', '2026-13-45', '2026-11-01', 'Nov 1, 2026',
  '00000000-0000-0000-0000-000000000000', 'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF', '11111111-1111-4111-8111-11111111111', '11111111-1111-9111-8111-111111111111', '11111111-1111-4111-c111-111111111111', '11111111111141118111111111111111'];

function zodAnswer(value: Record<string, unknown>) {
  try {
    return { ok: true, value: check(labelSchema, value) };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}

function quickAnswer(value: Record<string, unknown>) {
  try {
    return { ok: true, value: checkLabelLine(value) };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}

describe('the quick check of a labels line', () => {
  it('takes a common line as it is, without zod', () => {
    const line = { ...base };
    expect(checkLabelLine(line)).toBe(line);
    const minimal = { id: 'r1', item: 7, annotator: 'ben', created_at: '2026-11-01T00:00:00Z' };
    expect(checkLabelLine(minimal)).toBe(minimal);
  });

  it('answers as labelSchema does for every field set to every odd value, absent, or a field it does not know', () => {
    const variants: Record<string, unknown>[] = [];
    for (const key of Object.keys(base)) {
      for (const value of [...odd, ...strings]) variants.push({ ...base, [key]: value });
      const without: Record<string, unknown> = { ...base };
      delete without[key];
      variants.push(without);
    }
    variants.push({ ...base, ranking: [[0], [1]] }, { ...base, steps: { A: [1, -1] } }, { ...base, adjudicated: true }, { ...base, extra: 'kept' });
    variants.push(JSON.parse('{"id":"r","item":"q","annotator":"a","created_at":"2026-11-01T00:00:00Z","__proto__":{"x":1}}'));
    let agreed = 0;
    for (const value of variants) {
      const zod = zodAnswer(value);
      const quick = quickAnswer(value);
      expect(quick, JSON.stringify(value)).toEqual(zod);
      agreed++;
    }
    expect(agreed).toBeGreaterThan(700);
  });
});
