// OpenRLHF reward-model data: {"prompt": str, "chosen": str, "rejected": str, "margin": number}, the
// default keys of OpenRLHF's RewardDataset. margin is the mean strength (1 slightly, 2 clearly, 3 much
// better) of the labels that chose the winner. Every line carries one, so a trainer with a margin loss
// reads every line alike: where no such label recorded a strength, it is 0, which makes OpenRLHF's
// loss plain Bradley–Terry for that pair.
import { standardPair } from './trl';
import type { DecidedPair, ExportNotes } from '../types';

export function encodeOpenrlhf(pair: DecidedPair, notes: ExportNotes): unknown {
  const p = standardPair(pair, notes);
  if (pair.margin === null) notes.zeroMargin++;
  return { ...p, margin: pair.margin ?? 0 };
}
