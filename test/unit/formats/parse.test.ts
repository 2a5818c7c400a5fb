// The Arbiter and RewardBench parsers, the preview, and the line-error wording.
import { describe, expect, it } from 'vitest';
import { previewHead, splitLines } from '../../../electron/core/formats';
import { encodeArbiter, parseArbiter } from '../../../electron/core/formats/exchange/arbiter';
import { idValue, parseRewardbench } from '../../../electron/core/formats/pairs/rewardbench';

describe('arbiter items', () => {
  it('parses prompt, responses with models and steps, reference, metadata', () => {
    const record = {
      id: 'q-1',
      prompt: [{ role: 'user', content: 'Q' }],
      responses: [{ text: 'a', model: 'm1', steps: ['s1', 's2'] }, { text: [{ role: 'assistant', content: 'b' }] }],
      reference: 'a',
      metadata: { source: 'gsm' },
      difficulty: 3,
    };
    const parsed = parseArbiter(record);
    expect(parsed.preference).toBeNull();
    expect(parsed.draft).toEqual({
      externalId: 'q-1',
      prompt: [{ role: 'user', content: 'Q' }],
      responses: [
        { content: 'a', model: 'm1', steps: ['s1', 's2'] },
        { content: [{ role: 'assistant', content: 'b' }], model: null, steps: null },
      ],
      reference: 'a',
      metadata: { source: 'gsm', difficulty: 3 },
    });
  });

  it.each([
    [{ prompt: 'p', responses: [] }, 'responses: no responses'],
    [{ prompt: 'p', responses: [{ text: 'a' }, { text: '' }] }, 'responses[1].text: empty text'],
    [{ prompt: 'p', responses: [{ text: 'a' }, { txt: 'b' }] }, 'responses[1].text: missing'],
    [{ prompt: '', responses: [{ text: 'a' }, { text: 'b' }] }, 'prompt: empty text'],
    [{ prompt: [{ role: 'user', content: 1 }], responses: [{ text: 'a' }, { text: 'b' }] }, 'prompt[0].content: expected a string or a list of typed parts, got number'],
    [{ prompt: 'p', responses: [{ text: 'a', model: 5 }, { text: 'b' }] }, 'responses[0].model: expected a string, got number'],
    [{ prompt: 'p', responses: 'ab' }, 'responses: expected a list, got string'],
    [{ id: true, prompt: 'p', responses: [{ text: 'a' }, { text: 'b' }] }, 'id: '],
  ])('refuses %j', (record, reason) => {
    expect(() => parseArbiter(record as Record<string, unknown>)).toThrow(reason);
  });

  it('encodes only what is set', () => {
    expect(
      encodeArbiter({
        id: 1,
        uid: 'u',
        externalId: null,
        seq: 0,
        prompt: 'p',
        reference: null,
        metadata: {},
        responses: [
          { index: 0, content: 'a', model: null, steps: null },
          { index: 1, content: 'b', model: 'm', steps: ['x'] },
        ],
      }),
    ).toEqual({ prompt: 'p', responses: [{ text: 'a' }, { text: 'b', model: 'm', steps: ['x'] }] });
  });
});

describe('rewardbench', () => {
  it('puts models on responses, subset in metadata, id as external id', () => {
    const parsed = parseRewardbench({ prompt: 'p', chosen: 'c', chosen_model: 'm1', rejected: 'r', rejected_model: 'm2', subset: 's', id: 12 });
    expect(parsed.draft.externalId).toBe('12');
    expect(parsed.draft.metadata).toEqual({ subset: 's' });
    expect(parsed.draft.responses.map((r) => r.model)).toEqual(['m1', 'm2']);
  });
  it('refuses a bad field by name', () => {
    expect(() => parseRewardbench({ prompt: 'p', chosen: 'c', rejected: 'r', subset: 4 })).toThrow('subset: expected a string, got number');
  });
  it('integer ids go back out as numbers', () => {
    expect(idValue('3012')).toBe(3012);
    expect(idValue('007')).toBe('007');
    expect(idValue('q-1')).toBe('q-1');
    expect(idValue('99999999999999999999')).toBe('99999999999999999999');
  });
});

describe('previewHead', () => {
  const good = (i: number) => JSON.stringify({ prompt: `p${i}`, chosen: `c${i}`, rejected: `r${i}` });

  it('detects, shows the first records, lists bad lines, ignores a cut-off last line', () => {
    const head = [good(1), '', 'not json', good(2), JSON.stringify({ prompt: 'p', chosen: 'c' }), good(3), '{"prompt":"cut off'].join('\n');
    const preview = previewHead(head, 'auto', 2);
    expect(preview.detected).toBe('trl');
    expect(preview.format).toBe('trl');
    expect(preview.reason).toMatch(/^trl: /);
    expect(preview.records).toEqual([
      { line: 1, prompt: 'p1', responses: ['c1', 'r1'], choice: 'A' },
      { line: 4, prompt: 'p2', responses: ['c2', 'r2'], choice: 'A' },
    ]);
    expect(preview.errors).toEqual([
      { line: 3, reason: expect.stringMatching(/^invalid JSON/) },
      { line: 5, reason: 'rejected: missing' },
    ]);
    expect(preview.linesRead).toBe(6);
  });

  it('keeps a complete last line without a line end, and honours an override', () => {
    const preview = previewHead(`${good(1)}\n${good(2)}`, 'trl-implicit');
    expect(preview.linesRead).toBe(2);
    expect(preview.format).toBe('trl-implicit');
    expect(preview.reason).toMatch(/^trl-implicit: given \(auto-detection says trl: /);
    expect(preview.errors.map((e) => e.line)).toEqual([1, 2]);
  });

  it('says so when it cannot tell', () => {
    const preview = previewHead('{"a":1}\n', 'auto');
    expect(preview.format).toBeNull();
    expect(preview.records).toEqual([]);
    expect(preview.reason).toMatch(/not a known format/);
  });
});

describe('splitLines', () => {
  it('drops only the empty piece after a final line end', () => {
    expect(splitLines('a\nb\n')).toEqual(['a', 'b']);
    expect(splitLines('a\n\nb')).toEqual(['a', '', 'b']);
  });
});
