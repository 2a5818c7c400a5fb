import { describe, expect, it } from 'vitest';
import { displayText, parseTranscriptPrompt, promptText, renderTurns, responseText, toChat } from '../../../electron/core/formats/content';

describe('shape conversion', () => {
  it('text → chat', () => {
    expect(toChat('hi', 'user')).toEqual([{ role: 'user', content: 'hi' }]);
    expect(toChat('ok', 'assistant')).toEqual([{ role: 'assistant', content: 'ok' }]);
    const list = [{ role: 'user', content: 'x' }];
    expect(toChat(list, 'user')).toBe(list);
  });

  it('chat → text: one user message is its content, a conversation is a transcript', () => {
    expect(promptText('plain')).toEqual({ text: 'plain', mode: 'text' });
    expect(promptText([{ role: 'user', content: 'Q?' }])).toEqual({ text: 'Q?', mode: 'text' });
    expect(
      promptText([
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Q?' },
      ]),
    ).toEqual({ text: '\n\nSystem: Be brief.\n\nHuman: Q?\n\nAssistant:', mode: 'transcript' });
    expect(
      promptText([
        { role: 'user', content: 'Q?' },
        { role: 'assistant', content: 'The answer is' },
      ]),
    ).toEqual({ text: '\n\nHuman: Q?\n\nAssistant: The answer is', mode: 'continued' });
  });

  it('responses: after a transcript they start with a space; several messages are flattened', () => {
    expect(responseText('A', false)).toEqual({ text: 'A', flattened: false });
    expect(responseText([{ role: 'assistant', content: 'A' }], true)).toEqual({ text: ' A', flattened: false });
    expect(
      responseText(
        [
          { role: 'assistant', content: 'A' },
          { role: 'user', content: 'B' },
          { role: 'assistant', content: 'C' },
        ],
        false,
      ),
    ).toEqual({ text: 'A\n\nHuman: B\n\nAssistant: C', flattened: true });
  });

  it('transcripts parse back into the same messages', () => {
    const messages = [
      { role: 'user', content: 'A' },
      { role: 'assistant', content: 'B' },
      { role: 'user', content: 'C' },
    ];
    const text = `${renderTurns(messages)}\n\nAssistant:`;
    expect(parseTranscriptPrompt(text)).toEqual(messages);
    expect(parseTranscriptPrompt('Human: x\n\nAssistant:')).toBeNull();
  });

  it('previews', () => {
    expect(displayText('x')).toBe('x');
    expect(
      displayText([
        { role: 'user', content: 'a' },
        { role: 'assistant', content: 'b' },
      ]),
    ).toBe('user: a\n\nassistant: b');
  });
});
