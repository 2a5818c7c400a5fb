// The writers of the TRL vision exports (the rows are ./trlVision.ts's): trl-vision writes JSON Lines
// with the images as files beside it (./imagesBeside.ts); trl-vision-parquet, or trl-vision to an output
// named `.parquet`, writes Parquet whose `images` column is a list of the `Image` feature (./hfImage.ts,
// ./storedImages.ts), with the message columns as the Hub's TRL vision sets have them
// (list<struct<role, content: list<struct<type, text>>>>).
import { TRL_VISION_FORMATS, type ExportFormat, type TrlVisionFormat } from '../../../../shared/formatNames';
import type { RecordWriter } from '../recordWriter';
import { imageStoreOf } from '../../images/store';
import { pairWriter } from '../pairs/pairExport';
import type { FormatWriter } from '../descriptor';
import { encodeTrlVision, trlVisionNote } from './trlVision';
import { HF_IMAGE, HF_STRING, hfList, hfStruct, type HfFeature } from './hfImage';
import { ImagePathsWriter } from './imagesBeside';
import { StoredImagesParquetWriter } from './storedImages';

const messageFeature = hfStruct({ role: HF_STRING, content: hfList(hfStruct({ type: HF_STRING, text: HF_STRING })) });

/** trl-vision-parquet's columns: message lists and a list of the `Image` feature. */
export const TRL_VISION_COLUMNS: Record<string, HfFeature> = { prompt: hfList(messageFeature), chosen: hfList(messageFeature), rejected: hfList(messageFeature), images: hfList(HF_IMAGE) };

export function isTrlVisionFormat(format: ExportFormat): format is TrlVisionFormat {
  return (TRL_VISION_FORMATS as readonly string[]).includes(format);
}

/** Whether an export of `format` to `out` is Parquet: trl-vision-parquet, or trl-vision to a `.parquet` name. */
export function trlVisionParquet(format: TrlVisionFormat, out: string): boolean {
  return format === 'trl-vision-parquet' || /\.parquet$/i.test(out);
}

/** The writer of a trl-vision export: Parquet with the Image feature, or JSON Lines with the images beside it. */
export function openTrlVisionWriter(store: string, format: TrlVisionFormat, out: string): Promise<RecordWriter> {
  return trlVisionParquet(format, out) ? StoredImagesParquetWriter.open(out, TRL_VISION_COLUMNS, store) : ImagePathsWriter.open(out, store);
}

/** trl-vision's and trl-vision-parquet's writer: the pair pass, rows whose images go beside the file or in Parquet cells. */
export const trlVisionWriter: FormatWriter = {
  open: (db, format, out) => openTrlVisionWriter(imageStoreOf(db), format as TrlVisionFormat, out),
  write: pairWriter(encodeTrlVision, false).write,
  finish: (notes, format, out) => trlVisionNote(notes, trlVisionParquet(format as TrlVisionFormat, out)),
};
