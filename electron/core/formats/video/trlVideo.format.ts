// Text-to-video preference JSONL (TRL's vision-language layout with videos): its descriptor (../registry.ts
// says what one holds and how to add a format).
import { imageStoreOf } from '../../images/store';
import { videoStoreDir } from '../../videos/store';
import type { FormatDescriptor } from '../descriptor';
import { encodeTrlVideo, holdsVideoParts, parseTrlVideo } from './trlVideo';
import { VideosBesideWriter } from './videoFiles';

export const descriptor: FormatDescriptor = {
  name: 'trl-video',
  family: 'videos',
  title: 'Text-to-video preference (TRL layout, JSONL)',
  detect: {
    rank: 392,
    why: (record) =>
      'chosen' in record && 'rejected' in record && (Array.isArray(record.videos) || holdsVideoParts(record.prompt, record.chosen, record.rejected))
        ? '"chosen" and "rejected" messages holding videos (video_url parts, or {"type": "video"} with a "videos" column)'
        : null,
  },
  parse: parseTrlVideo,
  write: (passes) => ({ ...passes.pairs(encodeTrlVideo, false), open: async (db, _format, out) => VideosBesideWriter.open(out, videoStoreDir(imageStoreOf(db))) }),
  carries: 'content',
  doc: {
    source: 'Hugging Face TRL (vision-language preference), with videos',
    keeps: 'messages with their parts, every video byte for byte (beside the file, named in "videos")',
    loses: 'models, strength, metadata; the videos’ original file names (written as <stem>_images/<sha256>.<ext>)',
  },
};
