import { describe, expect, it } from 'vitest';
import { extractPromptMessages, extractPromptText } from '../../../electron/core/formats';
import { parseTrl, parseTrlChat, parseTrlChatImplicit, parseTrlImplicit } from '../../../electron/core/formats/pairs/trl';

// Expected values are what TRL's extract_prompt returns for the same input (Python, code points).
describe('extractPromptText (TRL extract_prompt, strings)', () => {
  it.each([
    ['The sky is blue.', 'The sky is green.', 'The sky is', ' blue.', ' green.'],
    ['Q: 2+2?\nA: 4', 'Q: 2+2?\nA: 5', 'Q: 2+2?\nA:', ' 4', ' 5'],
    ['abcX', 'abcY', 'abc', 'X', 'Y'],
    // one is a prefix of the other: TRL's loop ends on the shorter one's last character
    ['Say hi: hello', 'Say hi: hello there', 'Say hi: hell', 'o', 'o there'],
    ['same', 'same', 'sam', 'e', 'e'],
    // code points, not UTF-16 units: the emoji differ in their second unit only
    ['Emoji: 😀 yes', 'Emoji: 😃 no', 'Emoji:', ' 😀 yes', ' 😃 no'],
    ['ab😀', 'ab😀c', 'ab', '😀', '😀c'],
    // nothing shared
    ['yes', 'no', '', 'yes', 'no'],
  ])('%j / %j', (chosen, rejected, prompt, c, r) => {
    const split = extractPromptText(chosen, rejected);
    expect(split).toEqual({ prompt, chosen: c, rejected: r });
    expect(split.prompt + split.chosen).toBe(chosen);
    expect(split.prompt + split.rejected).toBe(rejected);
  });

  it('only backs up one space', () => {
    expect(extractPromptText('a  b', 'a  c')).toEqual({ prompt: 'a ', chosen: ' b', rejected: ' c' });
  });
});

describe('extractPromptMessages (TRL extract_prompt, conversations)', () => {
  const u = { role: 'user', content: 'Hi' };
  const a1 = { role: 'assistant', content: 'Hello!' };
  const a2 = { role: 'assistant', content: 'Go away.' };
  it('is the element-wise common prefix', () => {
    expect(extractPromptMessages([u, a1], [u, a2])).toEqual({ prompt: [u], chosen: [a1], rejected: [a2] });
  });
  it('compares whole messages, key order aside', () => {
    expect(extractPromptMessages([{ content: 'Hi', role: 'user' }, a1], [u, a2]).prompt).toEqual([{ content: 'Hi', role: 'user' }]);
    const named = { ...u, name: 'x' } as typeof u;
    expect(extractPromptMessages([named, a1], [u, a2]).prompt).toEqual([]);
  });
  it('ends on the shorter list’s last message when one contains the other', () => {
    expect(extractPromptMessages([u, a1], [u, a1, u, a2])).toEqual({ prompt: [u], chosen: [a1], rejected: [a1, u, a2] });
  });
});

describe('TRL parsers', () => {
  it('trl keeps extra fields as metadata and id as the external id', () => {
    const parsed = parseTrl({ prompt: 'p', chosen: 'c', rejected: 'r', id: 7, source: 'x' });
    expect(parsed.preference).toBe('A');
    expect(parsed.draft).toEqual({
      externalId: '7',
      prompt: 'p',
      responses: [
        { content: 'c', model: null, steps: null },
        { content: 'r', model: null, steps: null },
      ],
      reference: null,
      metadata: { source: 'x' },
    });
  });

  it.each([
    [{ prompt: 'p', chosen: 'c' }, 'rejected: missing'],
    [{ prompt: 'p', chosen: '', rejected: 'r' }, 'chosen: empty text'],
    [{ prompt: ['p'], chosen: 'c', rejected: 'r' }, 'prompt: expected a string, got a list'],
    [{ prompt: 'p', chosen: 'c', rejected: 'r', chosen_model: 3 }, 'chosen_model: expected a string or null, got number'],
  ])('trl refuses %j: %s', (record, reason) => {
    expect(() => parseTrl(record as Record<string, unknown>)).toThrow(reason);
  });

  it('trl-implicit refuses records with nothing in common or with a prompt', () => {
    expect(() => parseTrlImplicit({ chosen: 'yes', rejected: 'no' })).toThrow(/no common beginning/);
    expect(() => parseTrlImplicit({ prompt: 'p', chosen: 'p a', rejected: 'p b' })).toThrow(/prompt: present/);
  });

  it('trl-chat names the bad message', () => {
    expect(() => parseTrlChat({ prompt: [{ role: 'user' }], chosen: [{ role: 'assistant', content: 'a' }], rejected: [{ role: 'assistant', content: 'b' }] })).toThrow(
      'prompt[0].content: missing',
    );
    expect(() => parseTrlChat({ prompt: [], chosen: [{ role: 'assistant', content: 'a' }], rejected: [{ role: 'assistant', content: 'b' }] })).toThrow(
      'prompt: empty message list',
    );
    expect(() => parseTrlChat({ prompt: 'text', chosen: [{ role: 'assistant', content: 'a' }], rejected: [{ role: 'assistant', content: 'b' }] })).toThrow(
      'prompt: expected a list, got string',
    );
  });

  it('trl-chat keeps extra message keys and their order', () => {
    const prompt = [{ content: 'Hi', role: 'user', name: 'bob' }];
    const parsed = parseTrlChat({ prompt, chosen: [{ role: 'assistant', content: 'a' }], rejected: [{ role: 'assistant', content: 'b' }] });
    expect(JSON.stringify(parsed.draft.prompt)).toBe(JSON.stringify(prompt));
  });

  it('trl-chat-implicit splits the conversation', () => {
    const u = { role: 'user', content: 'Q' };
    const parsed = parseTrlChatImplicit({ chosen: [u, { role: 'assistant', content: 'good' }], rejected: [u, { role: 'assistant', content: 'bad' }] });
    expect(parsed.draft.prompt).toEqual([u]);
    expect(parsed.draft.responses.map((r) => r.content)).toEqual([[{ role: 'assistant', content: 'good' }], [{ role: 'assistant', content: 'bad' }]]);
    expect(() => parseTrlChatImplicit({ chosen: [{ role: 'user', content: 'a' }], rejected: [{ role: 'user', content: 'b' }] })).toThrow(/first messages differ/);
  });
});
