// JSON Lines whose rows name their images by files written beside the output (`<out stem>_images/
// <sha256>.<ext>`, ./imageFiles.ts), for encoders that hand over rows holding stored image parts: each
// top-level field that is an image part (or a list of them) becomes the path(s), relative to the file.
// `moveImagesBeside` moves such an export and its folder to another name (the desktop save dialog),
// rewriting the paths to the new folder's name; `imagesFolderOf` says where the folder of a file is.
import { cp, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { isImagePart, type ImagePart } from '../../../../shared/images';
import { JsonlWriter, readLines, type RecordWriter } from '../jsonl';
import { ImageFiles, ImagesBesideWriter, outStem } from './imageFiles';
import { ROW_ITEM } from './rows';

/** The images folder beside an output file: `/data/x.jsonl` → `/data/x_images`. */
export function imagesFolderOf(out: string): string {
  return join(dirname(out), `${outStem(out)}_images`);
}


/** Rows whose image parts become paths to files beside the output. A null row is left out (the encoder left its pair out). */
export class ImagePathsWriter extends ImagesBesideWriter {
  static async open(out: string, store: string): Promise<ImagePathsWriter> {
    return new ImagePathsWriter(await JsonlWriter.open(out), new ImageFiles(out, store));
  }

  override async write(row: unknown): Promise<void> {
    if (row === null || row === undefined) return;
    const item = String((row as { [ROW_ITEM]?: unknown })[ROW_ITEM] ?? 'of this export');
    const place = (part: ImagePart) => this.images.place(part.image!, item);
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(row as Record<string, unknown>)) {
      if (isImagePart(value) && value.image) out[key] = await place(value);
      else if (Array.isArray(value) && value.length && value.every((v) => isImagePart(v) && v.image)) {
        const paths: string[] = [];
        for (const part of value as ImagePart[]) paths.push(await place(part));
        out[key] = paths;
      } else out[key] = value;
    }
    await super.write(out);
  }
}

/** Whether a writer puts images beside its file (the export then has a folder as well as a file). */
export function writesImagesBeside(writer: RecordWriter): boolean {
  return writer instanceof ImagesBesideWriter;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/**
 * Moves a JSON Lines export and its images folder to another name. The rows' image paths start with the
 * folder's name, so they are rewritten to the new one, in top-level string fields and lists of strings
 * (where the writers put them). Without a folder the file is only moved (the caller's job).
 */
export async function moveImagesBeside(from: string, to: string): Promise<void> {
  const fromFolder = imagesFolderOf(from);
  const toFolder = imagesFolderOf(to);
  const oldPrefix = `${outStem(from)}_images/`;
  const newPrefix = `${outStem(to)}_images/`;
  const swap = (value: unknown): unknown => (typeof value === 'string' && value.startsWith(oldPrefix) ? newPrefix + value.slice(oldPrefix.length) : value);
  const writer = await JsonlWriter.open(to);
  try {
    for await (const line of readLines(from)) {
      if (line === '') continue;
      const row = JSON.parse(line) as Record<string, unknown>;
      for (const [key, value] of Object.entries(row)) row[key] = Array.isArray(value) ? value.map(swap) : swap(value);
      const pending = writer.write(row);
      if (pending) await pending;
    }
    if (await exists(fromFolder)) {
      const partial = `${toFolder}.partial`;
      await rm(partial, { recursive: true, force: true });
      await moveFolder(fromFolder, partial);
      await rm(toFolder, { recursive: true, force: true });
      await moveFolder(partial, toFolder);
    }
    await writer.commit();
  } catch (error) {
    await writer.abort();
    throw error;
  }
  await rm(from, { force: true });
}

async function moveFolder(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    // Another disk: rename cannot cross it.
    await cp(from, to, { recursive: true, errorOnExist: true });
    await rm(from, { recursive: true, force: true });
  }
}
