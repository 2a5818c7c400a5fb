// shared/trajectory.ts: how a message list becomes agent turns (the steps of a trajectory), their ids,
// kinds and canonical text, and what trainers get (Arbiter's fields stripped).
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../shared/domain';
import { historyText, isTrajectory, plainMessages, sameArguments, trajectoryTurns, turnSteps } from '../../shared/trajectory';

const call = (id: string | undefined, name: string, args: unknown) => ({ ...(id ? { id } : {}), type: 'function', function: { name, arguments: args } });
const m = (message: Record<string, unknown>) => message as unknown as ChatMessage;

describe('trajectoryTurns', () => {
  it('an assistant message and the tool results answering its calls (by tool_call_id) are one turn', () => {
    const messages = [
      m({ role: 'assistant', content: 'Look both up.', tool_calls: [call('a', 'search', { q: 'Lyon' }), call('b', 'search', '{"q": "Marseille"}')] }),
      m({ role: 'tool', tool_call_id: 'b', name: 'search', content: 'Marseille 870k' }),
      m({ role: 'tool', tool_call_id: 'a', name: 'search', content: 'Lyon 522k' }),
      m({ role: 'assistant', content: 'Marseille is larger.' }),
    ];
    const turns = trajectoryTurns(messages);
    expect(turns).toHaveLength(2);
    expect(turns[0]).toMatchObject({ index: 0, action: 0, context: [], results: [1, 2], messages: [0, 1, 2], kinds: ['thought', 'tool_call', 'tool_result'], error: false });
    expect(turns[0]!.calls.map((c) => [c.id, c.result])).toEqual([
      ['a', 2],
      ['b', 1],
    ]);
    // A JSON-string argument reads as the object it encodes.
    expect(turns[0]!.calls[1]!.parsed).toEqual({ q: 'Marseille' });
    expect(turns[0]!.text).toBe('Look both up.\nsearch({"q":"Lyon"})\nsearch({"q":"Marseille"})');
    expect(turns[1]).toMatchObject({ action: 3, kinds: ['message'], text: 'Marseille is larger.' });
    expect(turnSteps(messages)).toEqual(turns.map((t) => t.text));
  });

  it('a tool reply without an id (TRL) answers the first open call; null content is no text', () => {
    const turns = trajectoryTurns([m({ role: 'assistant', content: null, tool_calls: [call(undefined, 'control_light', { room: 'hall' })] }), m({ role: 'tool', name: 'control_light', content: 'on' })]);
    expect(turns[0]!.calls[0]!.result).toBe(1);
    expect(turns[0]!.kinds).toEqual(['tool_call', 'tool_result']);
    expect(turns[0]!.text).toBe('control_light({"room":"hall"})');
  });

  it('user messages are the next turn’s context (a simulated user), and after the last turn join it', () => {
    const messages = [
      m({ role: 'user', content: 'Cancel my order.' }),
      m({ role: 'assistant', content: 'Which order?' }),
      m({ role: 'user', content: '#W1' }),
      m({ role: 'assistant', content: null, tool_calls: [call('c', 'cancel', '{"id":"#W1"}')] }),
      m({ role: 'tool', tool_call_id: 'c', name: 'cancel', content: 'Error: not found', arbiter: { kind: 'error' } }),
      m({ role: 'user', content: '###STOP###' }),
    ];
    const turns = trajectoryTurns(messages);
    expect(turns.map((t) => [t.context, t.action, t.results])).toEqual([
      [[0], 1, []],
      [[2], 3, [4, 5]],
    ]);
    expect(turns[1]!.error).toBe(true);
    expect(turns[1]!.kinds).toEqual(['tool_call', 'error', 'user']);
  });

  it('ids: the file’s own, else position and content, the same on every call and different for a repeated turn', () => {
    const same = m({ role: 'assistant', content: 'Retry.' });
    const messages = [m({ role: 'assistant', content: 'Plan.', arbiter: { id: 'plan-1', agent: 'planner' } }), same, same, m({ role: 'assistant', content: 'Other.' })];
    const ids = trajectoryTurns(messages).map((t) => t.id);
    expect(ids[0]).toBe('plan-1');
    expect(ids[1]).toMatch(/^t2-[0-9a-f]{8}$/);
    expect(ids[2]).toMatch(/^t3-[0-9a-f]{8}$/);
    // The same turn twice: the same content hash, told apart by its position.
    expect(ids[1]!.slice(3)).toBe(ids[2]!.slice(3));
    expect(ids[3]!.slice(3)).not.toBe(ids[2]!.slice(3));
    expect(trajectoryTurns(JSON.parse(JSON.stringify(messages)) as ChatMessage[]).map((t) => t.id)).toEqual(ids);
    expect(trajectoryTurns(messages)[0]!.agent).toBe('planner');
  });

  it('derived ids are a contract: the same bytes give these ids on every machine and in every version', () => {
    // Step labels name turns by index; files and screens name them by id. An id Arbiter derived is never stored,
    // so changing how it is derived would rename every turn of every project: this test pins it.
    const messages = [
      m({ role: 'user', content: 'List /.' }),
      m({ role: 'assistant', content: null, tool_calls: [call('c1', 'ls', '{"path": "/"}')] }),
      m({ role: 'tool', tool_call_id: 'c1', name: 'ls', content: 'etc usr' }),
      m({ role: 'assistant', content: 'There are 2 entries.' }),
    ];
    expect(trajectoryTurns(messages).map((t) => t.id)).toEqual(['t1-62a2ab11', 't2-5a0bf2fc']);
  });

  it('no assistant message: no turns', () => {
    expect(trajectoryTurns([m({ role: 'user', content: 'hi' }), m({ role: 'tool', content: 'x' })])).toEqual([]);
  });
});

describe('the rest of the model', () => {
  it('isTrajectory: a message list with a tool call, a tool message or Arbiter’s fields', () => {
    expect(isTrajectory('text')).toBe(false);
    expect(isTrajectory([m({ role: 'assistant', content: 'plain chat' })])).toBe(false);
    expect(isTrajectory([m({ role: 'assistant', content: null, tool_calls: [call('a', 'f', {})] })])).toBe(true);
    expect(isTrajectory([m({ role: 'assistant', content: 'x', arbiter: { id: 't' } })])).toBe(true);
  });

  it('sameArguments compares as JSON: a string and the object it encodes, keys in any order', () => {
    expect(sameArguments('{"b": 2, "a": [1, {"c": 3}]}', { a: [1, { c: 3 }], b: 2 })).toBe(true);
    expect(sameArguments({ a: 1 }, { a: '1' })).toBe(false);
  });

  it('plainMessages drops the arbiter field and keeps every other key, "__proto__" included', () => {
    const message = JSON.parse('{"role":"tool","content":"x","tool_call_id":"a","__proto__":{"k":1},"arbiter":{"kind":"error"}}') as ChatMessage;
    const [plain] = plainMessages([message]);
    expect(Object.keys(plain!)).toEqual(['role', 'content', 'tool_call_id', '__proto__']);
    expect(JSON.stringify(plain)).toBe('{"role":"tool","content":"x","tool_call_id":"a","__proto__":{"k":1}}');
  });

  it('historyText: the task and every message before the turn’s action', () => {
    const messages = [m({ role: 'assistant', content: 'a', tool_calls: [call('a', 'ls', { p: '/' })] }), m({ role: 'tool', tool_call_id: 'a', name: 'ls', content: 'etc' }), m({ role: 'assistant', content: 'done' })];
    const turn = trajectoryTurns(messages)[1]!;
    expect(historyText('List /.', messages, turn)).toBe('user: List /.\n\nassistant: a\nls({"p":"/"})\n\ntool (ls): etc');
  });
});
