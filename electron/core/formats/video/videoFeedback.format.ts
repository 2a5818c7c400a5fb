// VideoFeedback / VideoScore multi-aspect ratings: its descriptor (../registry.ts says what one holds and how to add a format).
import { imageStoreOf } from '../../images/store';
import { videoStoreDir } from '../../videos/store';
import type { FormatDescriptor } from '../descriptor';
import { VideosBesideWriter } from './videoFiles';
import { parseVideoFeedback } from './videoFeedback';

export const descriptor: FormatDescriptor = {
  name: 'videofeedback',
  family: 'videos',
  title: 'VideoFeedback / VideoScore multi-aspect ratings (JSON, JSONL, Parquet)',
  detect: {
    rank: 387,
    why: (record) => ('text prompt' in record && 'video link' in record ? '"text prompt" and "video link" (VideoFeedback rows)' : null),
  },
  parse: parseVideoFeedback,
  write: (passes) => ({ ...passes.judged, open: async (db, _format, out) => VideosBesideWriter.open(out, videoStoreDir(imageStoreOf(db))) }),
  carries: 'content',
  doc: {
    source: 'TIGER-Lab VideoFeedback (the VideoScore model’s aspects)',
    keeps: 'the five aspect scores (1–4) as ratings, the video (byte for byte, beside the file), id, frames list, conversations, other fields in their places',
    loses: 'the video’s original file name (written as <stem>_images/<sha256>.<ext>)',
  },
};
