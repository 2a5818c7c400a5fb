import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectFormat } from '../../../electron/core/formats';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'formats');
const records = (name: string) =>
  readFileSync(join(FIXTURES, name), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as unknown);

describe('detectFormat', () => {
  it.each([
    ['arbiter.jsonl', 'arbiter', 'a "responses" list'],
    ['trl.jsonl', 'trl', 'string "prompt", "chosen" and "rejected"'],
    ['trl-implicit.jsonl', 'trl-implicit', 'no "prompt"'],
    ['trl-chat.jsonl', 'trl-chat', 'message-list "prompt"'],
    ['trl-chat-implicit.jsonl', 'trl-chat-implicit', 'message-list "chosen"'],
    ['hh-rlhf.jsonl', 'hh-rlhf', 'transcripts'],
    ['rewardbench.jsonl', 'rewardbench', '"chosen_model"'],
  ])('%s → %s, with a one-line reason', (file, format, why) => {
    const all = records(file);
    const result = detectFormat(all);
    expect(result.format).toBe(format);
    expect(result.reason).toContain(why);
    expect(result.reason).toContain(`(${all.length} of ${all.length} record`);
    expect(result.reason).not.toContain('\n');
  });

  it('goes with the majority and says how many records disagree', () => {
    const result = detectFormat([
      { prompt: 'a', chosen: 'b', rejected: 'c' },
      { prompt: 'a', chosen: 'b', rejected: 'd' },
      { chosen: 'x', rejected: 'y' },
      'not an object',
    ]);
    expect(result.format).toBe('trl');
    expect(result.reason).toBe('trl: string "prompt", "chosen" and "rejected" (2 of 4 records; 1 look like trl-implicit)');
  });

  it('knows a labels file is not an items file', () => {
    const result = detectFormat([{ id: 'x', item: 'q-1', annotator: 'alice', choice: 'A', created_at: '2026-01-01T00:00:00Z' }]);
    expect(result.format).toBeNull();
    expect(result.reason).toMatch(/labels import/);
  });

  it('says which fields it did not recognise', () => {
    expect(detectFormat([{ question: 'q', answer: 'a' }])).toEqual({ format: null, reason: 'not a known format: no known format has the fields "question", "answer"' });
    expect(detectFormat([]).format).toBeNull();
  });
});
