// OpenRLHF reward-model data: {"prompt": str, "chosen": str, "rejected": str, "margin"?: number}, the
// default keys of OpenRLHF's RewardDataset. margin is the mean strength (1 slightly, 2 clearly, 3 much
// better) of the labels that chose the winner; it is left out when none of them recorded a strength.
import { standardPair } from './trl';
import type { DecidedPair, ExportNotes } from './types';

export function encodeOpenrlhf(pair: DecidedPair, notes: ExportNotes): unknown {
  const p = standardPair(pair, notes);
  if (pair.margin === null) {
    notes.noMargin++;
    return p;
  }
  return { ...p, margin: pair.margin };
}
