// Videos written beside an export: each stored video copied once, byte for byte (the OS copies the file;
// nothing is read into memory), into `<stem>_images/<sha256>.<ext>` (the folder image exports use, so the
// browser host's download zips it with the file: electron/host/downloads.ts). The folder is written as
// `…_images.partial` and put in place with the file on commit; an abort leaves nothing.
// VideosBesideWriter: JSON Lines whose stored video parts become {"type": "video"} placeholders, their
// paths in a `videos` column, as TRL's vision-language data names its images; a video part that is a
// top-level field's whole value (Video-R1's `path`) becomes the path itself.
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { basename } from 'node:path';
import { join } from 'node:path';
import type { ContentPart } from '../../../../shared/domain';
import { isVideoPart, type VideoRef } from '../../../../shared/videos';
import { JsonlWriter } from '../jsonl';
import type { RecordWriter } from '../recordWriter';
import { imagesFolderOf } from '../vision/imagesBeside';
import { videoFile } from '../../videos/store';

const EXTENSIONS: Record<string, string> = { 'video/mp4': 'mp4', 'video/quicktime': 'mov', 'video/webm': 'webm', 'video/x-matroska': 'mkv' };

export class VideoFiles {
  private readonly copied = new Set<string>();
  readonly folder: string;
  private readonly partial: string;

  constructor(
    out: string,
    private readonly store: string,
  ) {
    this.folder = imagesFolderOf(out);
    this.partial = `${this.folder}.partial`;
  }

  /** The path (relative to the output) the file names video `ref` by; its bytes are copied once. */
  pathOf(ref: VideoRef): string {
    const name = `${ref.sha256}.${EXTENSIONS[ref.mime] ?? 'bin'}`;
    if (!this.copied.has(name)) {
      mkdirSync(this.partial, { recursive: true });
      copyFileSync(videoFile(this.store, ref.sha256), join(this.partial, name));
      this.copied.add(name);
    }
    return `${basename(this.folder)}/${name}`;
  }

  commit(): void {
    if (!existsSync(this.partial)) return;
    rmSync(this.folder, { recursive: true, force: true });
    renameSync(this.partial, this.folder);
  }

  abort(): void {
    rmSync(this.partial, { recursive: true, force: true });
  }
}

/** JSON Lines whose stored video parts are written as placeholders with their paths in `videos`. */
export class VideosBesideWriter implements RecordWriter {
  private constructor(
    private readonly records: JsonlWriter,
    readonly videos: VideoFiles,
  ) {}

  static async open(out: string, store: string): Promise<VideosBesideWriter> {
    return new VideosBesideWriter(await JsonlWriter.open(out), new VideoFiles(out, store));
  }

  get lines(): number {
    return this.records.lines;
  }

  write(record: unknown): Promise<void> | void {
    const paths: string[] = [];
    const swap = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(swap);
      if (value === null || typeof value !== 'object') return value;
      if (isVideoPart(value)) {
        if (!value.video) return { type: 'video_url', video_url: { url: value.origin.kind === 'url' ? value.origin.url : '' } };
        paths.push(this.videos.pathOf(value.video));
        return { type: 'video' } satisfies ContentPart;
      }
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, swap(v)]));
    };
    const top = record !== null && typeof record === 'object' && !Array.isArray(record) ? (record as Record<string, unknown>) : null;
    const direct = top ? Object.fromEntries(Object.entries(top).map(([k, v]) => [k, isVideoPart(v) && v.video ? this.videos.pathOf(v.video) : v])) : record;
    const row = swap(direct) as Record<string, unknown>;
    return this.records.write(paths.length ? { ...row, videos: paths } : row);
  }

  async commit(): Promise<void> {
    this.videos.commit();
    await this.records.commit();
  }

  async abort(): Promise<void> {
    this.videos.abort();
    await this.records.abort();
  }
}
