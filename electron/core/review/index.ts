// Agreement metrics and consensus for team review: pure functions over typed arrays, no SQL and no I/O
// (the stats job reads the labels and calls these). See each module for its definitions and sources.
export { REASONS, type Estimate, type Proportion } from './estimate';
export { codeValues, ratingsFromMatrix, ratingsFromTriples, ratingsFromUnits, type Ratings, type ValueCodes } from './ratings';
export { cohenKappa, firstErrorAgreement, fleissKappa, percentAgreement, type Kappa } from './agreement';
export { alphaFromCoincidences, coincidenceMatrix, krippendorffAlpha, type Alpha, type AlphaLevel, type Coincidences } from './krippendorff';
export { kendallW, kendallWByUnit, rankingsFromUnits, scoresFromGroups, UNDEFINED_W, type Concordance, type Rankings, type UnitConcordance } from './kendall';
export { categoryCount, majorityVote, NO_LABEL, TIE, type Consensus } from './majority';
export { dawidSkene, type DawidSkene, type DawidSkeneOptions } from './dawidSkene';
export { differenceOfProportions, proportion, wilsonInterval, Z95, type Difference } from './proportion';
export { agreementWithConsensus, agreementWithOthers, IDLE_CAP_MS, lengthBias, positionBias, throughput, type Throughput } from './annotators';
export { anchoring, calibration, modelAccuracy, type Anchoring, type Calibration, type ReliabilityBin } from './modelVsPeople';
