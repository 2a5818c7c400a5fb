import { describe, expect, it } from 'vitest';
import { encodeHhRlhf, parseHhRlhf, splitHh } from '../../../electron/core/formats/pairs/hhRlhf';
import { ExportNotes, type DecidedPair } from '../../../electron/core/formats/types';
import type { Content } from '../../../shared/domain';

const pair = (prompt: Content, chosen: Content, rejected: Content): DecidedPair => ({
  item: { id: 1, uid: 'u', externalId: null, seq: 0, prompt, reference: null, metadata: {}, responses: [] },
  prompt,
  chosen: { index: 0, content: chosen, model: null, steps: null },
  rejected: { index: 1, content: rejected, model: null, steps: null },
  margin: null,
});

describe('HH-RLHF', () => {
  it('takes the prompt up to the last shared "\\n\\nAssistant:"', () => {
    expect(splitHh('\n\nHuman: Hi\n\nAssistant: Hello', '\n\nHuman: Hi\n\nAssistant: Help')).toEqual({
      transcript: '\n\nHuman: Hi\n\nAssistant:',
      chosen: 'Hello',
      rejected: 'Help',
    });
  });

  it('a single human turn becomes a string prompt', () => {
    const parsed = parseHhRlhf({ chosen: '\n\nHuman: Hi\n\nAssistant: Hello', rejected: '\n\nHuman: Hi\n\nAssistant: Go away' });
    expect(parsed.draft.prompt).toBe('Hi');
    expect(parsed.draft.responses.map((r) => r.content)).toEqual(['Hello', 'Go away']);
    expect(parsed.preference).toBe('A');
  });

  it('a conversation becomes a message list ending with the human turn', () => {
    const base = '\n\nHuman: A\n\nAssistant: B\n\nHuman: C\n\nAssistant:';
    const parsed = parseHhRlhf({ chosen: `${base} good`, rejected: `${base} bad` });
    expect(parsed.draft.prompt).toEqual([
      { role: 'user', content: 'A' },
      { role: 'assistant', content: 'B' },
      { role: 'user', content: 'C' },
    ]);
    const out = encodeHhRlhf(pair(parsed.draft.prompt, 'good', 'bad'), new ExportNotes());
    expect(out).toEqual({ chosen: `${base} good`, rejected: `${base} bad` });
  });

  it('the shared "\\n\\nAssistant:" must end inside the common prefix', () => {
    // "\n\nAssistant: S" is shared but the next "\n\nAssistant:" is not: the prompt stops at the first.
    const parsed = parseHhRlhf({
      chosen: '\n\nHuman: Q\n\nAssistant: Sure\n\nHuman: ok\n\nAssistant: done',
      rejected: '\n\nHuman: Q\n\nAssistant: Sorry',
    });
    expect(parsed.draft.prompt).toBe('Q');
    expect(parsed.draft.responses[0]!.content).toBe('Sure\n\nHuman: ok\n\nAssistant: done');
    expect(parsed.draft.responses[1]!.content).toBe('Sorry');
  });

  it.each([
    [{ chosen: 'Hi there', rejected: '\n\nHuman: x\n\nAssistant: y' }, 'chosen: does not start with "\\n\\nHuman:"'],
    [{ chosen: '\n\nHuman: a\n\nAssistant: x', rejected: '\n\nHuman: b\n\nAssistant: y' }, 'no shared "\\n\\nAssistant:"'],
    [{ chosen: '\n\nHuman: a\n\nAssistant:', rejected: '\n\nHuman: a\n\nAssistant: y' }, 'chosen: empty text'],
    [{ chosen: 1, rejected: 'x' }, 'chosen: expected a string, got number'],
  ])('refuses %j', (record, reason) => {
    expect(() => parseHhRlhf(record as Record<string, unknown>)).toThrow(reason);
  });

  it('exports a plain prompt as one human turn, and keeps a transcript prompt as it is', () => {
    const notes = new ExportNotes();
    expect(encodeHhRlhf(pair('Hi', 'Hello', 'Go'), notes)).toEqual({ chosen: '\n\nHuman: Hi\n\nAssistant: Hello', rejected: '\n\nHuman: Hi\n\nAssistant: Go' });
    expect(encodeHhRlhf(pair('\n\nHuman: Hi\n\nAssistant:', ' Hello', ' Go'), notes)).toEqual({
      chosen: '\n\nHuman: Hi\n\nAssistant: Hello',
      rejected: '\n\nHuman: Hi\n\nAssistant: Go',
    });
  });
});
