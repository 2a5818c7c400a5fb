// One side of the diff view: the response as written (no markdown), with the words only this side has
// marked in the side's colour and underlined, so the mark does not rest on colour alone.
import { Kbd } from '../../components/Kbd';
import type { Side } from '../../../../shared/scoring';
import type { Segment } from './wordDiff';

const MARK: Record<Side, string> = {
  left: 'bg-side-l-soft shadow-[inset_0_-2px_0_var(--left)]',
  right: 'bg-side-r-soft shadow-[inset_0_-2px_0_var(--right)]',
};

export function DiffText({ side, segments }: { side: Side; segments: Segment[] | null }) {
  if (!segments)
    return (
      <p className="text-[13px] text-muted" data-testid={`diff-${side}`} data-diff="gave-up">
        These responses differ too much to mark word by word. Press <Kbd>w</Kbd> to read them formatted again.
      </p>
    );
  return (
    <div className="md whitespace-pre-wrap" data-testid={`diff-${side}`}>
      {segments.map((s, i) =>
        s.only ? (
          <mark key={i} className={`rounded-[2px] text-fg ${MARK[side]}`} data-testid="diff-only">
            {s.text}
          </mark>
        ) : (
          s.text
        ),
      )}
    </div>
  );
}
