// The export pass of the vision benchmarks' shapes (VL-RewardBench, Multimodal RewardBench, MM-RLHF, Pick-a-Pic,
// OpenAI image_url chats): the items a page at a time, the deciding label as every export decides it
// (../base/resolve.ts), each shape's images as the shape carries them: files beside the output with
// relative paths, bytes in a Parquet column (or base64 in JSON Lines), data URLs. Items a shape cannot
// hold (no image, a response that is not one image) are left out and counted in the summary's note.
import type { ItemRecord } from '../../../../shared/domain';
import { VISION_BENCH_FORMATS, type ExportFormat, type RankingPairs, type VisionBenchFormat } from '../../../../shared/formatNames';
import type { ImagePart } from '../../../../shared/images';
import { plural } from '../../../../shared/plural';
import { imageStoreOf } from '../../images/store';
import type { Db } from '../../store/db';
import { headLoader, type HeadLabel } from '../../store/labels';
import { forEachPage, itemPass, type ItemPass } from '../base/itemPass';
import type { FormatWriter } from '../descriptor';
import { decide, decidePairs, decideRanking } from '../base/resolve';
import { JsonlWriter, type RecordWriter } from '../jsonl';
import { HfParquetWriter, type HfFeature } from './hfImage';
import { ImageFiles, ImagesBesideWriter, imageExtension, storedBytes } from './imageFiles';
import { critiquesOf, decideMmRlhf, encodeMmRlhf } from './mmRlhf';
import { encodeMultimodalRewardbench } from './multimodalRewardbench';
import { encodeOpenaiVision } from './openaiVision';
import { promptParts, responseImages } from './visionParts';
import { encodePickapic, jsonRow, PICKAPIC_FEATURES } from './pickapic';
import { encodeVlRewardbench, VLRB_FEATURES } from './vlRewardbench';

export type VisionExport = VisionBenchFormat;

export function isVisionExport(format: ExportFormat): format is VisionExport {
  return (VISION_BENCH_FORMATS as readonly string[]).includes(format);
}

/** Where the shape puts its images: beside the output (the benchmarks' relative paths), else in the records. */
const IMAGES_BESIDE: ReadonlySet<VisionExport> = new Set(['vl-rewardbench', 'multimodal-rewardbench', 'mm-rlhf']);

/** Pick-a-Pic is Parquet on the Hub: a `.parquet` output gets that, any other name JSON Lines. */
export const isParquetOut = (out: string) => /\.parquet$/i.test(out);
/** VL-RewardBench is Parquet on the Hub (the image an `Image` feature) and JSON Lines on GitHub (a path). */
const PARQUET_FEATURES: Partial<Record<VisionExport, Record<string, HfFeature>>> = { pickapic: PICKAPIC_FEATURES, 'vl-rewardbench': VLRB_FEATURES };

/** The records writer the shape needs at `out` (and the folder its images go to, where they go beside it). */
export async function openVisionWriter(db: Db, format: VisionExport, out: string): Promise<RecordWriter> {
  const features = PARQUET_FEATURES[format];
  if (features && isParquetOut(out)) return HfParquetWriter.open(out, features);
  const records = await JsonlWriter.open(out);
  return IMAGES_BESIDE.has(format) ? new ImagesBesideWriter(records, new ImageFiles(out, imageStoreOf(db))) : records;
}

export interface VisionPass extends Omit<ItemPass, 'writer'> {
  format: VisionExport;
  writer: RecordWriter;
  rankingPairs: RankingPairs;
}

const NO_LABELS: HeadLabel[] = [];

const nameOf = (item: ItemRecord) => (item.externalId !== null ? `"${item.externalId}"` : `#${item.seq + 1}`);

/** What an item lacked for the shape, counted for the note. */
class LeftOut {
  private readonly counts = new Map<string, { n: number; examples: string[] }>();
  add(reason: string, item: ItemRecord): void {
    const entry = this.counts.get(reason) ?? { n: 0, examples: [] };
    if (entry.examples.length < 3) entry.examples.push(nameOf(item));
    entry.n++;
    this.counts.set(reason, entry);
  }
  notes(): string[] {
    return [...this.counts].map(([reason, { n, examples }]) => `${plural(n, 'item was', 'items were')} left out: ${reason} (${examples.join(', ')}${n > examples.length ? ', …' : ''})`);
  }
}

export async function writeVision(db: Db, pass: VisionPass): Promise<void> {
  const store = imageStoreOf(db);
  const loadPairwise = headLoader(db, pass.projectId, pass.annotator);
  const loadRankings = headLoader(db, pass.projectId, pass.annotator, 'ranking');
  // MM-RLHF writes each response's critique (chosen_reason / rejected_reason) too.
  const loadCritiques = pass.format === 'mm-rlhf' ? headLoader(db, pass.projectId, undefined, 'critique', true) : null;
  const images = pass.writer instanceof ImagesBesideWriter ? pass.writer.images : null;
  const leftOut = new LeftOut();
  let notOffline = 0;
  let extraImages = 0;
  const write = async (record: unknown) => {
    const pending = pass.writer.write(record);
    if (pending) await pending;
  };
  /** The prompt's image as the file names it (written beside the output), or null when it has none. */
  const promptImage = async (item: ItemRecord): Promise<string | null> => {
    const parts = promptParts(item.prompt).images;
    if (parts.length > 1) extraImages++;
    const first = parts[0];
    if (!first) return null;
    if (!first.image) notOffline++;
    return images!.pathOf(first, nameOf(item));
  };
  const itemPass: ItemPass = { ...pass, writer: null as never };
  await forEachPage(db, itemPass, ['pairwise', 'ranking'], async (items, from, to) => {
    const pairwise = loadPairwise(from, to);
    const rankings = loadRankings(from, to);
    const critiques = loadCritiques?.(from, to);
    for (const item of items) {
      const heads = pairwise.get(item.id) ?? NO_LABELS;
      const ranks = rankings.get(item.id) ?? NO_LABELS;
      if (pass.format === 'pickapic') {
        const row = await pickapicRow(item, heads, store, pass, leftOut);
        if (row) await write(pass.writer instanceof HfParquetWriter ? row : jsonRow(row));
        continue;
      }
      if (pass.format === 'vl-rewardbench') {
        const ranking = decidedRanking(item.responses.length, heads, ranks, pass.annotator);
        if ('skip' in ranking) {
          pass.skipped[ranking.skip]++;
          continue;
        }
        if (pass.writer instanceof HfParquetWriter) {
          const part = promptParts(item.prompt).images[0];
          if (!part?.image) {
            leftOut.add(part ? 'the prompt’s image is not available offline (an http URL never fetched), and the Parquet shape carries the bytes' : 'the prompt holds no image', item);
            continue;
          }
          const image = { bytes: await storedBytes(store, part.image, nameOf(item)), path: imageName(part) };
          await write(encodeVlRewardbench({ item, ranking: ranking.groups, image }));
          continue;
        }
        const imagePath = await promptImage(item);
        if (imagePath === null) {
          leftOut.add('the prompt holds no image', item);
          continue;
        }
        await write(encodeVlRewardbench({ item, ranking: ranking.groups, imagePath }));
        continue;
      }
      if (pass.format === 'mm-rlhf') {
        const decided = decideMmRlhf(item.responses.length, heads, ranks, pass.rankingPairs, pass.annotator);
        if ('skip' in decided) {
          pass.skipped[decided.skip]++;
          continue;
        }
        const parts = promptParts(item.prompt).images;
        if (!parts.length) {
          leftOut.add('the prompt holds no image', item);
          continue;
        }
        const paths: string[] = [];
        for (const part of parts) {
          if (!part.image) notOffline++;
          const path = await images!.pathOf(part, nameOf(item));
          if (path !== null) paths.push(path);
        }
        const critique = critiquesOf(critiques?.get(item.id) ?? NO_LABELS, pass.annotator);
        for (const pair of decided.pairs) await write(encodeMmRlhf({ item, ...pair, images: paths, critique }));
        continue;
      }
      const decision = decidePairs(item.responses.length, heads, ranks, pass.rankingPairs, pass.annotator);
      if (decision.skip) {
        pass.skipped[decision.skip]++;
        continue;
      }
      if (pass.format === 'multimodal-rewardbench') {
        const imagePath = await promptImage(item);
        if (imagePath === null) {
          leftOut.add('the prompt holds no image', item);
          continue;
        }
        const several = decision.pairs.length > 1 || item.responses.length > 2;
        for (const p of decision.pairs) {
          const [first, second] = p.winner < p.loser ? [p.winner, p.loser] : [p.loser, p.winner];
          await write(encodeMultimodalRewardbench({ item, first, second, better: p.winner === first ? 'Output1' : 'Output2', imagePath, several }));
        }
        continue;
      }
      // openai-vision: every image of the item as a data URL of its stored bytes.
      const urls = new Map<string, string>();
      for (const part of allImages(item)) {
        if (!part.image) {
          notOffline++;
          continue;
        }
        if (urls.has(part.image.sha256)) continue;
        const bytes = await storedBytes(store, part.image, nameOf(item));
        urls.set(part.image.sha256, `data:${part.image.mime};base64,${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64')}`);
      }
      const urlOf = (part: ImagePart) => (part.image ? urls.get(part.image.sha256)! : part.origin.kind === 'url' ? part.origin.url : null);
      for (const p of decision.pairs) await write(encodeOpenaiVision({ prompt: item.prompt, chosen: item.responses[p.winner]!.content, rejected: item.responses[p.loser]!.content }, urlOf));
    }
  });
  pass.notes.extra.push(...leftOut.notes());
  if (images?.count) pass.notes.extra.push(`${plural(images.count, 'image was', 'images were')} written beside the file, in ${images.folderName}/ (each once, named by its sha256; the file's paths are relative to its folder)`);
  if (notOffline) pass.notes.extra.push(`${plural(notOffline, 'image is', 'images are')} not available offline (an http URL never fetched): written as the URL`);
  if (extraImages) pass.notes.extra.push(`${plural(extraImages, 'prompt holds', 'prompts hold')} more than one image; the ${pass.format} shape has one, so only the first was written`);
}

/** The name an `Image` cell gives a stored image: the path it came with, else `<sha256>.<ext>`. */
function imageName(part: ImagePart): string {
  const origin = part.origin;
  if (origin.kind === 'path') return origin.path;
  if (origin.kind === 'column' && origin.path) return origin.path;
  return `${part.image!.sha256}.${imageExtension(part.image!.mime)}`;
}

function allImages(item: ItemRecord): ImagePart[] {
  return [...promptParts(item.prompt).images, ...item.responses.flatMap((r) => responseImages(r.content))];
}

/**
 * The deciding ranking of an item for VL-RewardBench's ranks: a pair's choice first (ties and both-bad
 * left out, as in every pairwise export), else a ranking of all its responses.
 */
function decidedRanking(count: number, pairwise: readonly HeadLabel[], rankings: readonly HeadLabel[], annotator?: string): { groups: number[][] } | { skip: 'unlabeled' | 'tie' | 'both_bad' | 'conflict' | 'not_pairwise' | 'not_adjudicated' | 'low_agreement' } {
  if (count < 2) return { skip: 'not_pairwise' };
  if (count === 2) {
    const d = decide(2, pairwise, annotator);
    if (!d.skip) return { groups: [[d.winner], [1 - d.winner]] };
    if (d.skip !== 'unlabeled') return { skip: d.skip };
  }
  const r = decideRanking(rankings, annotator);
  if (r.skip) return { skip: r.skip };
  return { groups: r.ranking };
}

/** A Pick-a-Pic row: two responses of one image each, the choice (a tie is 0.5 / 0.5), the bytes from the store. */
async function pickapicRow(item: ItemRecord, heads: readonly HeadLabel[], store: string, pass: VisionPass, leftOut: LeftOut) {
  if (item.responses.length !== 2) {
    pass.skipped.not_pairwise++;
    return null;
  }
  const d = decide(2, heads, pass.annotator);
  let choice: 'A' | 'B' | 'tie';
  if (!d.skip) choice = d.winner === 0 ? 'A' : 'B';
  else if (d.skip === 'tie') choice = 'tie';
  else {
    pass.skipped[d.skip]++;
    return null;
  }
  const parts = item.responses.map((r) => responseImages(r.content));
  if (parts.some((p) => p.length !== 1)) {
    leftOut.add('a Pick-a-Pic row is two generated images, and a response is not exactly one image', item);
    return null;
  }
  const refs = parts.map((p) => p[0]!.image);
  if (!refs[0] || !refs[1]) {
    leftOut.add('an image is not available offline (an http URL never fetched), and a Pick-a-Pic row carries the bytes', item);
    return null;
  }
  const bytes = await Promise.all(refs.map((ref) => storedBytes(store, ref!, nameOf(item))));
  return encodePickapic({ item, choice, images: [{ bytes: bytes[0]!, sha256: refs[0].sha256 }, { bytes: bytes[1]!, sha256: refs[1].sha256 }] });
}

/** The vision benchmarks' writer: the benchmark's own shape, its images beside the file or in Parquet cells. */
export const visionWriter: FormatWriter = {
  open: (db, format, out) => openVisionWriter(db, format as VisionExport, out),
  write: (run) => writeVision(run.db, { ...itemPass(run), format: run.format as VisionExport, rankingPairs: run.opts.rankingPairs ?? 'all' }),
};
