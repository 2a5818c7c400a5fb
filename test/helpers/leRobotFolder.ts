// A small LeRobot v2.1 dataset folder made at test time, laid out as LeRobot writes one (meta/info.json with
// the data_path and video_path templates, meta/episodes.jsonl, meta/tasks.jsonl, a Parquet file of frames
// per episode with `next.success`, one mp4 per camera made by ffmpeg: ./videoClips.ts).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { makeClip } from './videoClips';

export const CAMERAS = ['observation.images.top', 'observation.images.wrist'] as const;
export const TASK = 'Pick up the red cube and place it in the bowl.';

export const episodeName = (i: number) => `episode_${String(i).padStart(6, '0')}`;

/** Writes the dataset at `root`: `successes[i]` is episode i's last `next.success`. Returns `root`. */
export function makeLeRobotFolder(root: string, successes: boolean[], frames = 24): string {
  mkdirSync(join(root, 'meta'), { recursive: true });
  const info = {
    codebase_version: 'v2.1',
    robot_type: 'so101',
    total_episodes: successes.length,
    fps: 24,
    chunks_size: 1000,
    data_path: 'data/chunk-{episode_chunk:03d}/episode_{episode_index:06d}.parquet',
    video_path: 'videos/chunk-{episode_chunk:03d}/{video_key}/episode_{episode_index:06d}.mp4',
    features: {
      [CAMERAS[0]]: { dtype: 'video', shape: [48, 64, 3] },
      [CAMERAS[1]]: { dtype: 'video', shape: [48, 64, 3] },
      action: { dtype: 'float32', shape: [6] },
      'next.success': { dtype: 'bool', shape: [1] },
    },
  };
  writeFileSync(join(root, 'meta', 'info.json'), JSON.stringify(info, null, 2));
  writeFileSync(join(root, 'meta', 'tasks.jsonl'), JSON.stringify({ task_index: 0, task: TASK }) + '\n');
  writeFileSync(join(root, 'meta', 'episodes.jsonl'), successes.map((_, i) => JSON.stringify({ episode_index: i, tasks: [TASK], length: frames })).join('\n') + '\n');
  mkdirSync(join(root, 'data', 'chunk-000'), { recursive: true });
  successes.forEach((success, episode) => {
    const columnData = [
      { name: 'frame_index', data: Array.from({ length: frames }, (_, i) => i), type: 'INT32' as const },
      { name: 'next.success', data: Array.from({ length: frames }, (_, i) => success && i === frames - 1), type: 'BOOLEAN' as const },
    ];
    writeFileSync(join(root, 'data', 'chunk-000', `${episodeName(episode)}.parquet`), Buffer.from(parquetWriteBuffer({ columnData })));
    for (const camera of CAMERAS) {
      mkdirSync(join(root, 'videos', 'chunk-000', camera), { recursive: true });
      makeClip(join(root, 'videos', 'chunk-000', camera), `${episodeName(episode)}.mp4`, { codec: 'h264', fps: 24, seconds: 1, source: camera.endsWith('top') ? 'testsrc2' : `color=c=0x${(0x336699 + episode * 0x111111).toString(16).slice(-6)}` });
    }
  });
  return root;
}
