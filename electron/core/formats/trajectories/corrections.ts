// Corrected agent turns, the way Potato's trajectory editing exports them (davidjurgens/potato,
// potato/export/trajectory_correction_exporter.py: SFT `{prompt, completion}` and DPO `{prompt, chosen,
// rejected}`, chosen = corrected, rejected = original, unedited corrections left out and counted), but per
// turn rather than per whole trace, in TRL's conversational shapes with a `tools` column:
//   corrections-sft  {"prompt": [task + the trajectory before the turn], "completion": [corrected turn], "tools"}
//   corrections-dpo  {"prompt": [same], "chosen": [corrected turn], "rejected": [the turn as it was], "tools"}
// A corrected turn is one assistant message: a text correction is its content; a corrected tool call
// carries the calls it should have made (arguments as JSON objects) and the text the annotator corrected
// before them, else no text: never the turn's own reasoning, which led to the wrong call. Whose
// corrections: the labels that decide (an adjudication, else --annotator, else every current human label,
// else the file's own); two people's identical corrections of a turn give one line.
import type { ChatMessage } from '../../../../shared/domain';
import { readBody } from '../../../../shared/labelBodies';
import { responseLetter } from '../../../../shared/letters';
import { plural } from '../../../../shared/plural';
import type { StepCorrection } from '../../../../shared/stepJudgement';
import { canonical, type TrajectoryMessage, type Turn } from '../../../../shared/trajectory';
import type { Db } from '../../store/db';
import type { HeadLabel } from '../../store/labels';
import { decidingLabels } from '../base/resolve';
import { isPlainObject } from '../validate';
import { forEachTrajectoryItem, judgedSteps, stepsAreTurns, taskMessages, toolsOf, trainerMessage, turnsOf, type TurnPass, type TurnTally } from './turnCommon';


/** The corrections a label made of one response, by step index (empty when none). */
function correctionsOf(label: HeadLabel, letter: string): [number, StepCorrection][] {
  const all = label.body?.corrections;
  const mine = isPlainObject(all) ? all[letter] : undefined;
  if (!isPlainObject(mine)) return [];
  return Object.entries(mine)
    .map(([k, v]) => [Number(k), v as StepCorrection] as [number, StepCorrection])
    .filter(([k, v]) => Number.isInteger(k) && k >= 0 && (typeof v === 'string' ? v.trim() !== '' : isPlainObject(v) && Array.isArray(v.tool_calls)))
    .sort((a, b) => a[0] - b[0]);
}

/** A message's text, or null when it has none. */
const textOf = (m: ChatMessage | TrajectoryMessage) => (typeof m.content === 'string' && m.content.trim() !== '' ? m.content : null);

/**
 * The turn as it should have been: one assistant message. A corrected call carries the text the annotator
 * corrected before it, else no text: the turn's own text is the reasoning that led to the wrong call ("the
 * test must be wrong; I will edit the test"), and beside the right call it is an incoherent target.
 */
function correctedMessage(original: TrajectoryMessage, correction: StepCorrection): { message: ChatMessage; thought: 'corrected' | 'dropped' | 'none' } {
  if (typeof correction === 'string') return { message: { role: 'assistant', content: correction }, thought: 'none' };
  const corrected = typeof correction.content === 'string' && correction.content.trim() !== '' ? correction.content : null;
  const calls = correction.tool_calls.map((call) => ({ ...(call.id !== undefined ? { id: call.id } : {}), type: 'function', function: { name: call.name, arguments: call.arguments } }));
  const thought = corrected !== null ? 'corrected' : textOf(original) !== null ? 'dropped' : 'none';
  return { message: { role: 'assistant', content: corrected, tool_calls: calls } as ChatMessage, thought };
}

/**
 * What a trainer compares: the text and the calls (names and arguments as JSON), not ids or Arbiter's
 * fields; a corrected call that left the text to drop compares its calls only.
 */
function sameTurn(a: ChatMessage, b: ChatMessage, callsOnly: boolean): boolean {
  const shape = (m: ChatMessage) => {
    const calls = (m as TrajectoryMessage).tool_calls;
    return canonical({ content: callsOnly ? null : textOf(m), calls: Array.isArray(calls) ? calls.map((c) => ({ name: c.function.name, arguments: c.function.arguments })) : [] });
  };
  return shape(a) === shape(b);
}

export async function writeCorrections(db: Db, pass: TurnPass, tally: TurnTally): Promise<void> {
  const dpo = pass.format === 'corrections-dpo';
  let unchanged = 0;
  let repeated = 0;
  let beyond = 0;
  let corrected = 0;
  let dropped = 0;
  let rethought = 0;
  await forEachTrajectoryItem(db, pass, tally, async (item, labels, segmentations) => {
    let wrote = false;
    for (const response of item.responses) {
      const trajectory = turnsOf(response.content);
      if (!trajectory) continue;
      const letter = responseLetter(response.index);
      const deciding = decidingLabels(labels, (l) => correctionsOf(l, letter).length > 0, pass.annotator);
      const seen = new Set<string>();
      for (const label of deciding) {
        const version = readBody('steps', label.body).segmentation?.[letter];
        if (!stepsAreTurns(judgedSteps(segmentations, item, response.index, typeof version === 'number' ? version : null), trajectory.turns)) {
          tally.notTurns++;
          continue;
        }
        for (const [k, correction] of correctionsOf(label, letter)) {
          const turn: Turn | undefined = trajectory.turns[k];
          if (!turn) {
            beyond++;
            continue;
          }
          const original = trainerMessage(trajectory.messages[turn.action]!, tally);
          const { message: fixed, thought } = correctedMessage(original as TrajectoryMessage, correction);
          if (sameTurn(fixed, original, thought === 'dropped')) {
            unchanged++;
            continue;
          }
          const key = `${k}:${canonical(fixed)}`;
          if (seen.has(key)) {
            repeated++;
            continue;
          }
          seen.add(key);
          corrected++;
          if (thought === 'dropped') dropped++;
          if (thought === 'corrected') rethought++;
          const prompt = [...taskMessages(item.prompt, tally), ...trajectory.messages.slice(0, turn.action).map((m) => trainerMessage(m, tally))];
          const tools = toolsOf(item, [response.index], tally);
          const line = dpo ? { prompt, chosen: [fixed], rejected: [original], tools } : { prompt, completion: [fixed], tools };
          const pending = pass.writer.write(line);
          if (pending) await pending;
          wrote = true;
        }
      }
    }
    if (!wrote) pass.skipped.unlabeled++;
  });
  pass.notes.extra.push(`${plural(corrected, 'corrected turn', 'corrected turns')}, one line each: the task and the trajectory before the turn as the prompt, the corrected turn as ${dpo ? 'chosen and the turn as it was as rejected' : 'the completion'}`);
  if (dropped || rethought)
    pass.notes.extra.push(
      `${plural(dropped, 'corrected call was', 'corrected calls were')} written without the turn's original text (the reasoning that led to the wrong call; the annotator corrected the call, not the text); ${rethought} with the text the annotator corrected`,
    );
  if (unchanged) pass.notes.extra.push(`${plural(unchanged, 'correction', 'corrections')} left the turn as it was and ${unchanged === 1 ? 'was' : 'were'} left out`);
  if (repeated) pass.notes.extra.push(`${plural(repeated, 'correction', 'corrections')} repeated another person's correction of the same turn and ${repeated === 1 ? 'was' : 'were'} written once`);
  if (beyond) pass.notes.extra.push(`${plural(beyond, 'correction names', 'corrections name')} a turn the trajectory does not have and ${beyond === 1 ? 'was' : 'were'} left out`);
  pass.notes.extra.push('Items with no correction are counted as unlabeled');
}
