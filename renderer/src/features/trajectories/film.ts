// The filmstrip's frames (Filmstrip.tsx), worked out from a trajectory's turn model: pure.
import { actionWords, placeAction } from '../../../../shared/guiActions';
import type { ImagePart } from '../../../../shared/images';
import type { TrajectoryView } from './turnModel';

export interface Frame {
  /** The turn's screenshot, or null when it has none. */
  image: ImagePart | null;
  /** Where its action is, in fractions of the image (a click's point, a box's centre), when it has one. */
  point: [number, number] | null;
  /** The action in a few words, for the frame's title. */
  words: string;
}

/** A frame per turn, or null when no turn has a screenshot (the strip is for GUI agents' trajectories). */
export function filmFrames(view: TrajectoryView): Frame[] | null {
  const frames = view.turns.map((t): Frame => {
    const screen = t.screens.before ?? t.images[0] ?? null;
    const image = screen?.image ?? null;
    const first = t.actions[0];
    const placed = first && image?.image ? placeAction(first, image.image) : null;
    return { image, point: placed?.point ?? null, words: t.actions.map((a) => actionWords(a)).join('; ') };
  });
  return frames.some((f) => f.image) ? frames : null;
}
