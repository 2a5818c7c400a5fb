// Claude Code session logs (`claude-code`): ~/.claude/projects/<project>/<session id>.jsonl, one event a
// line, one file one session. Anthropic publishes no schema; the fields are those Claude Code writes
// (documented from real sessions by simonw/claude-code-transcripts and neilberkman/ccrider,
// research/schema.md): {"type": "user" | "assistant", "uuid", "parentUuid", "sessionId", "timestamp",
// "cwd", "version", "gitBranch", "isSidechain", "userType", "message": an Anthropic message
// (./anthropicBlocks.ts; an assistant's carries "id", "model", "usage"), "toolUseResult", "requestId"};
// other lines ("summary", "system", "queue-operation", …) have no "message".
//
// Import: the lines of one file (one session) are one item of
// one run. Each line's message becomes its trajectory messages (arbiter.id: the line's uuid, so turn ids
// are the file's own); a line without a message is a system message holding its summary or content, kept
// whole. A sidechain line (a subagent, isSidechain) is spoken by the agent "sidechain" (or its agentId); the
// main session's by none. The line's other fields stay with its first message and are written back.
// A session longer than recordMaxBytes (limits.ts) is refused whole, with the bound, never cut.
import type { ChatMessage, ItemRecord } from '../../../../../shared/domain';
import { arbiterFields, type TrajectoryMessage } from '../../../../../shared/trajectory';
import type { ParsedRecord } from '../../types';
import { isPlainObject } from '../../validate';
import { runMessages, without, type Json } from '../common';
import { fromAnthropic, toAnthropic } from './anthropicBlocks';
import type { TraceDescriptor } from './descriptor';
import { lineRecord, sessionRecord } from './sessionLog';

const NAME = 'claude-code';

function lineMessages(line: Json): TrajectoryMessage[] {
  const id = typeof line.uuid === 'string' ? line.uuid : undefined;
  const agent = line.isSidechain === true ? (typeof line.agentId === 'string' ? line.agentId : 'sidechain') : undefined;
  const fields = { ...(id ? { id } : {}), ...(agent ? { agent } : {}) };
  if (!isPlainObject(line.message)) {
    const text = typeof line.summary === 'string' ? line.summary : typeof line.content === 'string' ? line.content : '';
    return [{ role: 'system', content: text, arbiter: { ...fields, kind: 'observation', rest: { line } } }];
  }
  return fromAnthropic(line.message, 'message', { line: without(line, ['message']) }, fields);
}

function parse(line: Json): ParsedRecord {
  return lineRecord(NAME, lineMessages(line));
}

function merge(rows: ParsedRecord[]): ParsedRecord {
  return sessionRecord(NAME, rows, 'Claude Code session', (messages) => {
    const field = (key: 'line' | 'message', name: string) => messages.map((m) => (arbiterFields(m).rest?.[key] as Json | undefined)?.[name]).find((v) => typeof v === 'string') as string | undefined;
    return { id: field('line', 'sessionId') ?? null, model: field('message', 'model') ?? null };
  });
}

/** A message that is a whole line without an Anthropic message (a summary): the line itself. */
const wholeLine = (m: ChatMessage): Json | null => {
  const rest = arbiterFields(m).rest;
  return rest && isPlainObject(rest.line) && !('message' in rest) && !('block' in rest) ? rest.line : null;
};

function encode(item: ItemRecord): Json[] {
  return item.responses.flatMap((_, i) => {
    const lines: Json[] = [];
    let pending: ChatMessage[] = [];
    const flush = () => {
      for (const { message, first } of toAnthropic(pending)) {
        // Another format's message: the fields a session line needs, made up (the session is the item).
        const uuid = `${item.uid.slice(0, 8)}-${i}-${lines.length}`;
        const made = { parentUuid: lines.length ? `${item.uid.slice(0, 8)}-${i}-${lines.length - 1}` : null, sessionId: item.externalId ?? item.uid, type: message.role, uuid };
        lines.push({ ...(isPlainObject(first.line) ? first.line : made), message });
      }
      pending = [];
    };
    for (const m of runMessages(item, i)) {
      const line = wholeLine(m);
      if (!line) {
        pending.push(m);
        continue;
      }
      flush();
      lines.push(line);
    }
    flush();
    return lines;
  });
}

export const claudeCode: TraceDescriptor = {
  name: NAME,
  title: 'Claude Code session logs (one session a file)',
  doc: {
    source: 'Claude Code ~/.claude/projects/PROJECT/SESSION.jsonl (no published schema; fields as Claude Code writes them): one file is one session, one item',
    keeps: 'every line as it was; turn ids are the lines\' uuids; a subagent\'s (sidechain) turns keep its name',
    loses: 'a file of several sessions reads as one; an item\'s several runs are written one after another (one session)',
  },
  detect: (r) =>
    (typeof r.sessionId === 'string' && typeof r.type === 'string' && 'uuid' in r && 'parentUuid' in r) || (r.type === 'summary' && typeof r.leafUuid === 'string')
      ? '"type", "uuid", "parentUuid" and "sessionId" on each line, or a "summary" line (a Claude Code session log)'
      : null,
  parse,
  // One file is one session (a summary line has no sessionId): every line one item.
  group: { key: () => 'session', merge },
  encode,
};
