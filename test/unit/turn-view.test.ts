// The turn cards' model (renderer/src/features/trajectories): what a call and a result are shown as.
import { describe, expect, it } from 'vitest';
import { ansiSegments } from '../../renderer/src/features/trajectories/ansi';
import { diffCounts, diffOf } from '../../renderer/src/features/trajectories/Blocks';
import { foldedHead, isLong, prettyJson, sizeWords, trajectoryCounts, trajectoryView, utf8Bytes } from '../../renderer/src/features/trajectories/turnModel';
import type { ChatMessage } from '../../shared/domain';

const call = (name: string, args: unknown, id = 'c1') => ({ role: 'assistant', content: '', tool_calls: [{ id, type: 'function', function: { name, arguments: args } }] }) as unknown as ChatMessage;
const tool = (content: string, id = 'c1', extra = {}) => ({ role: 'tool', tool_call_id: id, content, ...extra }) as unknown as ChatMessage;

describe('turn cards', () => {
  it('finds code edits: old_str / new_str, a patch, SWE-agent str_replace_editor and edit N:M', () => {
    const [a, b, c, d] = trajectoryView([
      call('str_replace_editor', { command: 'str_replace', path: '/x.py', old_str: 'a = 1\n', new_str: 'a = 2\n' }, 'a'),
      tool('ok', 'a'),
      call('apply_patch', JSON.stringify({ patch: '--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\n+new\n' }), 'b'),
      tool('ok', 'b'),
      call('str_replace_editor', { action: "str_replace_editor str_replace /r/f.py --old_str 'x = int(v)' --new_str 'x = round(v)'" }, 'c'),
      tool('edited', 'c'),
      call('edit', { action: 'edit 10:11\n    return 1\nend_of_edit' }, 'd'),
      tool('done', 'd'),
    ]).turns;
    expect(a!.calls[0]!.edit).toEqual({ kind: 'replace', path: '/x.py', before: 'a = 1\n', after: 'a = 2\n' });
    expect(diffOf(a!.calls[0]!.edit!).map((l) => `${l.sign}${l.text}`)).toEqual(['-a = 1', '+a = 2']);
    expect(diffOf(b!.calls[0]!.edit!).filter((l) => l.sign === '+' || l.sign === '-').map((l) => `${l.sign}${l.text}`)).toEqual(['-old', '+new']);
    expect(c!.calls[0]!.edit).toEqual({ kind: 'replace', path: '/r/f.py', before: 'x = int(v)', after: 'x = round(v)' });
    expect(d!.calls[0]!.edit).toEqual({ kind: 'lines', path: null, range: 'lines 10–11', replaced: 2, text: '    return 1' });
  });

  it('shows shell commands and their output as a terminal, with the exit code; a non-zero exit is an error', () => {
    const [run, swe, other] = trajectoryView([
      call('bash', { command: 'pytest -q' }, 'a'),
      tool('1 failed\n[Command finished with exit code 1]', 'a'),
      call('ls', { action: 'ls -la' }, 'b'),
      tool('total 0', 'b'),
      call('get_weather', '{"city": "Paris"}', 'c'),
      tool('{"t": 14}', 'c', { exit_code: 0 }),
    ]).turns;
    expect(run!.calls[0]!.command).toBe('pytest -q');
    expect(run!.results[0]).toMatchObject({ terminal: true, exitCode: 1, error: true });
    expect(run!.error).toBe(true);
    expect(swe!.calls[0]!.command).toBe('ls -la');
    expect(swe!.results[0]!.terminal).toBe(true);
    expect(other!.calls[0]).toMatchObject({ command: null, edit: null, argsAreJson: true, args: '{\n  "city": "Paris"\n}' });
    expect(other!.results[0]).toMatchObject({ terminal: false, exitCode: 0, error: false });
  });

  it('writes arguments as a person would: short lists of plain values on one line', () => {
    expect(prettyJson({ path: '/a', view_range: [1, 40], opts: { deep: { x: 1 } } })).toBe('{\n  "path": "/a",\n  "view_range": [1, 40],\n  "opts": {\n    "deep": {"x": 1}\n  }\n}');
  });

  it('folds a long result to its head, and says its size', () => {
    const text = Array.from({ length: 84 }, (_, i) => `line ${i} ${'x'.repeat(20)}`).join('\n');
    expect(isLong(text, 84)).toBe(true);
    expect(foldedHead(text).split('\n')).toHaveLength(6);
    expect(sizeWords(utf8Bytes(text), 84)).toBe('2.4 kB, 84 lines');
    expect(utf8Bytes('é€😀'.repeat(2000))).toBe(new TextEncoder().encode('é€😀'.repeat(2000)).length);
  });

  it('draws ANSI colours as classes and drops every other escape and control character', () => {
    const segments = ansiSegments('\u001b[1;31mFAIL\u001b[0m ok\u001b[2K\u001b]0;title\u0007\u0008 done');
    expect(segments).toEqual([
      { text: 'FAIL', cls: 'text-red-400', bold: true },
      { text: ' ok', cls: '', bold: false },
      { text: ' done', cls: '', bold: false },
    ]);
  });
});

// Issue 20, item 21: what a new user read wrong on a τ-bench and a SWE-agent trajectory.
describe('trajectory counts and line edits, in words', () => {
  it("counts a column's turns and tool calls with the singular for one", () => {
    const one = trajectoryView([call('get_order', { id: 1 }), tool('{"status": "pending"}'), { role: 'assistant', content: 'Done.' } as ChatMessage]);
    expect(trajectoryCounts(one)).toBe('2 turns · 1 tool call');
    const none = trajectoryView([{ role: 'assistant', content: 'Hello.' } as ChatMessage]);
    expect(trajectoryCounts(none)).toBe('1 turn · 0 tool calls');
  });

  it('counts an `edit 11:11` of one line by one line as +1 −1, and an insert as +N −0', () => {
    const [edit, insert] = trajectoryView([
      call('edit', { action: 'edit 11:11\n    return a + b\nend_of_edit' }, 'e'),
      tool('ok', 'e'),
      call('str_replace_editor', { action: "str_replace_editor insert /r/f.py --insert_line 3 --new_str 'x = 1'" }, 'i'),
      tool('ok', 'i'),
    ]).turns;
    expect(diffCounts(edit!.calls[0]!.edit!)).toEqual({ added: 1, removed: 1 });
    expect(diffCounts(insert!.calls[0]!.edit!)).toEqual({ added: 1, removed: 0 });
    const wider = trajectoryView([call('edit', { action: 'edit 10:14\n    return 1\nend_of_edit' })]).turns[0]!;
    expect(diffCounts(wider.calls[0]!.edit!)).toEqual({ added: 1, removed: 5 });
  });
});
