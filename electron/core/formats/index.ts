// Dataset formats: detection, preview, streaming import and export. One module per format:
// arbiter.ts, trl.ts (four variants), unpaired.ts (trl-unpaired), stepwise.ts (trl-stepwise), hhRlhf.ts,
// rewardbench.ts, openrlhf.ts, prm800k.ts, mathShepherd.ts, processbench.ts, labels.ts. The passes of an
// export: pairExport.ts (pairs, and the pairs rankings imply), unpairedExport.ts, stepExport.ts (chains);
// resolve.ts decides which label counts, chain.ts what a step export keeps of a chain.
export { detectFormat } from './detect';
export { importFile, importLines, previewHead, rejectsPath, PARSERS, DETECT_RECORDS } from './importer';
export type { ImportFileOptions, ImportLinesOptions, ImportLinesResult } from './importer';
export { exportProject, PAIR_ENCODERS } from './exporter';
export type { ExportOptions } from './exporter';
export { importLabelsFile, importLabelsLines, encodeLabel } from './labels';
export type { LabelsImportResult } from './labels';
export { splitLines, readLines, hashFile, JsonlWriter } from './jsonl';
export { extractPromptMessages, extractPromptText } from './trl';
export { decide } from './resolve';
export { RecordError } from './types';
