// Per-turn labels with the taxonomy, for analysis (pandas, DuckDB): one line per turn of a trajectory per
// current steps label that judged it (every annotator's, the file's own and models' pre-labels, each marked
// by `annotator_kind`; the label an adjudication chose once more with `adjudicated: true`; --annotator keeps
// one person's). The turn's fields come from the label revision's body (docs/formats.md, "Labels"):
//   item, item_uid, response (letter), model, annotator, annotator_kind, adjudicated, created_at,
//   turn (0-based), turn_id, agent, kinds, calls [{id, name}],
//   rating (−1 / 0 / +1 / null), is_first_error, tags, severity, tool_verdicts, correction,
//   and the response's: first_error, outcome, attribution {agent?, step}, is_decisive (this turn is the
//   attributed one).
import { readBody, type StepsBody, type StepsField } from '../../../../shared/labelBodies';
import { responseLetter } from '../../../../shared/letters';
import { plural } from '../../../../shared/plural';
import type { Db } from '../../store/db';
import { firstWrongStep } from '../process/chain';
import { isPlainObject } from '../validate';
import { forEachTrajectoryItem, judgedSteps, stepsAreTurns, turnsOf, type TurnPass, type TurnTally } from './turnCommon';

const FIELDS = ['steps', 'first_error', 'step_tags', 'step_severity', 'tool_verdicts', 'corrections', 'attribution', 'outcome'] as const satisfies readonly StepsField[];

/** A steps body field's value for one response letter, or null (read defensively: a file's body may hold other shapes under other keys). */
function per(body: StepsBody, field: StepsField, letter: string): unknown {
  const all = body[field];
  return isPlainObject(all) && letter in all ? (all[letter] ?? null) : null;
}

/** A per-step record's value at step k, or null. */
function at(record: unknown, k: number): unknown {
  return isPlainObject(record) && String(k) in record ? (record[String(k)] ?? null) : null;
}

export async function writeTurnLabels(db: Db, pass: TurnPass, tally: TurnTally): Promise<void> {
  let judgements = 0;
  await forEachTrajectoryItem(db, pass, tally, async (item, labels, segmentations) => {
    let wrote = false;
    for (const response of item.responses) {
      const trajectory = turnsOf(response.content);
      if (!trajectory) continue;
      const letter = responseLetter(response.index);
      for (const label of labels) {
        const body = readBody('steps', label.body);
        if (!FIELDS.some((f) => per(body, f, letter) !== null)) continue;
        const version = per(body, 'segmentation', letter);
        const ratings = per(body, 'steps', letter);
        if (Array.isArray(ratings) && !stepsAreTurns(judgedSteps(segmentations, item, response.index, typeof version === 'number' ? version : null), trajectory.turns)) {
          tally.notTurns++;
          continue;
        }
        judgements++;
        const firstError = per(body, 'first_error', letter);
        const rated = Array.isArray(ratings) ? (ratings as (number | null)[]) : [];
        const wrong = firstWrongStep(rated, typeof firstError === 'number' ? firstError : null);
        const attribution = per(body, 'attribution', letter);
        const common = {
          item: item.externalId ?? item.uid,
          item_uid: item.uid,
          response: letter,
          model: response.model,
          annotator: label.annotator,
          annotator_kind: label.kind,
          adjudicated: label.adjudicated === true,
          created_at: label.createdAt ?? null,
        };
        for (const turn of trajectory.turns) {
          const k = turn.index;
          const line = {
            ...common,
            turn: k,
            turn_id: turn.id,
            agent: turn.agent,
            kinds: turn.kinds,
            calls: turn.calls.map((c) => ({ id: c.id, name: c.name })),
            rating: rated[k] ?? null,
            is_first_error: wrong === k,
            tags: at(per(body, 'step_tags', letter), k) ?? [],
            severity: at(per(body, 'step_severity', letter), k),
            tool_verdicts: at(per(body, 'tool_verdicts', letter), k),
            correction: at(per(body, 'corrections', letter), k),
            first_error: typeof firstError === 'number' ? firstError : null,
            outcome: per(body, 'outcome', letter),
            attribution,
            is_decisive: isPlainObject(attribution) && attribution.step === k,
          };
          const pending = pass.writer.write(line);
          if (pending) await pending;
          wrote = true;
        }
      }
    }
    if (!wrote) pass.skipped.unlabeled++;
  });
  pass.notes.extra.push(`${plural(judgements, 'judgement', 'judgements')} of a trajectory, one line per turn each; items nobody judged are counted as unlabeled`);
}
