import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectFormat } from '../../../electron/core/formats';
import { detectCutLine } from '../../../electron/core/formats/import/detect';

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
    ['ultrafeedback.jsonl', 'ultrafeedback', 'UltraFeedback, raw'],
    ['ultrafeedback-binarized.jsonl', 'ultrafeedback-binarized', 'UltraFeedback, binarized'],
    ['helpsteer2.jsonl', 'helpsteer2', 'HelpSteer2 ratings rows'],
    ['helpsteer2-preference.jsonl', 'helpsteer2-preference', 'HelpSteer2 preference'],
    ['helpsteer3.jsonl', 'helpsteer3', 'HelpSteer3 preference'],
    ['rar.jsonl', 'rar', 'Rubrics as Rewards'],
  ])('%s → %s, with a one-line reason', (file, format, why) => {
    const all = records(file);
    const result = detectFormat(all);
    expect(result.format).toBe(format);
    expect(result.reason).toContain(why);
    expect(result.reason).toContain(`(${all.length} of ${all.length} record`);
    expect(result.reason).not.toContain('\n');
  });

  it('tells every fixture by its first records, each as the format it is named after', () => {
    const files = readdirSync(FIXTURES).filter((f) => f.endsWith('.jsonl') && f !== 'malformed.jsonl');
    expect(files.length).toBeGreaterThanOrEqual(13);
    for (const file of files) expect([file, detectFormat(records(file).slice(0, 20)).format]).toEqual([file, file.replace(/\.jsonl$/, '')]);
  });

  it('tells the rating formats from a line cut before its end, by the fields it begins with', () => {
    const cut = (record: Record<string, unknown>) => detectCutLine({ line: 1, text: JSON.stringify(record).slice(0, -20) });
    expect(cut({ source: 'x', instruction: 'Name a prime.', models: ['a'], completions: [{ response: 'x'.repeat(40) }] }).format).toBe('ultrafeedback');
    expect(cut({ domain: 'general', context: [{ role: 'user', content: 'hi' }], response1: 'a', response2: 'b'.repeat(40) }).format).toBe('helpsteer3');
    expect(cut({ question: 'q', reference_answer: 'r', rubric: [{ title: 't', description: 'd'.repeat(40), weight: 1 }] }).format).toBe('rar');
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
