// Images an export writes beside its file: `<out stem>_images/<sha256>.<ext>`, named in the records by
// that path relative to the output's folder (forward slashes, as the datasets write them), each image
// once, its bytes copied from the image store as they are. They go to `<folder>.partial` first and take
// the folder's place on commit, before the records file does, so a finished file never points at images
// that are not there; abort leaves nothing. `ImagesBesideWriter` ties the folder to a records writer.
import { copyFile, mkdir, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { invalidInput } from '../../base/errors';
import type { ImagePart, ImageRef } from '../../../../shared/images';
import { hasImage, imageFile } from '../../images/store';
import type { RecordWriter } from '../jsonl';

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/bmp': 'bmp',
  'image/tiff': 'tif',
  'image/svg+xml': 'svg',
  'image/avif': 'avif',
  'image/heic': 'heic',
  'image/x-icon': 'ico',
  'image/vnd.microsoft.icon': 'ico',
};

/** The file ending for an image's type (`bin` for a type Arbiter has no name for). */
export function imageExtension(mime: string): string {
  return EXTENSIONS[mime] ?? 'bin';
}

/** `data/pairs.jsonl` → `pairs`; `pairs.jsonl.gz` → `pairs`. */
export function outStem(out: string): string {
  const name = basename(out);
  const stem = name.replace(/(\.[A-Za-z0-9]+)?(\.gz)?$/, '');
  return stem || name;
}

/** An image's bytes from the store, or an error naming the item and the image when the store has lost them. */
export async function storedBytes(store: string, ref: ImageRef, itemName: string): Promise<Uint8Array> {
  try {
    return await readFile(imageFile(store, ref.sha256));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw missing(store, ref, itemName);
    throw error;
  }
}

function missing(store: string, ref: ImageRef, itemName: string) {
  return invalidInput(
    `Item ${itemName} holds the image ${ref.sha256.slice(0, 12)}…, which is not in the image store (${store}); nothing was written. Import the item's file again to put its images back, then export.`,
  );
}

export class ImageFiles {
  /** The folder's name relative to the output's folder. */
  readonly folderName: string;
  private readonly folder: string;
  private readonly partial: string;
  private readonly written = new Set<string>();
  private made = false;

  constructor(
    out: string,
    private readonly store: string,
  ) {
    this.folderName = `${outStem(out)}_images`;
    this.folder = join(dirname(out), this.folderName);
    this.partial = `${this.folder}.partial`;
  }

  /** How many images were written. */
  get count(): number {
    return this.written.size;
  }

  /** Writes the stored image once and returns its path relative to the output's folder. */
  async place(ref: ImageRef, itemName: string): Promise<string> {
    const name = `${ref.sha256}.${imageExtension(ref.mime)}`;
    if (!this.written.has(ref.sha256)) {
      if (!this.made) {
        await rm(this.partial, { recursive: true, force: true });
        await mkdir(this.partial, { recursive: true });
        this.made = true;
      }
      if (!hasImage(this.store, ref.sha256)) throw missing(this.store, ref, itemName);
      await copyFile(imageFile(this.store, ref.sha256), join(this.partial, name));
      this.written.add(ref.sha256);
    }
    return `${this.folderName}/${name}`;
  }

  /** The path a part goes by in the file: where its image was written, else the URL it was kept as. */
  async pathOf(part: ImagePart, itemName: string): Promise<string | null> {
    if (part.image) return this.place(part.image, itemName);
    return part.origin.kind === 'url' ? part.origin.url : null;
  }

  /** Puts the folder in place (an older one of the same name goes). */
  async commit(): Promise<void> {
    if (!this.made) return;
    await rm(this.folder, { recursive: true, force: true });
    await rename(this.partial, this.folder);
  }

  async abort(): Promise<void> {
    if (this.made) await rm(this.partial, { recursive: true, force: true });
  }
}

/** A records writer whose records name images written beside it: both are put in place together. */
export class ImagesBesideWriter implements RecordWriter {
  constructor(
    private readonly records: RecordWriter,
    readonly images: ImageFiles,
  ) {}

  get lines(): number {
    return this.records.lines;
  }

  write(value: unknown): Promise<void> | void {
    return this.records.write(value);
  }

  async commit(): Promise<void> {
    await this.images.commit();
    await this.records.commit();
  }

  async abort(): Promise<void> {
    await Promise.all([this.records.abort(), this.images.abort()]);
  }
}
