// Arbiter's own trajectory shape (`arbiter-trajectory`), for agent runs no other format carries. One task
// a line, with one or more runs:
//   {"id": "task-7", "task": "text" | [messages], "reference": "…", "metadata": {…},
//    "trajectories": [{"id": "run-1", "model": "m", "outcome": "success"|"partial"|"failure",
//      "messages": [{"role": "assistant", "content": "…", "tool_calls": [{"id", "type": "function",
//        "function": {"name", "arguments"}}], "arbiter": {"id": "turn-1", "agent": "planner", "kind": "thought"}},
//       {"role": "tool", "tool_call_id", "name", "content", "arbiter": {"kind": "error"}}, …]}]}
// Messages are shared/trajectory.ts's model as it is stored: OpenAI's fields, and Arbiter's own in `arbiter`.
// A turn's id is its assistant message's arbiter.id; the export writes one for every turn (the id Arbiter
// derived where the file gave none), so the ids stay the same through any number of round trips.
// `outcome` is the source's outcome for the run. A run's other fields and the line's stay as they are.
import type { ChatMessage, ItemRecord } from '../../../../shared/domain';
import { arbiterFields, trajectoryTurns, type TrajectoryMessage } from '../../../../shared/trajectory';
import { RecordError, type ParsedRecord } from '../types';
import { isPlainObject } from '../validate';
import { checkMessages, describe, itemOfRuns, runFields, trajectoryMetadata, without, type Json, type Outcome } from './common';

export const ARBITER_TRAJECTORY = 'arbiter-trajectory';
const OUTCOMES = ['success', 'partial', 'failure'];

export function parseArbiterTrajectory(record: Json): ParsedRecord {
  const { task, trajectories, reference, metadata } = record;
  const prompt = typeof task === 'string' && task.length ? task : Array.isArray(task) && task.length ? checkMessages(task, 'task') : null;
  if (prompt === null) throw new RecordError(`task: ${task === undefined ? 'missing' : 'expected text or a non-empty list of messages'}`);
  if (!Array.isArray(trajectories) || trajectories.length === 0) throw new RecordError(`trajectories: ${trajectories === undefined ? 'missing' : 'expected a non-empty list of runs'}`);
  if (!(reference === undefined || reference === null || typeof reference === 'string')) throw new RecordError(`reference: expected text, got ${describe(reference)}`);
  if (!(metadata === undefined || metadata === null || isPlainObject(metadata))) throw new RecordError(`metadata: expected an object, got ${describe(metadata)}`);
  const id = typeof record.id === 'string' || typeof record.id === 'number' ? String(record.id) : null;
  const runs = trajectories.map((run, i) => {
    const where = `trajectories[${i}]`;
    if (!isPlainObject(run)) throw new RecordError(`${where}: expected a run object, got ${describe(run)}`);
    if (!(run.outcome === undefined || run.outcome === null || OUTCOMES.includes(run.outcome as string))) throw new RecordError(`${where}.outcome: expected one of ${OUTCOMES.join(', ')}, got ${JSON.stringify(run.outcome)}`);
    if (!(run.model === undefined || run.model === null || typeof run.model === 'string')) throw new RecordError(`${where}.model: expected text, got ${describe(run.model)}`);
    const content = checkMessages(run.messages, `${where}.messages`);
    content.forEach((m, j) => {
      if (m.arbiter !== undefined && !isPlainObject(m.arbiter)) throw new RecordError(`${where}.messages[${j}].arbiter: expected an object, got ${describe(m.arbiter)}`);
      const turnId = m.arbiter?.id;
      if (!(turnId === undefined || typeof turnId === 'string')) throw new RecordError(`${where}.messages[${j}].arbiter.id: expected text, got ${describe(turnId)}`);
    });
    const ids = trajectoryTurns(content).map((t) => t.id);
    const twice = ids.find((t, k) => ids.indexOf(t) !== k);
    if (twice !== undefined) throw new RecordError(`${where}.messages: two turns have the id "${twice}"; each turn needs its own`);
    return { content, model: (run.model as string | null | undefined) ?? null, run: without(run, ['messages', 'model', 'outcome']), outcome: (run.outcome as Outcome | null | undefined) ?? null };
  });
  return itemOfRuns({
    format: ARBITER_TRAJECTORY,
    externalId: id,
    prompt,
    reference: (reference as string | null | undefined) ?? null,
    runs,
    record: without(record, ['id', 'task', 'trajectories', 'reference', 'metadata']),
    metadata: (metadata as Json | null | undefined) ?? {},
  });
}

/** One line per item: its task and every run, each turn with its id. */
export function encodeArbiterTrajectory(item: ItemRecord, outcomes: (string | null)[] = []): Json[] {
  const meta = trajectoryMetadata(item);
  const own = meta?.format === ARBITER_TRAJECTORY;
  const record = own && isPlainObject(meta.record) ? meta.record : {};
  const metadata = without(item.metadata, ['trajectory']);
  const trajectories = item.responses.map((r, i) => {
    const content: ChatMessage[] = typeof r.content === 'string' ? [{ role: 'assistant', content: r.content }] : r.content;
    const messages = content.map((m) => ({ ...m })) as TrajectoryMessage[];
    for (const turn of trajectoryTurns(content)) {
      const m = messages[turn.action]!;
      if (arbiterFields(m).id === undefined) m.arbiter = { ...arbiterFields(m), id: turn.id };
    }
    const run: Json = { ...runFields(item, i, ARBITER_TRAJECTORY) };
    if (r.model !== null) run.model = r.model;
    const outcome = outcomes[i];
    if (outcome) run.outcome = outcome;
    run.messages = messages;
    return run;
  });
  const line: Json = { id: item.externalId ?? String(item.seq), task: item.prompt, ...(item.reference !== null ? { reference: item.reference } : {}), ...record, trajectories };
  if (Object.keys(metadata).length) line.metadata = metadata;
  return [line];
}
