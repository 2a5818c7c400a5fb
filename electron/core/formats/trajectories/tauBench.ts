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
// The item's reference is what the task expects: info.task.actions and info.task.outputs (expectedOf).
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
    reference: task ? expectedOf(task) : null,
    run: without(record, ['traj']),
    outcome: typeof reward === 'number' ? (reward >= SUCCESS_MIN ? 'success' : reward > 0 ? 'partial' : 'failure') : null,
    where: 'traj',
  });
}

/** At most this many expected actions and outputs are listed in the reference (the rest are counted). */
const LISTED = 50;
/** A longer action or output is cut to this many characters there. */
const LINE = 500;

/**
 * The item's reference, the "Expected outcome" beside the turns: the actions the task expects
 * (info.task.actions, each {name, kwargs}) and the outputs its answer must hold (info.task.outputs); null
 * when it names neither. Not the instruction: the simulated user says it in the trajectory already.
 */
function expectedOf(task: Record<string, unknown>): string | null {
  const actions = Array.isArray(task.actions) ? task.actions.filter((a): a is Record<string, unknown> => isPlainObject(a) && typeof a.name === 'string') : [];
  const outputs = Array.isArray(task.outputs) ? task.outputs.filter((o): o is string => typeof o === 'string') : [];
  const list = (title: string, lines: string[]) =>
    `${title}:\n\n${lines.slice(0, LISTED).map((l) => `- \`${(l.length > LINE ? `${l.slice(0, LINE)}…` : l).replace(/`/g, "'")}\``).join('\n')}${lines.length > LISTED ? `\n- … ${lines.length - LISTED} more` : ''}`;
  const parts = [
    actions.length ? list('Expected actions', actions.map((a) => `${a.name as string}(${JSON.stringify(a.kwargs ?? {})})`)) : '',
    outputs.length ? list('Expected outputs', outputs) : '',
  ].filter(Boolean);
  return parts.length ? parts.join('\n\n') : null;
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
