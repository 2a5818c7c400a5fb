// SWE-agent trajectories (`swe-agent`): a `.traj` file is one JSON object (SWE-agent/SWE-agent,
// sweagent/types.py: AgentRunResult, TrajectoryStep, HistoryItem, AgentInfo):
//   {"trajectory": [{"response", "thought", "action", "observation", "execution_time", "state", "query",
//     "extra_info"}], "history": [{"role", "content", "message_type": "thought"|"action"|"observation",
//     "agent", "is_demo", "thought", "action", "tool_calls", "tool_call_ids", …}], "info": {"exit_status",
//     "submission", "model_stats", …}, "replay_config", "environment"}
// Arbiter reads a .traj file whole (one record), and also JSON Lines of such objects.
//
// Import: the task is the leading system / user messages of `history` that are not demonstrations (the
// system prompt and the issue); step k of `trajectory` is agent turn k: an assistant message whose content
// is the step's `thought` and whose one tool call is the step's `action` (name: the action's first word,
// arguments: {"action": the whole action}), answered by a tool message holding the `observation`. Where
// the model called functions (SWE-agent's function calling), `history` holds its calls: when history has
// one assistant message per step, each with the step's action, step k's calls are that message's
// `tool_calls`, exactly (their names and arguments, as the model sent them). A step
// with no action is an assistant message and, if it has one, its observation. The step's other fields
// (response, state, query, execution_time, extra_info…) stay on the assistant message (arbiter.rest); the
// run's other fields (history, info, replay_config, environment…) stay with the run. `info.resolved`
// (true / false), where an evaluation added it, is the source's outcome; an `exit_status` other than
// "submitted" (exit_cost, exit_format, exit_error, …: the agent stopped without submitting) is a failure.
import type { ChatMessage, ItemRecord } from '../../../../shared/domain';
import { argumentsText, arbiterFields, messageContentText, plainMessage, trajectoryTurns, type ToolCall, type TrajectoryMessage } from '../../../../shared/trajectory';
import { RecordError, type ParsedRecord } from '../types';
import { isPlainObject } from '../validate';
import { checkContent, describe, runFields, runMessages, runRecord, without, type Json, type Outcome } from './common';

export const SWE_AGENT = 'swe-agent';
const STEP_FIELDS = ['thought', 'action', 'observation'] as const;

function outcome(info: unknown): Outcome | null {
  if (!isPlainObject(info)) return null;
  if (typeof info.resolved === 'boolean') return info.resolved ? 'success' : 'failure';
  if (typeof info.exit_status === 'string' && info.exit_status !== 'submitted' && info.exit_status.length) return 'failure';
  return null;
}

function taskMessages(history: unknown): ChatMessage[] {
  if (!Array.isArray(history)) return [];
  const task: ChatMessage[] = [];
  for (const [i, h] of history.entries()) {
    if (!isPlainObject(h) || h.is_demo === true) continue;
    if (h.role !== 'system' && h.role !== 'user') break;
    checkContent(h.content, `history[${i}].content`);
    task.push({ role: h.role, content: (h.content ?? '') as ChatMessage['content'] });
  }
  return task;
}

/** The first word of an action: the tool it calls (`str_replace_editor view …` → str_replace_editor). */
export function actionName(action: string): string {
  return action.trim().split(/\s+/, 1)[0] ?? '';
}

/** The function calls of each step, from history (see the file's head), or null where history does not have them. */
function historyCalls(history: unknown, steps: Json[]): (ToolCall[] | null)[] {
  const none = steps.map(() => null);
  if (!Array.isArray(history)) return none;
  const actions = history.filter((h): h is Json => isPlainObject(h) && h.is_demo !== true && h.role === 'assistant');
  if (actions.length !== steps.length || actions.some((h, k) => h.action !== steps[k]!.action)) return none;
  return actions.map((h) => {
    const calls = h.tool_calls;
    const ok = Array.isArray(calls) && calls.length > 0 && calls.every((c) => isPlainObject(c) && isPlainObject(c.function) && typeof c.function.name === 'string' && (typeof c.function.arguments === 'string' || isPlainObject(c.function.arguments)));
    return ok ? (calls as ToolCall[]) : null;
  });
}

export function parseSweAgent(record: Json): ParsedRecord {
  const steps = record.trajectory;
  if (!Array.isArray(steps)) throw new RecordError(`trajectory: ${steps === undefined ? 'missing' : `expected a list of steps, got ${describe(steps)}`}`);
  if (steps.length === 0) throw new RecordError('trajectory: no steps, so there is nothing to judge');
  steps.forEach((step, k) => {
    const where = `trajectory[${k}]`;
    if (!isPlainObject(step)) throw new RecordError(`${where}: expected a step object, got ${describe(step)}`);
    for (const f of STEP_FIELDS) if (step[f] !== undefined && typeof step[f] !== 'string') throw new RecordError(`${where}.${f}: expected text, got ${describe(step[f])}`);
  });
  const calls = historyCalls(record.history, steps as Json[]);
  const messages: ChatMessage[] = [...taskMessages(record.history)];
  (steps as Json[]).forEach((step, k) => {
    const action = (step.action as string | undefined) ?? '';
    const called = calls[k];
    // With the model's own calls the action is not theirs to give back: it stays with the step.
    const taken = called ? STEP_FIELDS.filter((f) => f !== 'action') : [...STEP_FIELDS];
    const from = taken.filter((f) => f in step).join(',');
    const callId = called ? (typeof called[0]!.id === 'string' ? called[0]!.id : `swe-step-${k + 1}`) : `swe-step-${k + 1}`;
    const name = called ? called[0]!.function.name : actionName(action);
    const assistant: TrajectoryMessage = { role: 'assistant', content: (step.thought as string | undefined) ?? '' };
    if (called) assistant.tool_calls = called;
    else if (action.trim()) assistant.tool_calls = [{ id: callId, type: 'function', function: { name, arguments: { action } } }];
    assistant.arbiter = { rest: without(step, taken), from };
    messages.push(assistant);
    if (typeof step.observation === 'string') {
      const result: TrajectoryMessage = assistant.tool_calls
        ? { role: 'tool', tool_call_id: callId, name, content: step.observation }
        : { role: 'tool', name: 'observation', content: step.observation, arbiter: { kind: 'observation' } };
      messages.push(result);
    }
  });
  const info = record.info;
  return runRecord({
    format: SWE_AGENT,
    externalId: typeof record.instance_id === 'string' ? record.instance_id : null,
    messages,
    fallbackPrompt: typeof record.instance_id === 'string' ? record.instance_id : 'SWE-agent run',
    model: null,
    reference: null,
    run: without(record, ['trajectory']),
    outcome: outcome(info),
    where: 'trajectory',
  });
}

/** Consecutive runs of one task (the same instance id, else the same task messages) are one item. */
export function sweAgentKey(record: Json): string {
  if (typeof record.instance_id === 'string') return `id ${record.instance_id}`;
  return `task ${JSON.stringify(taskMessages(record.history))}`;
}

/** The action string of a turn's calls: SWE-agent's own (arguments {"action"}), else `name {arguments}` a line each. */
function actionOf(calls: ReturnType<typeof trajectoryTurns>[number]['calls']): string {
  if (calls.length === 1 && isPlainObject(calls[0]!.parsed) && typeof calls[0]!.parsed.action === 'string' && Object.keys(calls[0]!.parsed).length === 1) return calls[0]!.parsed.action;
  return calls.map((c) => `${c.name} ${argumentsText(c.arguments)}`).join('\n');
}

/**
 * One .traj object per trajectory of the item (a line each). A run imported from SWE-agent comes back as
 * it was; any other gets a `history` too (the task, then each turn's assistant message with its calls and
 * each result), so that its function calls come back when the file is imported again.
 */
export function encodeSweAgent(item: ItemRecord): Json[] {
  return item.responses.map((_, i) => {
    const run = runFields(item, i, SWE_AGENT);
    const messages = runMessages(item, i);
    const turns = trajectoryTurns(messages);
    const trajectory = turns.map((turn) => {
      const m = messages[turn.action]!;
      const fields = arbiterFields(m);
      const results = turn.results.map((j) => messageContentText(messages[j]!.content as string | null));
      const action = actionOf(turn.calls);
      const step: Json = { ...(fields.rest ?? {}) };
      const from = fields.from !== undefined ? fields.from.split(',') : [...STEP_FIELDS];
      if (from.includes('thought')) step.thought = messageContentText(m.content as string | null);
      if (from.includes('action')) step.action = action;
      if (from.includes('observation')) step.observation = results.join('\n');
      if (fields.rest === undefined) step.response = messageContentText(m.content as string | null) + (action ? `\n\n\`\`\`\n${action}\n\`\`\`` : '');
      return step;
    });
    if (Object.keys(run).length) return { ...run, trajectory };
    const first = turns[0]?.action ?? messages.length;
    const history: Json[] = messages.slice(0, first).map((m) => ({ role: m.role, content: m.content, agent: 'main', message_type: m.role === 'system' ? 'system_prompt' : 'observation' }));
    turns.forEach((turn, k) => {
      const m = plainMessage(messages[turn.action]!) as TrajectoryMessage;
      const step = trajectory[k]!;
      history.push({ role: 'assistant', content: step.thought, thought: step.thought, action: step.action, agent: 'main', message_type: 'action', ...(m.tool_calls ? { tool_calls: m.tool_calls } : {}) });
      for (const j of turn.results.filter((j) => j > turn.action)) {
        const r = messages[j]!;
        history.push({ role: r.role === 'tool' ? 'tool' : 'user', content: messageContentText(r.content as string | null), agent: 'main', message_type: 'observation', ...((r as TrajectoryMessage).tool_call_id ? { tool_call_ids: [(r as TrajectoryMessage).tool_call_id] } : {}) });
      }
    });
    return { trajectory, history, info: {} };
  });
}
