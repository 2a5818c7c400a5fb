// τ-bench results (`tau-bench`): run.py writes a JSON array of EnvRunResult (sierra-research/tau-bench,
// tau_bench/types.py): {"task_id": int, "reward": float, "info": {"task": {"user_id", "actions",
// "instruction", "outputs"}, "source", "user_cost", "reward_info", …}, "traj": [messages], "trial": int}.
// `traj` is the agent's chat as litellm gives it (tau_bench/agents/tool_calling_agent.py): the system
// prompt (the policy wiki), the simulated user's first message, then assistant messages with `tool_calls`
// (arguments a JSON string) answered by {"role": "tool", "tool_call_id", "name", "content"}, and the
// simulated user's replies as user messages.
//
// Import: the trials of one task (the same task_id, anywhere in the file: run.py writes trial after trial)
// are one item; the messages every trial begins with (the wiki, and the first user message when the trials
// share it) are the prompt. The reward is the source's outcome: 1 is success, 0 (or less) failure, between them partial;
// the reward itself, info and trial stay with the run and are written back.
// info.task.instruction (what the simulated user was told to get done) is the item's reference.
import type { ItemRecord } from '../../../../shared/domain';
import { plainMessages } from '../../../../shared/trajectory';
import { RecordError, type ParsedRecord } from '../types';
import { isPlainObject } from '../validate';
import { checkMessages, describe, runFields, runMessages, runRecord, without, type Json } from './common';

export const TAU_BENCH = 'tau-bench';
/** τ-bench's own success band (tau_bench/types.py REWARD_SUCCESS_MIN). */
const SUCCESS_MIN = 1 - 1e-6;

export function parseTauBench(record: Json): ParsedRecord {
  const { task_id: taskId, reward, info } = record;
  if (!(typeof taskId === 'number' || typeof taskId === 'string')) throw new RecordError(`task_id: ${taskId === undefined ? 'missing' : `expected a number, got ${describe(taskId)}`}`);
  if (!(reward === undefined || reward === null || typeof reward === 'number')) throw new RecordError(`reward: expected a number, got ${describe(reward)}`);
  const messages = checkMessages(record.traj, 'traj');
  const task = isPlainObject(info) && isPlainObject(info.task) ? info.task : null;
  return runRecord({
    format: TAU_BENCH,
    externalId: String(taskId),
    messages,
    fallbackPrompt: `τ-bench task ${String(taskId)}`,
    model: null,
    reference: task && typeof task.instruction === 'string' ? task.instruction : null,
    run: without(record, ['traj']),
    outcome: typeof reward === 'number' ? (reward >= SUCCESS_MIN ? 'success' : reward > 0 ? 'partial' : 'failure') : null,
    where: 'traj',
  });
}

/** The trials of one task are one item, wherever they are in the file. */
export function tauBenchKey(record: Json): string {
  return `task ${String(record.task_id)}`;
}

/** One result per trajectory of the item. */
export function encodeTauBench(item: ItemRecord): Json[] {
  return item.responses.map((_, i) => {
    const run = runFields(item, i, TAU_BENCH);
    const traj = plainMessages(runMessages(item, i));
    if (Object.keys(run).length) return { ...run, traj };
    return { task_id: item.externalId ?? String(item.seq), reward: null, info: {}, traj, trial: i };
  });
}
