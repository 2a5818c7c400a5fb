// The turn cards' model for a GUI agent's trajectory (renderer/src/features/trajectories/turnModel.ts and
// Filmstrip.tsx filmFrames): each turn's screen actions, the screenshot they are drawn on, every image of
// the turn, image parts kept out of the text, and a filmstrip frame per turn (null for a text trajectory).
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../shared/domain';
import { filmFrames } from '../../renderer/src/features/trajectories/film';
import { trajectoryView } from '../../renderer/src/features/trajectories/turnModel';

const m = (message: Record<string, unknown>) => message as unknown as ChatMessage;
const image = (sha: string) => ({ type: 'image', image: { sha256: sha.padEnd(64, '0'), mime: 'image/png', width: 1000, height: 500, bytes: 100 }, origin: { kind: 'inline' } });

describe('turnModel for GUI agents', () => {
  it('Mind2Web layout: the screenshot in the turn’s context carries the action; frames give its point', () => {
    const messages = [
      m({ role: 'user', content: [image('a')] }),
      m({ role: 'assistant', content: '[button] Go -> CLICK', tool_calls: [{ id: 's1', type: 'function', function: { name: 'click', arguments: { op: 'CLICK', value: '', bounding_box_rect: '100,100,200,100' } } }] }),
      m({ role: 'user', content: [{ type: 'text', text: 'The page after.' }, image('b')] }),
      m({ role: 'assistant', content: 'Done.' }),
    ];
    const view = trajectoryView(messages);
    const [first, second] = view.turns;
    expect(first!.actions).toEqual([{ kind: 'click', box: [100, 100, 300, 200], source: 'Mind2Web operation' }]);
    expect(first!.screens.before).toMatchObject({ message: 0, part: 0, inTurn: true });
    expect(first!.images.map((s) => [s.message, s.part])).toEqual([[0, 0]]);
    expect(first!.context).toEqual([{ role: 'user', text: '', message: 0 }]);
    // The text of a message with an image is its text parts only; the image is drawn, not named.
    expect(second!.context).toEqual([{ role: 'user', text: 'The page after.', message: 2 }]);
    expect(second!.actions).toEqual([]);
    const frames = filmFrames(view)!;
    expect(frames.map((f) => f.image?.image?.sha256.slice(0, 1))).toEqual(['a', 'b']);
    expect(frames[0]!.point![0]).toBeCloseTo(0.2);
    expect(frames[0]!.point![1]).toBeCloseTo(0.3);
    expect(frames[0]!.words).toBe('click in the box (100, 100)–(300, 200)');
    expect(frames[1]!.point).toBeNull();
  });

  it('a computer-use run: the click turn is drawn on the previous tool result; a text trajectory has no filmstrip', () => {
    const messages = [
      m({ role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'computer', arguments: { action: 'screenshot' } } }] }),
      m({ role: 'tool', tool_call_id: 'c1', content: [image('c')] }),
      m({ role: 'assistant', content: null, tool_calls: [{ id: 'c2', type: 'function', function: { name: 'computer', arguments: { action: 'left_click', coordinate: [500, 250] } } }] }),
      m({ role: 'tool', tool_call_id: 'c2', content: 'clicked' }),
    ];
    const view = trajectoryView(messages);
    expect(view.turns[0]!.results[0]!.text).toBe('');
    expect(view.turns[1]!.screens.before).toMatchObject({ message: 1, inTurn: false });
    expect(filmFrames(view)!.map((f) => f.point)).toEqual([null, [0.5, 0.5]]);
    expect(filmFrames(trajectoryView([m({ role: 'assistant', content: 'Hi.' })]))).toBeNull();
  });
});
