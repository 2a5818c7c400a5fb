// The Datasets screen's words: what an imported file carried, named by its format ("step labels on 2
// chains", "ratings of 5 items", "3 preferences"), the formats import reads, and an export summary's
// notes with the options named as the export dialog labels them, not as the command line spells them.
import { FORMAT_TITLES, IMPORT_FORMATS, type RankingPairs } from '../../../../shared/formatNames';
import { plural } from '../../../../shared/plural';
import { PAIRS_TITLES } from './ExportOptions';

const n = (count: number, one: string, many: string) => `${count.toLocaleString()} ${count === 1 ? one : many}`;

/** The kind of labels each importing format carries (formats that carry none are left out). */
const CARRIES: Record<string, (count: number) => string> = {
  'trl-stepwise': (c) => `step labels on ${n(c, 'chain', 'chains')}`,
  prm800k: (c) => `step labels on ${n(c, 'chain', 'chains')}`,
  'math-shepherd': (c) => `step labels on ${n(c, 'chain', 'chains')}`,
  processbench: (c) => `first wrong steps of ${n(c, 'chain', 'chains')}`,
  ultrafeedback: (c) => `ratings of ${n(c, 'item', 'items')}`,
  helpsteer2: (c) => `ratings of ${n(c, 'item', 'items')}`,
  'trl-unpaired': (c) => n(c, 'verdict', 'verdicts'),
  // A trajectory file's label is its runs' outcomes (τ-bench's reward, SWE-agent's exit status…), one per item.
  'tau-bench': (c) => `task outcomes on ${n(c, 'item', 'items')}`,
  'swe-agent': (c) => `task outcomes on ${n(c, 'item', 'items')}`,
  openhands: (c) => `task outcomes on ${n(c, 'item', 'items')}`,
  'arbiter-trajectory': (c) => `task outcomes on ${n(c, 'item', 'items')}`,
};

/** What the file's own labels were, as the import summary says it: "step labels on 2 chains". */
export function carriedWords(format: string, labels: number): string {
  return (CARRIES[format] ?? ((c: number) => n(c, 'preference', 'preferences')))(labels);
}

/** The import summary after the format: "1 line read, 2 already in the project, …" (parts with a count only). */
export function importedWords(result: { format: string; lines: number; duplicates: number; labels: number; rejected: number }): string {
  return [
    `${plural(result.lines, 'line')} read`,
    result.duplicates ? `${result.duplicates.toLocaleString()} already in the project` : '',
    result.labels ? `${carriedWords(result.format, result.labels)} from the file kept as “source”` : '',
    result.rejected ? `${result.rejected.toLocaleString()} rejected` : '',
  ]
    .filter(Boolean)
    .join(', ');
}

/** The formats import reads, by their titles, for the hint beside "Choose file…". */
export const IMPORT_FORMAT_TITLES: string[] = IMPORT_FORMATS.map((f) => FORMAT_TITLES[f] ?? f);

/** A note of the export summary with the command line's options named as the dialog names them. */
export function inAppWords(note: string): string {
  return note
    .replace(/--neutral true/g, '“Neutral (0) steps count as good” on')
    .replace(/--neutral false/g, '“Neutral (0) steps count as good” off')
    .replace(/--ranking-pairs (all|best-worst|adjacent)/g, (_, p: RankingPairs) => `“Pairs from a ranking”: ${PAIRS_TITLES[p]}`)
    .replace(/--from-ratings/g, '“Pairs from rubric totals where there is no choice”')
    .replace(/--adjudicated-only/g, 'Items: “Adjudicated only”')
    .replace(/--min-agreement/g, 'Items: “Where people agree at least…”')
    .replace(/--annotator/g, '“Labels from”')
    .replace(/\(--images drop on the command line\)/g, '(tick “Leave the images out”)');
}
