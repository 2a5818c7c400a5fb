// What the session-log formats share (claude-code, codex-cli): a file is one session, one line one event.
// Each line is read on its own into messages (a partial record), and the file's lines come together as one
// item of one run; a session longer than recordMaxBytes (limits.ts) is refused whole, with the bound, never cut.
import type { ChatMessage } from '../../../../../shared/domain';
import { formatBytes, limit, limitEnvName } from '../../../base/limits';
import { RecordError, type ParsedRecord } from '../../types';
import { runRecord, type Json } from '../common';

/** One line's messages, waiting for the rest of the session. */
export function lineRecord(format: string, messages: ChatMessage[]): ParsedRecord {
  return { draft: { externalId: null, prompt: '', responses: [{ content: messages, model: null, steps: null }], reference: null, metadata: { session_line: format } }, preference: null };
}

/** The session's lines as one item; `about` reads the session's id and model from its messages. */
export function sessionRecord(format: string, rows: ParsedRecord[], fallbackPrompt: string, about: (messages: ChatMessage[]) => { id: string | null; model: string | null }): ParsedRecord {
  const messages = rows.flatMap((r) => r.draft.responses[0]!.content as ChatMessage[]);
  const size = Buffer.byteLength(JSON.stringify(messages));
  const max = limit('recordMaxBytes');
  if (size > max)
    throw new RecordError(`the session is ${formatBytes(size)}, more than ${formatBytes(max)}, the most one item may hold (recordMaxBytes; ${limitEnvName('recordMaxBytes')} raises it): it is refused whole, not cut`);
  const { id, model } = about(messages);
  return runRecord({ format, externalId: id, messages, fallbackPrompt, model, reference: null, run: {} as Json, outcome: null, where: 'session' });
}
