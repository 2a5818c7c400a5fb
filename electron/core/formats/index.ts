// Dataset formats: detection, preview, streaming import and export. One module per format:
// arbiter.ts, trl.ts (four variants), unpaired.ts (trl-unpaired), stepwise.ts (trl-stepwise), hhRlhf.ts,
// rewardbench.ts, openrlhf.ts, prm800k.ts, mathShepherd.ts, processbench.ts, labels.ts, ultrafeedback.ts,
// ultrafeedbackBinarized.ts, helpsteer2.ts (ratings rows and preference rows), helpsteer3.ts, rar.ts,
// prometheus.ts (prometheus and critique). The passes of an export: pairExport.ts (pairs, the pairs
// rankings imply, and with --from-ratings the pairs rubric totals imply), unpairedExport.ts,
// stepExport.ts (chains), judgedExport.ts (ratings, strengths and critiques, per judgedCodecs.ts);
// resolve.ts and resolveRatings.ts decide which label counts, chain.ts what a step export keeps of a
// chain, rubricTotals.ts what ratings add up to, keep.ts what a record keeps of its own shape.
export { detectFormat } from './detect';
export { importLines, previewHead, PARSERS, DETECT_RECORDS } from './importer';
export type { ImportLinesOptions, ImportLinesResult } from './importer';
export { importFile, rejectsPath, type ImportFileOptions } from './import/file';
export { exportProject, PAIR_ENCODERS } from './exporter';
export type { ExportOptions } from './exporter';
export { importLabelsFile, importLabelsLines, encodeLabel } from './labels';
export type { LabelsImportResult } from './labels';
export { splitLines, readLines, hashFile, JsonlWriter } from './jsonl';
export { extractPromptMessages, extractPromptText } from './trl';
export { decide } from './resolve';
export { RecordError } from './types';
