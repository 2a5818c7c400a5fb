// Messages between the importing thread and the import worker (./worker.ts).
import type { ImportFormat } from '../../../../shared/formatNames';
import type { ImageSources } from '../../images/resolve';
import type { Chunk } from '../sources/chunk';
import type { ChunkResult } from './prepare';

export interface ImportWorkerData {
  format: ImportFormat;
  /** Where the import's images come from (folders) and go (the image store). */
  images: ImageSources;
}

export interface PrepareRequest {
  id: number;
  chunk: Chunk;
  first: boolean;
  validateOnly: boolean;
}

export type ImportWorkerMessage =
  | { type: 'ready' }
  | { type: 'result'; id: number; result: ChunkResult }
  | { type: 'failed'; id: number; message: string };
