// The import dialog's preview: the detected format and why, the first records as they will be stored,
// and every bad line in the head of the file.
import type { PreviewResult } from '../../../../shared/api';
import type { ImportFormat } from '../../../../shared/formatNames';
import { displayText } from '../content';
import { DETECT_RECORDS, detectCutLine, detectLines, type HeadLine, type LinesGuess } from './detect';
import { RecordError, type ParsedRecord } from '../types';
import { GROUPS, Grouper } from './group';
import { parseJson, PARSERS } from './prepare';

/**
 * What the import dialog shows before importing: the detected format and why, the first records as
 * they will be stored, and every bad line in the head. A last line without its line end may have been
 * cut off by the caller; it is ignored unless it parses, or unless it is the only line: a record longer
 * than the head (5 MB of response, say) is then told by the fields it begins with.
 */
export function previewHead(head: string, format: 'auto' | ImportFormat, maxRecords = 5): PreviewResult {
  const lines = head.split('\n');
  let cut: { line: number; text: string } | null = null;
  if (!head.endsWith('\n')) {
    const last = lines[lines.length - 1]!;
    try {
      JSON.parse(last);
    } catch {
      lines.pop();
      cut = { line: lines.length + 1, text: lines.length === 0 && last.charCodeAt(0) === 0xfeff ? last.slice(1) : last };
    }
  } else lines.pop();
  const entries: HeadLine[] = [];
  lines.forEach((raw, i) => {
    let text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (i === 0 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    if (text.trim() === '') return;
    let value: Record<string, unknown> | RecordError;
    try {
      value = parseJson(text);
    } catch (error) {
      value = error as RecordError;
    }
    entries.push({ line: i + 1, text, value });
  });
  const detection: LinesGuess = entries.length === 0 && cut && cut.text.trim() !== '' ? detectCutLine(cut) : detectLines(entries.slice(0, DETECT_RECORDS));
  const chosen = format === 'auto' ? detection.format : format;
  const reason = format === 'auto' ? detection.reason : `${format}: given${detection.format && detection.format !== format ? ` (auto-detection says ${detection.reason})` : ''}`;
  const result: PreviewResult = { detected: detection.format, format: chosen, reason, records: [], errors: [], linesRead: lines.length };
  if (!chosen) return result;
  const parse = PARSERS[chosen];
  const show = (line: number, parsed: ParsedRecord) => {
    if (result.records.length < maxRecords)
      result.records.push({ line, prompt: displayText(parsed.draft.prompt), responses: parsed.draft.responses.map((r) => displayText(r.content)), choice: fileChoice(parsed) });
  };
  const group = GROUPS[chosen];
  if (group) {
    // Rows grouped into items as the import will (the head's last group may be cut short).
    const grouper = new Grouper(parse, group);
    const emitted = entries.flatMap((entry) => grouper.add({ line: entry.line, text: entry.text }, entry.value));
    for (const e of [...emitted, ...grouper.flush()]) {
      if ('error' in e) result.errors.push({ line: e.error.line, reason: e.error.reason });
      else show(e.lines[0]!.line, e.parsed);
    }
    return result;
  }
  for (const entry of entries) {
    try {
      if (entry.value instanceof RecordError) throw entry.value;
      show(entry.line, parse(entry.value));
    } catch (error) {
      if (!(error instanceof RecordError)) throw error;
      result.errors.push({ line: entry.line, reason: error.message });
    }
  }
  return result;
}

/** The file's own pairwise choice: its preference, or a pairwise judgement (Multimodal RewardBench's Better, Pick-a-Pic's labels). */
function fileChoice(parsed: ParsedRecord): string | null {
  if (parsed.preference) return parsed.preference;
  const judged = parsed.judgement;
  return judged?.task === 'pairwise' && judged.choice ? judged.choice : null;
}
