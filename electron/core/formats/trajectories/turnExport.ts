// What agent-reward trainers read, made from labeled trajectories (docs/formats.md, "Trajectory exports"):
//   trl-stepwise-turns(-chat)   TRL stepwise supervision over agent turns (./stepwiseTurns.ts)
//   trl-tools                   TRL tool-calling preference for DPO (./toolPreference.ts)
//   corrections-sft / -dpo      corrected turns as SFT targets and as step preference pairs (./corrections.ts)
//   turn-labels                 every label's per-turn judgement with the taxonomy, for analysis (./turnLabels.ts)
// Which label decides is the rule every export follows (../base/resolve.ts); what they share: ./turnCommon.ts.
import type { Db } from '../../store/db';
import { projectSettings } from '../../store/projects';
import { itemPass } from '../base/itemPass';
import type { FormatWriter } from '../descriptor';
import type { TurnExportFormat } from '../../../../shared/formatNames';
import { writeCorrections } from './corrections';
import { writeStepwiseTurns } from './stepwiseTurns';
import { writeToolPreference } from './toolPreference';
import { TurnTally, type TurnPass } from './turnCommon';
import { writeTurnLabels } from './turnLabels';

export { isTurnExportFormat, type TurnPass } from './turnCommon';

export async function writeTurnExport(db: Db, pass: TurnPass): Promise<void> {
  const tally = new TurnTally();
  if (pass.format === 'trl-stepwise-turns' || pass.format === 'trl-stepwise-turns-chat') await writeStepwiseTurns(db, pass, tally);
  else if (pass.format === 'trl-tools') await writeToolPreference(db, pass, tally);
  else if (pass.format === 'corrections-sft' || pass.format === 'corrections-dpo') await writeCorrections(db, pass, tally);
  else await writeTurnLabels(db, pass, tally);
  pass.notes.extra.push(...tally.notes());
}

/** The turn exports' writer. */
export const turnExportWriter: FormatWriter = {
  async write(run) {
    const segmentation = projectSettings(run.project).segmentation;
    await writeTurnExport(run.db, { ...itemPass(run), format: run.format as TurnExportFormat, neutral: run.opts.neutral ?? false, rankingPairs: run.opts.rankingPairs ?? 'all', segmentation });
  },
};
