// Video question answering with a reasoning chain (Video-R1's shape): its descriptor (../registry.ts says
// what one holds and how to add a format).
import { imageStoreOf } from '../../images/store';
import { videoStoreDir } from '../../videos/store';
import type { FormatDescriptor } from '../descriptor';
import { VideosBesideWriter } from './videoFiles';
import { encodeVideoQa, parseVideoQa } from './videoQa';

export const descriptor: FormatDescriptor = {
  name: 'video-qa',
  family: 'videos',
  title: 'Video question answering with a reasoning chain (Video-R1, JSONL)',
  detect: {
    rank: 385,
    why: (record) => ('problem' in record && typeof record.path === 'string' && 'process' in record && (record.data_type === 'video' || /\.(mp4|webm|mov|mkv|avi)$/i.test(record.path)) ? '"problem", a video "path" and its reasoning "process"' : null),
  },
  parse: parseVideoQa,
  write: (passes) => ({ ...passes.steps(encodeVideoQa), open: async (db, _format, out) => VideosBesideWriter.open(out, videoStoreDir(imageStoreOf(db))) }),
  carries: 'content',
  doc: {
    source: 'Video-R1 (tulerfeng/Video-R1) chain-of-thought data',
    keeps: 'the video (byte for byte, beside the file), question, options, reasoning steps, answer, step labels, other fields',
    loses: 'the reasoning’s own line breaks inside a step',
  },
};
