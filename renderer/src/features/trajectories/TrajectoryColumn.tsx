// A trajectory in a compare-screen column: its turns as compact cards, numbered, long results folded
// (a click on the fold line unfolds one turn). Cards off screen are skipped by the browser
// (content-visibility), so a long run costs little to lay out and paint.
import { memo, useCallback, useContext, useMemo, useRef, useState } from 'react';
import type { ChatMessage } from '../../../../shared/domain';
import { ShellContext } from '../../context';
import { Filmstrip, filmFrames } from './Filmstrip';
import { TurnCard } from './TurnCard';
import { TurnPlace } from './TurnScreens';
import { trajectoryCounts, trajectoryView } from './turnModel';
import { useUnfolded } from './useUnfolded';

export const TrajectoryColumn = memo(function TrajectoryColumn({ messages, at }: { messages: ChatMessage[]; at: string }) {
  const view = useMemo(() => trajectoryView(messages), [messages]);
  const fold = useUnfolded(at);
  const errors = view.turns.filter((t) => t.error).length;
  // A GUI agent's screenshots: a frame per turn; a click brings that turn's card into view.
  const project = useContext(ShellContext)?.project ?? null;
  const film = useMemo(() => filmFrames(view), [view]);
  // The frame picked, for this item and response only: another item starts at its first frame.
  const [pickedAt, setPickedAt] = useState<{ at: string; index: number }>({ at, index: 0 });
  const picked = pickedAt.at === at ? pickedAt.index : 0;
  const list = useRef<HTMLOListElement>(null);
  const pick = useCallback(
    (i: number) => {
      setPickedAt({ at, index: i });
      list.current?.querySelector(`:scope > li[data-index="${i}"]`)?.scrollIntoView({ block: 'start' });
    },
    [at],
  );
  // `at` is "<item>:<response index>": where the images sit in the item.
  const place = Number(at.slice(at.lastIndexOf(':') + 1)) || 0;
  return (
    <TurnPlace.Provider value={place}>
    <div className="flex flex-col gap-2" data-testid="trajectory-column">
      {film && <Filmstrip project={project} frames={film} cursor={picked} onPick={pick} />}
      <div className="text-[12px] text-faint" data-testid="trajectory-summary">
        {trajectoryCounts(view)}
        {errors > 0 && (
          <span className="text-bad">
            {' '}
            · ⚠ {errors} {errors === 1 ? 'turn' : 'turns'} with an error
          </span>
        )}
      </div>
      <ol ref={list} className="flex flex-col gap-2">
        {view.turns.map((t, i) => (
          <li
            key={t.turn.id}
            className={`flex gap-2.5 rounded-md border px-2.5 py-2 [contain-intrinsic-size:auto_160px] [content-visibility:auto] ${t.error ? 'border-bad/40' : 'border-line'}`}
            data-testid="compare-turn"
            data-index={i}
          >
            <span className="w-5 shrink-0 pt-[2px] text-right text-[12px] font-semibold text-faint tabular-nums" aria-label={`Turn ${i + 1}`}>
              {i + 1}
            </span>
            <div className="min-w-0 flex-1">
              <TurnCard view={t} open={fold.unfolded.has(i)} index={i} onToggle={fold.toggle} compact />
            </div>
          </li>
        ))}
      </ol>
    </div>
    </TurnPlace.Provider>
  );
});
