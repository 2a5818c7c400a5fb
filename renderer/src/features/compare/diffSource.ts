// What the diff view (w) compares of a response. Text as it is; a trajectory as its messages' text with
// each tool call written out as `name({pretty JSON arguments})`, one argument a line, so a call to the
// wrong tool or with swapped arguments is marked like any other change (before, only the results and
// the messages were compared, and the argument swap that was the error did not show).
import { contentText, messageText } from '../../../../shared/choices';
import type { Content } from '../../../../shared/domain';
import { isTrajectory, parseArguments, type TrajectoryMessage } from '../../../../shared/trajectory';
import { prettyJson } from '../trajectories/turnModel';

function callText(call: unknown): string | null {
  if (!call || typeof call !== 'object') return null;
  const fn = (call as { function?: unknown }).function;
  if (!fn || typeof fn !== 'object') return null;
  const { name, arguments: args } = fn as { name?: unknown; arguments?: unknown };
  const value = parseArguments(args);
  const written = value === undefined ? String(args ?? '') : prettyJson(value);
  return `${typeof name === 'string' ? name : 'tool'}(${written})`;
}

function messageDiffText(message: TrajectoryMessage): string {
  const parts: string[] = [];
  const text = messageText(message.content ?? '');
  if (text) parts.push(text);
  const calls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
  for (const call of calls) {
    const written = callText(call);
    if (written !== null) parts.push(written);
  }
  return parts.join('\n');
}

export function diffSource(content: Content): string {
  if (!isTrajectory(content)) return contentText(content);
  return content.map(messageDiffText).filter(Boolean).join('\n\n');
}
