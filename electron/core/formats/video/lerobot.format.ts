// LeRobot dataset episodes: its descriptor (../registry.ts says what one holds and how to add a format).
import type { FormatDescriptor } from '../descriptor';
import { parseLeRobot } from './lerobot';
import { leRobotWriter } from './lerobotExport';

export const descriptor: FormatDescriptor = {
  name: 'lerobot',
  family: 'videos',
  title: 'LeRobot dataset episodes (a dataset folder)',
  detect: {
    rank: 380,
    why: (record) => ('lerobot_episode' in record && 'cameras' in record ? 'a LeRobot dataset folder (meta/info.json, meta/episodes.jsonl)' : null),
  },
  parse: parseLeRobot,
  write: () => leRobotWriter,
  carries: 'content',
  doc: {
    source: 'Hugging Face LeRobot (codebase v2.x)',
    keeps: 'each episode’s task text, every camera’s video (byte for byte), length, fps, robot type; success and the first failure moment as labels (meta/episodes.jsonl)',
    loses: 'the frames’ states and actions (not read at import: the written Parquet files hold the frame index columns), episodes_stats',
  },
};
