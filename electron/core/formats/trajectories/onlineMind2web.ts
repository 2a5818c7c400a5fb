// Online-Mind2Web results (`online-mind2web`, import only): a web agent's run of one task, as the benchmark's
// evaluation reads it (OSU-NLP-Group/Online-Mind2Web, src/run.py): a folder per task holding `result.json`
// {"task_id", "task", "action_history": [action text…], "thoughts" (optional, one per action),
// "final_result_response" (optional), …} and `trajectory/` with a screenshot per step
// (`<i>_full_screenshot.png`). Arbiter reads one result.json (a whole-file JSON object) or JSON Lines of
// them. A file cannot list a folder, so the screenshots are the record's `screenshots` (paths, relative
// to the file's folder or the images folder given), else `trajectory/<i>_full_screenshot.png` for each
// action i (0-based): screenshot i is the page action i is taken on; one more is the page at the end.
//
// Import: the task is the prompt; runs of one task_id (one after another) are one item. Per action: a user
// message with its screenshot, then an assistant message (content: the thought, where there is one) with
// one tool call (id `step-<i+1>`, name the operation of SeeAct's "<a> Help -> CLICK" in lower case or the
// function of "click_element(index=3)", arguments {"action": the action text}). A screenshot past the
// last action, and the final_result_response, make a last turn: the page at the end, then the agent's
// answer. The record's other fields stay with the run.
import type { ChatMessage } from '../../../../shared/domain';
import type { TrajectoryMessage } from '../../../../shared/trajectory';
import { RecordError, type ParsedRecord } from '../types';
import { describe, itemOfRuns, without, type Json, type TrajectoryMetadata } from './common';
import { screenshotPart } from './mind2web';

export const ONLINE_MIND2WEB = 'online-mind2web';

function texts(value: unknown, where: string, required: boolean): string[] {
  if (value === undefined || value === null) {
    if (required) throw new RecordError(`${where}: missing (the list of the agent's actions as text)`);
    return [];
  }
  if (!Array.isArray(value)) throw new RecordError(`${where}: expected a list of texts, got ${describe(value)}`);
  return value.map((v, i) => {
    if (typeof v !== 'string') throw new RecordError(`${where}[${i}]: expected text, got ${describe(v)}`);
    return v;
  });
}

/** The tool an action text calls: SeeAct's "<a> Help -> CLICK" → click; "click_element(index=3)" → click_element. */
export function actionName(action: string): string {
  const arrow = /->\s*([A-Za-z][A-Za-z ]*?)\s*(?::|$)/.exec(action);
  if (arrow) return arrow[1]!.trim().toLowerCase().replace(/\s+/g, '_');
  const call = /^\s*([A-Za-z_][\w.]*)\s*\(/.exec(action);
  if (call) return call[1]!.replace(/^.*\./, '');
  return 'action';
}

export function parseOnlineMind2web(record: Json): ParsedRecord {
  const task = record.task ?? record.confirmed_task;
  if (typeof task !== 'string' || !task.trim()) throw new RecordError(`task: ${task === undefined ? 'missing' : 'expected the task as text'}`);
  const id = record.task_id;
  if (!(id === undefined || typeof id === 'string' || typeof id === 'number')) throw new RecordError(`task_id: expected text, got ${describe(id)}`);
  const actions = texts(record.action_history, 'action_history', true);
  const thoughts = texts(record.thoughts, 'thoughts', false);
  const listed = record.screenshots !== undefined;
  const shots = listed ? texts(record.screenshots, 'screenshots', false) : actions.map((_, i) => `trajectory/${i}_full_screenshot.png`);
  const answer = record.final_result_response;
  if (!(answer === undefined || answer === null || typeof answer === 'string')) throw new RecordError(`final_result_response: expected text, got ${describe(answer)}`);
  if (!actions.length && !answer) throw new RecordError('action_history: no actions and no final_result_response, so there is nothing to judge');

  const screen = (i: number): ChatMessage[] => {
    const path = shots[i];
    if (path === undefined) return [];
    const part = screenshotPart(path, 'screenshots', `screenshots[${i}]`);
    return part ? [{ role: 'user', content: [part], arbiter: { kind: 'observation', from: `screenshots[${i}]` } } as TrajectoryMessage] : [];
  };
  const content: ChatMessage[] = [];
  actions.forEach((action, i) => {
    content.push(...screen(i));
    const message: TrajectoryMessage = {
      role: 'assistant',
      content: thoughts[i] ?? '',
      tool_calls: [{ id: `step-${i + 1}`, type: 'function', function: { name: actionName(action), arguments: { action } } }],
      arbiter: { from: thoughts[i] !== undefined ? 'thoughts' : 'action_history' },
    };
    content.push(message);
  });
  for (let i = actions.length; i < shots.length; i++) content.push(...screen(i));
  if (typeof answer === 'string' && answer) content.push({ role: 'assistant', content: answer, arbiter: { from: 'final_result_response' } } as TrajectoryMessage);
  return itemOfRuns({
    format: ONLINE_MIND2WEB,
    externalId: id === undefined ? null : String(id),
    prompt: [{ role: 'user', content: task }],
    reference: null,
    runs: [{ content, model: null, run: without(record, ['task', 'confirmed_task', 'action_history', 'thoughts', 'final_result_response', ...(listed ? ['screenshots'] : [])]), outcome: null }],
  });
}

/** Runs of one task (the same task_id, else the same task text) one after another are one item. */
export function onlineMind2webKey(record: Json): string {
  return record.task_id !== undefined ? `id ${String(record.task_id)}` : `task ${JSON.stringify(record.task ?? record.confirmed_task)}`;
}

/** The runs of one task, each parsed on its own, as one item whose prompt is the task. */
export function mergeOnlineMind2web(rows: ParsedRecord[]): ParsedRecord {
  const first = rows[0]!;
  if (rows.length === 1) return first;
  return itemOfRuns({
    format: ONLINE_MIND2WEB,
    externalId: first.draft.externalId,
    prompt: first.draft.prompt,
    reference: null,
    runs: rows.flatMap((row) => {
      const meta = row.draft.metadata.trajectory as TrajectoryMetadata;
      return row.draft.responses.map((r, i) => ({ content: r.content as ChatMessage[], model: r.model, run: meta.runs[i] ?? {}, outcome: null }));
    }),
  });
}
