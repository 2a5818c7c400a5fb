// Writing the VideoAlign pair CSV (./videoAlign.ts): the items a page at a time, each pair's winners from
// the labels that decide (an adjudication, the named annotator, else the most common among people, else
// the file's own: ../base/resolve.ts decidingLabels), per criterion from the rating sheets' winners, each video copied byte for byte from the video store
// into the folder beside the CSV (`<stem>_images/<sha256>.<ext>`, the folder image exports use, so a
// browser download zips it with the CSV). Items that are not a pair of stored videos are left out, counted.
import { createWriteStream, mkdirSync, renameSync, rmSync, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { dirname } from 'node:path';
import type { VideoRef } from '../../../../shared/videos';
import { imageStoreOf } from '../../images/store';
import type { Db } from '../../store/db';
import { headLoader, type HeadLabel } from '../../store/labels';
import { videoStoreDir } from '../../videos/store';
import { forEachPage, itemPass } from '../base/itemPass';
import { decidingLabels, mostCommon } from '../base/resolve';
import type { ExportRun, FormatWriter } from '../descriptor';
import type { RecordWriter } from '../recordWriter';
import { VideoFiles } from './videoFiles';
import { VIDEOALIGN_AXES } from '../../../../shared/rubricTemplates';
import { ASPECTS, csvField, encodeVideoAlign, VIDEOALIGN_COLUMNS, type AlignWinners, type Winner } from './videoAlign';

/** A CSV file and the videos beside it, both put in place on commit (nothing is left on abort). */
export class CsvVideoWriter implements RecordWriter {
  lines = 0;
  private header: string[] | null = null;

  private constructor(
    readonly out: string,
    private readonly stream: WriteStream,
    readonly videos: VideoFiles,
  ) {}

  static async open(out: string, store: string): Promise<CsvVideoWriter> {
    mkdirSync(dirname(out), { recursive: true });
    const stream = createWriteStream(`${out}.partial`, { flags: 'w', encoding: 'utf8', flush: true });
    await once(stream, 'open');
    return new CsvVideoWriter(out, stream, new VideoFiles(out, store));
  }

  /** The path a row names video `ref` by (relative to the CSV); its bytes are copied once. */
  pathOf(ref: VideoRef): string {
    return this.videos.pathOf(ref);
  }

  write(row: unknown): Promise<void> | void {
    const record = row as Record<string, string>;
    let text = '';
    if (this.header === null) {
      this.header = [...VIDEOALIGN_COLUMNS, ...Object.keys(record).filter((k) => !(VIDEOALIGN_COLUMNS as readonly string[]).includes(k))];
      text += `${this.header.map(csvField).join(',')}\n`;
    }
    text += `${this.header.map((k) => csvField(record[k] ?? '')).join(',')}\n`;
    this.lines++;
    if (!this.stream.write(text)) return once(this.stream, 'drain').then(() => undefined);
  }

  async commit(): Promise<void> {
    if (this.header === null) this.stream.write(`${VIDEOALIGN_COLUMNS.join(',')}\n`);
    this.stream.end();
    await once(this.stream, 'finish');
    this.videos.commit();
    renameSync(`${this.out}.partial`, this.out);
  }

  async abort(): Promise<void> {
    this.stream.destroy();
    rmSync(`${this.out}.partial`, { force: true });
    this.videos.abort();
  }
}

const isChoice = (l: HeadLabel) => l.choice === 'A' || l.choice === 'B' || l.choice === 'tie';
const criterionWinners = (l: HeadLabel) => ((l.body as { criterion_winner?: Record<string, Winner> } | undefined)?.criterion_winner ?? {}) as Record<string, Winner>;

/**
 * The winners the deciding labels give, by column: each criterion's from the rating sheets' per-criterion
 * winners (the video-generation rubric), Overall from the pairwise choice where one decides, else from the
 * sheets' overall winner. 'conflict' when the deciding people split evenly on one; null when none says.
 */
export function decideAlign(pairwise: readonly HeadLabel[], rubric: readonly HeadLabel[], annotator?: string): AlignWinners | 'conflict' | null {
  const choosing = decidingLabels(pairwise, isChoice, annotator);
  const rating = decidingLabels(rubric, (l) => Object.keys(criterionWinners(l)).length > 0, annotator);
  if (!choosing.length && !rating.length) return null;
  const winners: AlignWinners = {};
  for (const aspect of ASPECTS) {
    const key = VIDEOALIGN_AXES[aspect];
    const values = aspect === 'Overall' && choosing.length ? choosing.map((l) => l.choice as Winner) : rating.flatMap((l) => (criterionWinners(l)[key] ? [criterionWinners(l)[key]!] : []));
    const top = mostCommon(values, (v) => v);
    if (top === 'conflict') return 'conflict';
    if (top) winners[aspect] = top;
  }
  return winners;
}

export const videoAlignWriter: FormatWriter = {
  open: (db: Db, _format: string, out: string) => CsvVideoWriter.open(out, videoStoreDir(imageStoreOf(db))),
  async write(run: ExportRun): Promise<void> {
    const pass = itemPass(run);
    const writer = run.writer as CsvVideoWriter;
    const loadChoices = headLoader(run.db, pass.projectId, pass.annotator, 'pairwise');
    const loadSheets = headLoader(run.db, pass.projectId, pass.annotator, 'rubric', true);
    let notPairs = 0;
    await forEachPage(run.db, pass, ['pairwise', 'rubric'], async (items, from, to) => {
      const choices = loadChoices(from, to);
      const sheets = loadSheets(from, to);
      for (const item of items) {
        const winners = decideAlign(choices.get(item.id) ?? [], sheets.get(item.id) ?? [], pass.annotator);
        if (winners === 'conflict') {
          pass.skipped.conflict++;
          continue;
        }
        if (winners === null) {
          pass.skipped.unlabeled++;
          continue;
        }
        const row = encodeVideoAlign(item, winners, (ref) => writer.pathOf(ref));
        if (!row) {
          notPairs++;
          continue;
        }
        await writer.write(row);
      }
    });
    if (notPairs) pass.skipped.not_pairwise += notPairs;
  },
};
