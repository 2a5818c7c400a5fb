// A process model scores a trajectory turn by turn (issue 14, AgentPRM style): the steps are the agent
// turns (their canonical text, shared/trajectory.ts), and the text the model reads puts each turn's tag
// right after its action, with the tool results after the tag, so the score of turn k sees the task and
// the history up to turn k (earlier actions and their results) and nothing of what followed. One score per
// turn comes back, lined up with the step screen's steps.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { prelabelsForItem, scoreProjectInline } from '../../electron/core/scorer';
import { inputHash, processResponse, type ScoringInput } from '../../electron/core/scorer/inputs';
import { ArbiterService } from '../../electron/core/service/index';
import type { Db } from '../../electron/core/store/db';
import type { ChatMessage } from '../../shared/domain';
import { turnSteps } from '../../shared/trajectory';
import { makeDb, tempDir, writeModelFolder } from './helpers';

const open: Db[] = [];
afterEach(() => {
  while (open.length) open.pop()!.close();
});

const TASK = 'add two plus two';
const MESSAGES = [
  { role: 'assistant', content: 'first we add', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'add', arguments: { a: 2, b: 2 } } }] },
  { role: 'tool', tool_call_id: 'c1', name: 'add', content: 'four' },
  { role: 'user', content: 'check it' },
  { role: 'assistant', content: 'we check', tool_calls: [{ id: 'c2', type: 'function', function: { name: 'check', arguments: '{"n": 4}' } }] },
  { role: 'tool', tool_call_id: 'c2', name: 'check', content: 'yes good' },
  { role: 'assistant', content: 'so the answer is four' },
] as unknown as ChatMessage[];
const PROC = { separatorToken: '<extra_0>', stepSuffix: '<extra_0>', stepJoin: '\n' };

describe('a process model reads a trajectory turn by turn', () => {
  it('puts each turn after the history before it, and its own results after its tag', () => {
    const steps = turnSteps(MESSAGES);
    const input: ScoringInput = { prompt: TASK, response: MESSAGES, steps, segmentation: 'auto' };
    const { text, stepCount } = processResponse(input, PROC);
    expect(stepCount).toBe(3);
    const parts = text.split('<extra_0>');
    expect(parts).toHaveLength(4);
    // Before turn 1's tag: its action only. Before turn 2's: turn 1's result and the user's words, then turn 2's action.
    expect(parts[0]).toBe('first we add\nadd({"a":2,"b":2})');
    expect(parts[1]).toBe('\n\ntool (add): four\nuser: check it\n\nwe check\ncheck({"n":4})');
    expect(parts[2]).toBe('\n\ntool (check): yes good\nso the answer is four');
    expect(parts[3]).toBe('');
    // The same steps as plain text (not a trajectory) are read as the steps alone, and cached apart.
    const plain: ScoringInput = { prompt: TASK, response: steps.join('\n'), steps, segmentation: 'auto' };
    expect(processResponse(plain, PROC).text).toBe(steps.map((s) => `${s}<extra_0>`).join('\n'));
    expect(inputHash('process', input)).not.toBe(inputHash('process', { ...input, response: [...MESSAGES] as ChatMessage[], steps: [...steps.slice(0, 2), `${steps[2]} (cut)`] }));
  });

  it('gives one score per turn, lined up with the step screen', async () => {
    const folder = writeModelFolder(join(tempDir(), 'prm'), {
      kind: 'prm',
      manifest: { kind: 'process', input: { system_prompt: 'we check' }, process: { step_separator: '<extra_0>', score: { type: 'class_probability', class_index: 1 } } },
    });
    const { db, dbPath, projectId, itemIds } = makeDb([{ prompt: TASK, responses: [{ content: MESSAGES, steps: turnSteps(MESSAGES) }] }]);
    open.push(db);
    const result = await scoreProjectInline({ dbPath, project: 'p', dirs: [folder.dir], provider: 'cpu' });
    expect(result.models[0]).toMatchObject({ scored: 1, unscorable: 0 });
    const service = new ArbiterService(db, { dbPath, transport: 'http', version: 'test', defaultAnnotator: 'ann' });
    const view = await service.dispatch('getSteps', { project: 'p', annotator: 'ann', itemId: itemIds[0]! });
    expect(view.responses[0]!.steps).toEqual(turnSteps(MESSAGES));
    const scores = prelabelsForItem(db, projectId, itemIds[0]!).models[0]!.steps?.[0];
    expect(scores).toHaveLength(3);
    expect(scores!.every((s) => typeof s === 'number' && s >= 0 && s <= 1)).toBe(true);
  });
});
