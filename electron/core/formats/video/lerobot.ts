// LeRobot dataset episodes (huggingface/lerobot v2.x) as robot trajectories to judge: the folder's records
// come from ../sources/lerobot.ts, one per episode. The item's prompt is the episode's task text; its one
// response is the episode, every camera's video in it (so the screen plays them together on one clock),
// named by the camera's feature key. The episode's success, where the dataset records it, is the `source`
// annotator's verdict (good = success), with the episode's first failure (seconds; null: it never fails)
// where meta/episodes.jsonl gives one (`first_failure`, as ./lerobotExport.ts writes it back). An episode
// whose files are damaged (`damaged`, said by ../sources/lerobot.ts) is refused with that sentence.
import { RecordError, type ParsedRecord, type SourceJudgement } from '../types';

export function parseLeRobot(record: Record<string, unknown>): ParsedRecord {
  const index = record.lerobot_episode;
  if (!Number.isInteger(index) || (index as number) < 0) throw new RecordError('episode_index: expected a whole number (0 or more)');
  if (typeof record.damaged === 'string') throw new RecordError(`episode ${index as number}: ${record.damaged}`);
  const failure = record.first_failure;
  if (failure !== undefined && failure !== null && !(typeof failure === 'number' && Number.isFinite(failure) && failure >= 0 && failure <= 7 * 24 * 3600))
    throw new RecordError('first_failure: expected seconds into the episode (a number, 0 or more) or null');
  const tasks = Array.isArray(record.tasks) ? record.tasks.filter((t): t is string => typeof t === 'string' && t.trim() !== '') : [];
  const cameras = record.cameras !== null && typeof record.cameras === 'object' ? (record.cameras as Record<string, unknown>) : {};
  const keys = Object.keys(cameras).filter((k) => typeof cameras[k] === 'string');
  if (!keys.length) throw new RecordError('the dataset’s meta/info.json names no camera (no feature of dtype "video")');
  const length = Number.isInteger(record.length) ? (record.length as number) : null;
  // info.json's fps as the dataset gives it: only a positive number is one (anything else is left out).
  const fps = typeof record.fps === 'number' && Number.isFinite(record.fps) && record.fps > 0 ? record.fps : null;
  const content = [
    { type: 'text', text: `Episode ${index as number}${length !== null ? ` · ${length} frames` : ''}${fps !== null ? ` at ${fps} fps` : ''} · ${keys.length === 1 ? 'one camera' : `${keys.length} cameras`}` },
    ...keys.map((key, i) => ({ type: 'video', video: cameras[key], column: key, index: i })),
  ];
  const body = failure === undefined ? {} : { first_failure: { A: failure as number | null } };
  const judgement: SourceJudgement | null = typeof record.success === 'boolean' ? { task: 'verdict', choice: record.success ? 'good' : 'bad', body } : null;
  return {
    draft: {
      externalId: `episode_${String(index).padStart(6, '0')}`,
      prompt: tasks.length ? tasks.join('\n') : `Episode ${index as number} (the dataset gives no task text)`,
      responses: [{ content: [{ role: 'assistant', content }], model: typeof record.robot_type === 'string' ? record.robot_type : null, steps: null }],
      reference: null,
      metadata: { episode_index: index, length, fps, cameras: keys, success: record.success ?? null },
    },
    preference: null,
    judgement,
  };
}
