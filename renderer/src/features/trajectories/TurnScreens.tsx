// The screenshots of a turn on its card: each image where its message is (the page before the action in
// the turn's context, the page after it in a result), fitted to the card by ImageView. The screenshot the
// turn's action was taken on (shared/guiActions.ts turnScreens: the last image before the action message)
// carries the action drawn on it (ActionOverlay.tsx) and a line saying it in words, with how its
// coordinates were read; when that screenshot is an earlier turn's result (a computer-use run, where the
// screenshot comes back from the tool), the card shows it again above the action, marked.
import { createContext, useContext, useMemo } from 'react';
import type { ScreenRef } from '../../../../shared/guiActions';
import { actionWords } from '../../../../shared/guiActions';
import type { ImagePlace } from '../../../../shared/images';
import { ShellContext } from '../../context';
import { ImageView } from '../../components/images/ImageView';
import { useImageOverlay } from '../../components/images/overlay';
import { actionOverlay, placeActions } from './ActionOverlay';
import type { TurnView } from './turnModel';

/** Where the trajectory's images sit in the item (its response index): the step screen and the compare columns give it. */
export const TurnPlace = createContext<ImagePlace>(0);

const same = (a: ScreenRef | null, b: ScreenRef) => a !== null && a.message === b.message && a.part === b.part;

/** One image of the turn; the one its action was taken on, marked. */
function TurnImage({ view, screen }: { view: TurnView; screen: ScreenRef }) {
  const project = useContext(ShellContext)?.project ?? null;
  const place = useContext(TurnPlace);
  const marked = view.actions.length > 0 && same(view.screens.before, screen);
  const inherited = useImageOverlay(null);
  const overlay = useMemo(() => (marked ? actionOverlay(view.actions, inherited) : null), [marked, view.actions, inherited]);
  return (
    <div className="flex flex-col gap-1" data-testid="turn-screen" data-marked={marked} data-sha={screen.image.image?.sha256 ?? ''}>
      <ImageView project={project} part={screen.image} place={place} overlay={overlay} />
      {marked && screen.image.image && <ActionWords view={view} size={screen.image.image} />}
    </div>
  );
}

/** The turn's actions in words, and how their coordinates were read (or that one is off the screenshot). */
function ActionWords({ view, size }: { view: TurnView; size: { width: number; height: number } }) {
  const placed = placeActions(view.actions, size);
  return (
    <ul className="flex flex-col text-[12.5px] text-muted" data-testid="gui-action-words">
      {placed.map((p, i) => (
        <li key={i}>
          <span className="font-medium text-fg">{actionWords(p.action)}</span>
          {p.units && <span className="text-faint"> · {p.unitsWhy}</span>}
          {p.outside && (
            <span className="font-medium text-bad" data-testid="gui-action-outside">
              {' '}
              · ⚠ {p.outside}
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}

/** The images of one message of the turn (its context or a result), in order. */
export function MessageImages({ view, message }: { view: TurnView; message: number }) {
  const screens = view.images.filter((s) => s.message === message);
  if (!screens.length) return null;
  return (
    <div className="flex flex-col gap-2">
      {screens.map((s) => (
        <TurnImage key={s.part} view={view} screen={s} />
      ))}
    </div>
  );
}

/** The screenshot the action was taken on, when it is an earlier turn's: shown again here, marked. */
export function ActedOnScreen({ view }: { view: TurnView }) {
  const before = view.screens.before;
  if (!before || before.inTurn || !view.actions.length) return null;
  return (
    <div className="flex flex-col gap-1" data-testid="turn-acted-on">
      <div className="text-[11px] font-semibold tracking-wide text-faint uppercase">Screen the action was taken on · the previous screenshot</div>
      <TurnImage view={view} screen={before} />
    </div>
  );
}
