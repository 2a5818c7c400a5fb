// The trajectory formats (docs/formats.md, "Trajectories"; the model: shared/trajectory.ts): their
// detection, readers, how their records group into items, and writers. Nothing here touches the store (the
// import worker loads the readers); the export pass is ./exportPass.ts. One module per format:
// openaiTools.ts, sweAgent.ts, openhands.ts, tauBench.ts, arbiterTrajectory.ts; common.ts holds what they share.
// The trace formats (issue 21, section 5) are one descriptor module each in ./traces/, plugged in here.
// GUI agents' formats (mind2web.ts, onlineMind2web.ts) are read only: they have readers and groups, no writers.
import type { ParsedRecord, RecordParser } from '../types';
import { isPlainObject } from '../validate';
import type { ItemRecord } from '../../../../shared/domain';
import { TRAJECTORY_FORMATS, type GuiTrajectoryFormat, type TraceFormat, type TrajectoryFormat } from '../../../../shared/formatNames';
import { ARBITER_TRAJECTORY, encodeArbiterTrajectory, parseArbiterTrajectory } from './arbiterTrajectory';
import { mergeRuns, type Json } from './common';
import { encodeOpenaiTools, OPENAI_TOOLS, openaiToolsKey, parseOpenaiTools } from './openaiTools';
import { encodeOpenhands, mergeOpenhands, OPENHANDS, openhandsKey, parseOpenhands } from './openhands';
import { encodeSweAgent, parseSweAgent, SWE_AGENT, sweAgentKey } from './sweAgent';
import { encodeTauBench, parseTauBench, TAU_BENCH, tauBenchKey } from './tauBench';
import { MIND2WEB, mergeMind2web, mind2webKey, parseMind2web } from './mind2web';
import { mergeOnlineMind2web, ONLINE_MIND2WEB, onlineMind2webKey, parseOnlineMind2web } from './onlineMind2web';
import { TRACE_DESCRIPTORS } from './traces';

export const TRAJECTORY_PARSERS: Record<TrajectoryFormat | GuiTrajectoryFormat, RecordParser> = {
  'openai-tools': parseOpenaiTools,
  'swe-agent': parseSweAgent,
  openhands: parseOpenhands,
  'tau-bench': parseTauBench,
  'arbiter-trajectory': parseArbiterTrajectory,
  mind2web: parseMind2web,
  'online-mind2web': parseOnlineMind2web,
  ...(Object.fromEntries(TRACE_DESCRIPTORS.map((d) => [d.name, d.parse])) as Record<TraceFormat, RecordParser>),
};

export interface TrajectoryGroup {
  key(record: Json): string;
  merge(rows: ParsedRecord[]): ParsedRecord;
  /** Records of one key anywhere in the file (not only one after another) are one item. */
  anyOrder?: boolean;
}

/** How runs of one task come together (arbiter-trajectory lines hold their runs already). */
export const TRAJECTORY_GROUPS: Partial<Record<TrajectoryFormat | GuiTrajectoryFormat, TrajectoryGroup>> = {
  'openai-tools': { key: openaiToolsKey, merge: mergeRuns },
  'swe-agent': { key: sweAgentKey, merge: mergeRuns },
  openhands: { key: openhandsKey, merge: mergeOpenhands },
  // run.py writes every task of trial 0, then of trial 1…
  'tau-bench': { key: tauBenchKey, merge: mergeRuns, anyOrder: true },
  // Multimodal-Mind2Web lists a task's steps one row after another.
  mind2web: { key: mind2webKey, merge: mergeMind2web },
  'online-mind2web': { key: onlineMind2webKey, merge: mergeOnlineMind2web },
  ...Object.fromEntries(TRACE_DESCRIPTORS.filter((d) => d.group).map((d) => [d.name, d.group!])),
};

export const ENCODERS: Record<TrajectoryFormat, (item: ItemRecord, outcomes: (string | null)[]) => Json[]> = {
  'openai-tools': encodeOpenaiTools,
  'swe-agent': encodeSweAgent,
  openhands: encodeOpenhands,
  'tau-bench': encodeTauBench,
  'arbiter-trajectory': encodeArbiterTrajectory,
  ...(Object.fromEntries(TRACE_DESCRIPTORS.map((d) => [d.name, d.encode])) as Record<TraceFormat, (item: ItemRecord) => Json[]>),
};

export function isTrajectoryFormat(format: string): format is TrajectoryFormat {
  return (TRAJECTORY_FORMATS as readonly string[]).includes(format);
}

const isList = Array.isArray;
const hasToolTurns = (messages: unknown) => isList(messages) && messages.some((m) => isPlainObject(m) && (m.role === 'tool' || (isList(m.tool_calls) && m.tool_calls.length > 0)));

/** Detection: a trajectory format and why, or null when the record is none of them. */
export function classifyTrajectory(record: Json): { format: TrajectoryFormat | GuiTrajectoryFormat; why: string } | null {
  if ('action_uid' in record && ('operation' in record || 'annotation_id' in record || 'raw_html' in record))
    return { format: MIND2WEB, why: '"action_uid", "operation" and "annotation_id" (a Mind2Web action step, one row per step)' };
  if (isList(record.actions) && 'annotation_id' in record && 'confirmed_task' in record)
    return { format: MIND2WEB, why: '"annotation_id", "confirmed_task" and its "actions" (a Mind2Web task)' };
  if (isList(record.action_history) && ('task' in record || 'confirmed_task' in record))
    return { format: ONLINE_MIND2WEB, why: '"task" and an "action_history" (an Online-Mind2Web result)' };
  if (isList(record.trajectory) && ('history' in record || 'info' in record))
    return { format: SWE_AGENT, why: 'a "trajectory" of steps (thought / action / observation) with "info" and "history" (a SWE-agent .traj)' };
  if (isList(record.traj) && 'task_id' in record) return { format: TAU_BENCH, why: '"task_id", "reward" and a "traj" of messages (τ-bench results)' };
  if (isList(record.history) && 'instance_id' in record) return { format: OPENHANDS, why: '"instance_id" and a "history" of events (an OpenHands evaluation output)' };
  if (typeof record.source === 'string' && ((typeof record.action === 'string' && 'args' in record) || (typeof record.observation === 'string' && ('extras' in record || 'content' in record))))
    return { format: OPENHANDS, why: 'events with "source" and "action"/"args" or "observation"/"content" (an OpenHands event list)' };
  for (const trace of TRACE_DESCRIPTORS) {
    const why = trace.detect(record);
    if (why) return { format: trace.name, why };
  }
  if (isList(record.trajectories) && 'task' in record) return { format: ARBITER_TRAJECTORY, why: 'a "task" and its "trajectories" (Arbiter trajectories)' };
  if (hasToolTurns(record.messages) || (isList(record.messages) && isList(record.tools)))
    return { format: OPENAI_TOOLS, why: '"messages" with "tool_calls" and "tool" replies (an OpenAI / TRL tool-calling chat)' };
  if ('chosen' in record && 'rejected' in record && (hasToolTurns(record.chosen) || hasToolTurns(record.rejected)))
    return { format: OPENAI_TOOLS, why: '"chosen" and "rejected" chats with "tool_calls" (a TRL tool-calling preference pair)' };
  return null;
}

