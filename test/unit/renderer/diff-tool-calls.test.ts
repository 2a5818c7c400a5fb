// The diff view's text of a tool-calling run: tool names and arguments (pretty JSON, one argument a
// line) are compared as well as the messages, so a swap of arguments or a call to another tool is marked.
import { describe, expect, it } from 'vitest';
import type { Content } from '../../../shared/domain';
import { diffSource } from '../../../renderer/src/features/compare/diffSource';
import { wordDiff } from '../../../renderer/src/features/compare/wordDiff';

const run = (name: string, args: unknown) =>
  [
    { role: 'assistant', content: 'Moving it.', tool_calls: [{ id: 'c1', type: 'function', function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args) } }] },
    { role: 'tool', tool_call_id: 'c1', name, content: 'ok' },
  ] as unknown as Content;

const marked = (left: Content, right: Content) => {
  const d = wordDiff(diffSource(left), diffSource(right))!;
  const only = (side: typeof d.left) => side.filter((s) => s.only).map((s) => s.text);
  return { left: only(d.left), right: only(d.right) };
};

describe('the diff of tool calls', () => {
  it('writes each call as name({pretty arguments}) after the message text', () => {
    expect(diffSource(run('transfer', { from: 'alice', to: 'bob' }))).toBe('Moving it.\ntransfer({\n  "from": "alice",\n  "to": "bob"\n})\n\nok');
    // Arguments that are not JSON are shown as written.
    expect(diffSource(run('bash', 'ls -la'))).toContain('bash(ls -la)');
    expect(diffSource('plain text')).toBe('plain text');
  });

  it('marks an argument swap on both lines of both sides', () => {
    const m = marked(run('transfer', { from: 'alice', to: 'bob', amount: 5 }), run('transfer', { from: 'bob', to: 'alice', amount: 5 }));
    expect(m.left).toEqual(['alice', 'bob']);
    expect(m.right).toEqual(['bob', 'alice']);
  });

  it('marks a call to another tool', () => {
    const m = marked(run('read_file', { path: 'a.py' }), run('delete_file', { path: 'a.py' }));
    expect(m.left.join(' ')).toContain('read_file');
    expect(m.right.join(' ')).toContain('delete_file');
  });
});
