// Dataset formats: detection, preview, streaming import and export, grouped by family (./README.md says
// which folder holds what, and where a new format goes): sources/ (bytes to lines), import/, export/
// (which label decides, the item pass), pairs/, process/, ratings/ (ratings and critiques), exchange/
// (Arbiter's own items, labels, scores, consensus) and trajectories/. This is what the rest of the app
// imports.
export { detectFormat } from './import/detect';
export { importLines, previewHead, PARSERS, DETECT_RECORDS } from './import/importer';
export type { ImportLinesOptions, ImportLinesResult } from './import/importer';
export { importFile, rejectsPath, type ImportFileOptions } from './import/file';
export { exportProject } from './export/exporter';
export { formats, formatNamed, type FormatDescriptor } from './registry';
export type { ExportOptions } from './export/exporter';
export { importLabelsFile, importLabelsLines, encodeLabel } from './exchange/labels';
export type { LabelsImportResult } from './exchange/labels';
export { splitLines, readLines, hashFile, JsonlWriter } from './jsonl';
export { extractPromptMessages, extractPromptText } from './pairs/trl';
export { decide } from './base/resolve';
export { RecordError } from './types';
