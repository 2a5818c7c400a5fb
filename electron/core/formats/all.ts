// Every dataset format, one descriptor module each (./registry.ts says how to add one). The order here is
// the order the export dialog (within a family), the CLI's --help and docs/formats.md list them in;
// detection goes by each descriptor's detect.rank.
import type { FormatDescriptor } from './descriptor';
import { descriptor as trl } from './pairs/trl.format';
import { descriptor as trlImplicit } from './pairs/trlImplicit.format';
import { descriptor as trlChat } from './pairs/trlChat.format';
import { descriptor as trlChatImplicit } from './pairs/trlChatImplicit.format';
import { descriptor as openrlhf } from './pairs/openrlhf.format';
import { descriptor as hhRlhf } from './pairs/hhRlhf.format';
import { descriptor as rewardbench } from './pairs/rewardbench.format';
import { descriptor as ultrafeedbackBinarized } from './pairs/ultrafeedbackBinarized.format';
import { descriptor as helpsteer2Preference } from './ratings/helpsteer2Preference.format';
import { descriptor as helpsteer3 } from './ratings/helpsteer3.format';
import { descriptor as consensus } from './exchange/consensus.format';
import { descriptor as trlUnpaired } from './pairs/trlUnpaired.format';
import { descriptor as trlStepwise } from './process/trlStepwise.format';
import { descriptor as prm800k } from './process/prm800k.format';
import { descriptor as mathShepherd } from './process/mathShepherd.format';
import { descriptor as processbench } from './process/processbench.format';
import { descriptor as ultrafeedback } from './ratings/ultrafeedback.format';
import { descriptor as helpsteer2 } from './ratings/helpsteer2.format';
import { descriptor as prometheus } from './ratings/prometheus.format';
import { descriptor as critique } from './ratings/critique.format';
import { descriptor as rar } from './ratings/rar.format';
import { descriptor as trlStepwiseTurns } from './trajectories/trlStepwiseTurns.format';
import { descriptor as trlStepwiseTurnsChat } from './trajectories/trlStepwiseTurnsChat.format';
import { descriptor as trlTools } from './trajectories/trlTools.format';
import { descriptor as correctionsSft } from './trajectories/correctionsSft.format';
import { descriptor as correctionsDpo } from './trajectories/correctionsDpo.format';
import { descriptor as turnLabelsExport } from './trajectories/turnLabelsExport.format';
import { descriptor as openaiTools } from './trajectories/openaiTools.format';
import { descriptor as sweAgent } from './trajectories/sweAgent.format';
import { descriptor as openhands } from './trajectories/openhands.format';
import { descriptor as tauBench } from './trajectories/tauBench.format';
import { descriptor as arbiterTrajectory } from './trajectories/arbiterTrajectory.format';
import { descriptor as mind2web } from './trajectories/mind2web.format';
import { descriptor as onlineMind2web } from './trajectories/onlineMind2web.format';
import { descriptor as trlVisionJsonl } from './vision/trlVisionJsonl.format';
import { descriptor as trlVisionParquet } from './vision/trlVisionParquet.format';
import { descriptor as vlRewardbench } from './vision/vlRewardbench.format';
import { descriptor as multimodalRewardbench } from './vision/multimodalRewardbench.format';
import { descriptor as pickapic } from './vision/pickapic.format';
import { descriptor as openaiVision } from './vision/openaiVision.format';
import { descriptor as mmRlhf } from './vision/mmRlhf.format';
import { descriptor as vlfeedback } from './vision/vlfeedback.format';
import { descriptor as rlaifV } from './vision/rlaifV.format';
import { descriptor as videoAlign } from './video/videoAlign.format';
import { descriptor as trlVideo } from './video/trlVideo.format';
import { descriptor as lerobot } from './video/lerobot.format';
import { descriptor as videoQa } from './video/videoQa.format';
import { descriptor as videoFeedback } from './video/videoFeedback.format';
import { descriptor as arbiter } from './exchange/arbiter.format';
import { descriptor as labels } from './exchange/labels.format';
import { descriptor as scores } from './exchange/scores.format';
import { fromTrace } from './trajectories/traceFormat';
import { TRACE_DESCRIPTORS } from './trajectories/traces';

export const ALL_FORMATS: readonly FormatDescriptor[] = [
  trl,
  trlImplicit,
  trlChat,
  trlChatImplicit,
  openrlhf,
  hhRlhf,
  rewardbench,
  ultrafeedbackBinarized,
  helpsteer2Preference,
  helpsteer3,
  consensus,
  trlUnpaired,
  trlStepwise,
  prm800k,
  mathShepherd,
  processbench,
  ultrafeedback,
  helpsteer2,
  prometheus,
  critique,
  rar,
  trlStepwiseTurns,
  trlStepwiseTurnsChat,
  trlTools,
  correctionsSft,
  correctionsDpo,
  turnLabelsExport,
  openaiTools,
  sweAgent,
  openhands,
  tauBench,
  arbiterTrajectory,
  // The trace formats (issue 21, section 5): asked after the older trajectory formats, before openai-tools.
  ...TRACE_DESCRIPTORS.map(fromTrace),
  mind2web,
  onlineMind2web,
  trlVisionJsonl,
  trlVisionParquet,
  vlRewardbench,
  multimodalRewardbench,
  pickapic,
  openaiVision,
  mmRlhf,
  vlfeedback,
  rlaifV,
  videoAlign,
  trlVideo,
  lerobot,
  videoQa,
  videoFeedback,
  arbiter,
  labels,
  scores,
];
