// VideoGen-RewardBench / VideoAlign pair CSV: its descriptor (../registry.ts says what one holds and how to add a format).
import type { FormatDescriptor } from '../descriptor';
import { parseVideoAlign } from './videoAlign';
import { videoAlignWriter } from './videoAlignExport';

export const descriptor: FormatDescriptor = {
  name: 'videoalign',
  family: 'videos',
  title: 'VideoGen-RewardBench / VideoAlign pairs (CSV)',
  detect: {
    rank: 390,
    why: (record) => ('path_A' in record && 'path_B' in record && 'prompt' in record ? '"path_A", "path_B" and "prompt" (a VideoAlign pair CSV)' : null),
  },
  parse: parseVideoAlign,
  write: () => videoAlignWriter,
  carries: 'content',
  doc: {
    source: 'KwaiVGI VideoAlign / VideoGen-RewardBench',
    keeps: 'both videos (byte for byte, beside the CSV), models, VQ / MQ / TA / Overall winners, fps and frame counts, other columns',
    loses: 'the videos’ original file names (written as <stem>_images/<sha256>.<ext>)',
  },
};
