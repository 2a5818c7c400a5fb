// What the LeRobot export takes as an episode (electron/core/formats/video/lerobotExport.ts episodeOf): an item
// with one response holding stored videos, its cameras by the column they came from; a pair of clips (a
// VideoAlign item) or a text item is not one. A length from the item's metadata is believed up to
// MAX_EPISODE_FRAMES, else the first camera's frame count.
import { describe, expect, it } from 'vitest';
import type { ItemRecord } from '../../../shared/domain';
import { episodeOf, MAX_EPISODE_FRAMES } from '../../../electron/core/formats/video/lerobotExport';

const ref = (sha: string) => ({ sha256: sha.repeat(64), mime: 'video/mp4', codec: 'h264', width: 64, height: 48, duration: 1, fps: 24, frames: 24, audio: false, bytes: 1000 });
const clip = (sha: string, column?: string) => ({ type: 'video', video: ref(sha), origin: column ? { kind: 'column', column, index: 0 } : { kind: 'path', path: `${sha}.mp4` } });
const response = (...parts: unknown[]) => ({ content: [{ role: 'assistant', content: parts }], model: 'so101', steps: null });
const item = (responses: unknown[], metadata: Record<string, unknown> = {}) => ({ id: 1, uid: 'u', externalId: null, prompt: 'Pick the cube.', responses, reference: null, metadata }) as unknown as ItemRecord;

describe('episodeOf', () => {
  it('takes one response holding videos, cameras named by their column (else video_<i>), the task lines', () => {
    const episode = episodeOf(item([response({ type: 'text', text: 'Episode 0' }, clip('a', 'observation.images.top'), clip('b'))], { length: 30, fps: 30 }), true, 0.5);
    expect(episode).toMatchObject({ tasks: ['Pick the cube.'], length: 30, fps: 30, robotType: 'so101', success: true, firstFailure: 0.5 });
    expect(episode!.cameras.map((c) => c.key)).toEqual(['observation.images.top', 'observation.images.video_1']);
  });

  it('leaves out a pair of clips, an item without stored videos', () => {
    expect(episodeOf(item([response(clip('a')), response(clip('b'))]), null, undefined)).toBeNull();
    expect(episodeOf(item([response({ type: 'text', text: 'hi' })]), null, undefined)).toBeNull();
  });

  it('believes a length up to MAX_EPISODE_FRAMES, else the video’s frame count', () => {
    expect(episodeOf(item([response(clip('a'))], { length: MAX_EPISODE_FRAMES + 1 }), null, undefined)!.length).toBe(24);
    expect(episodeOf(item([response(clip('a'))], { length: -3 }), null, undefined)!.length).toBe(24);
  });
});
