// The export passes formats are written by (../registry.ts ExportPasses): each format's descriptor picks
// one and hands it its encoder. They read the store, so only the exporter imports this.
import { arbiterWriter, consensusWriter, labelsWriter, scoresWriter } from '../exchange/exportWriters';
import { pairWriter } from '../pairs/pairExport';
import { unpairedWriter } from '../pairs/unpairedExport';
import { stepWriter } from '../process/stepExport';
import { judgedWriter } from '../ratings/judgedExport';
import type { ExportPasses } from '../descriptor';
import { trajectoryWriter } from '../trajectories/exportPass';
import { turnExportWriter } from '../trajectories/turnExport';
import { visionWriter } from '../vision/benchExport';
import { trlVisionWriter } from '../vision/trlVisionExport';

export const EXPORT_PASSES: ExportPasses = {
  items: arbiterWriter,
  labels: labelsWriter,
  scores: scoresWriter,
  consensus: consensusWriter,
  pairs: pairWriter,
  trlVision: trlVisionWriter,
  unpaired: unpairedWriter,
  steps: stepWriter,
  judged: judgedWriter,
  trajectories: trajectoryWriter,
  turns: turnExportWriter,
  vision: visionWriter,
};
