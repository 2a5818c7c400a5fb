// TRL stepwise supervision over agent turns (what the PRM trainer reads): one line per judged trajectory,
//   {"prompt": text | messages, "completions": [one per kept turn], "labels": [bool]}
// laid out as Arbiter's process scorer reads a trajectory (../../scorer/inputs.ts trajectoryFrames), so a
// model trained on the file scores turns the way the step screen's pre-labels do:
// - prompt: the task and the messages before the first agent turn ("role: text" blocks); with
//   trl-stepwise-turns-chat, the same as a message list (TRL's maybe_apply_chat_template renders it);
// - completions[k]: what the agent saw since its previous action (that turn's tool results and
//   observations, then this turn's context: a user's words), then turn k's canonical text; so the label at
//   the end of completion k is given after the task and the whole history up to turn k's action, and
//   nothing after it;
// - labels: the kept chain (../process/chain.ts: up to the first error, that turn false), only +1 true unless
//   --neutral true (TRL's own PRM800K converter collapses neutral into false).
import type { Db } from '../../store/db';
import { promptText, trajectoryFrames } from '../../scorer/inputs';
import { responseLetter } from '../../../../shared/letters';
import { plural } from '../../../../shared/plural';
import { keptChain } from '../process/chain';
import { decideChain } from '../base/resolve';
import { forEachTrajectoryItem, judgedSteps, stepsAreTurns, taskMessages, trainerMessage, turnsOf, type TurnPass, type TurnTally } from './turnCommon';


export async function writeStepwiseTurns(db: Db, pass: TurnPass, tally: TurnTally): Promise<void> {
  const chat = pass.format === 'trl-stepwise-turns-chat';
  const segmentation = pass.segmentation;
  let neutralTurns = 0;
  let cut = 0;
  let gaps = 0;
  await forEachTrajectoryItem(db, pass, tally, async (item, current, segmentations) => {
    for (const response of item.responses) {
      const trajectory = turnsOf(response.content);
      if (!trajectory) continue;
      const decision = decideChain(current, responseLetter(response.index), pass.annotator);
      if (decision.skip) {
        pass.skipped[decision.skip]++;
        continue;
      }
      const { ratings, firstError, version } = decision.chain;
      const steps = judgedSteps(segmentations, item, response.index, version);
      const frames = stepsAreTurns(steps, trajectory.turns) && steps!.length === ratings.length ? trajectoryFrames({ prompt: item.prompt, response: trajectory.messages, steps, segmentation }) : null;
      if (!frames) {
        tally.notTurns++;
        pass.skipped.conflict++;
        continue;
      }
      const kept = keptChain(steps!, ratings, firstError);
      if (!kept) {
        pass.skipped.unlabeled++;
        continue;
      }
      if (kept.cut) cut++;
      for (const r of kept.ratings) {
        if (r === 0) neutralTurns++;
        if (r === null) gaps++;
      }
      const completions = kept.steps.map((text, k) => (k === 0 ? text : [frames[k - 1]!.after, frames[k]!.before, text].filter((s) => s !== '').join('\n\n')));
      const first = trajectory.turns[0]!;
      const prompt = chat
        ? [...taskMessages(item.prompt, tally), ...first.context.map((i) => trainerMessage(trajectory.messages[i]!, tally))]
        : [promptText(item.prompt), frames[0]!.before].filter((s) => s !== '').join('\n\n');
      const labels = kept.ratings.map((r) => r === 1 || (r === 0 && pass.neutral));
      const pending = pass.writer.write({ prompt, completions, labels });
      if (pending) await pending;
    }
  });
  pass.notes.extra.push(
    pass.neutral
      ? `Turn labels: +1 and neutral (0) turns are true, −1 turns false (--neutral true)${neutralTurns ? `; ${plural(neutralTurns, 'neutral turn was', 'neutral turns were')} written true` : ''}`
      : `Turn labels: only +1 turns are true; neutral (0) and −1 turns are false (--neutral false, the default: TRL's PRM trainer takes true / false only, and TRL's own PRM800K converter collapses neutral into false)${neutralTurns ? `; ${plural(neutralTurns, 'neutral turn was', 'neutral turns were')} written false` : ''}`,
  );
  if (cut) pass.notes.extra.push(`${plural(cut, 'trajectory stops', 'trajectories stop')} at ${cut === 1 ? 'its' : 'their'} first wrong turn, that turn included as false: the turns after it carry no label`);
  if (gaps) pass.notes.extra.push(`${plural(gaps, 'unrated turn', 'unrated turns')} before a trajectory's last rated turn ${gaps === 1 ? 'was' : 'were'} written false`);
  pass.notes.extra.push('Each completion holds the tool results and observations since the previous turn, then the turn; trajectories nobody rated are counted as unlabeled');
}
