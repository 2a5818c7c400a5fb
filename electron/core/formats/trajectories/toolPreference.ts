// TRL tool-calling preference (what DPOTrainer trains on): one line per decided pair of trajectories of
// one task,
//   {"prompt": [task messages], "chosen": [messages], "rejected": [messages], "tools": [JSON schemas]}
// The pairs are the pairwise formats' (a pair's choice; a ranking's pairs by --ranking-pairs; ties, both-bad
// and unlabeled items left out and counted). Messages are as TRL writes them: Arbiter's fields dropped,
// tool call arguments as JSON objects; `tools` is the schemas the file gave the two runs ([] when none).
import type { Db } from '../../store/db';
import { headLoader, type HeadLabel } from '../../store/labels';
import { plural } from '../../../../shared/plural';
import { forEachPage } from '../base/itemPass';
import { decidePairs } from '../base/resolve';
import { isTrajectoryItem, responseMessages, taskMessages, toolsOf, type TurnPass, type TurnTally } from './turnCommon';

const NO_LABELS: HeadLabel[] = [];

export async function writeToolPreference(db: Db, pass: TurnPass, tally: TurnTally): Promise<void> {
  const loadHeads = headLoader(db, pass.projectId, pass.annotator);
  const loadRankings = headLoader(db, pass.projectId, pass.annotator, 'ranking');
  let rankedItems = 0;
  let rankedPairs = 0;
  await forEachPage(db, pass, ['pairwise', 'ranking'], async (items, from, to) => {
    const heads = loadHeads(from, to);
    const rankings = loadRankings(from, to);
    for (const item of items) {
      if (!isTrajectoryItem(item)) {
        tally.notTrajectory++;
        continue;
      }
      const decision = decidePairs(item.responses.length, heads.get(item.id) ?? NO_LABELS, rankings.get(item.id) ?? NO_LABELS, pass.rankingPairs, pass.annotator);
      if (decision.skip) {
        pass.skipped[decision.skip]++;
        continue;
      }
      if (decision.ranked) {
        rankedItems++;
        rankedPairs += decision.pairs.length;
      }
      for (const p of decision.pairs) {
        const line = {
          prompt: taskMessages(item.prompt, tally),
          chosen: responseMessages(item.responses[p.winner]!.content, tally),
          rejected: responseMessages(item.responses[p.loser]!.content, tally),
          tools: toolsOf(item, [p.winner, p.loser], tally),
        };
        const pending = pass.writer.write(line);
        if (pending) await pending;
      }
    }
  });
  if (rankedItems) pass.notes.extra.push(`${plural(rankedItems, 'ranked item', 'ranked items')} gave ${plural(rankedPairs, 'pair', 'pairs')} (--ranking-pairs ${pass.rankingPairs}; tied trajectories never pair)`);
  pass.notes.extra.push('Chosen and rejected hold each whole trajectory, tool results included: DPOTrainer scores every token of them, the tool results too');
}
