// A step's rating as a chip: a sign and a word as well as a colour, so it reads without colour too.
import type { StepRating } from '../../../../shared/segment';

const CHIP: Record<string, { icon: string; sign: string; word: string; cls: string }> = {
  '1': { icon: '✓', sign: '+1', word: 'good', cls: 'border-ok/50 bg-ok/10 text-ok' },
  '0': { icon: '○', sign: '0', word: 'neutral', cls: 'border-tie/50 bg-tie-soft text-tie' },
  '-1': { icon: '✗', sign: '−1', word: 'bad', cls: 'border-bad/50 bg-bad-soft text-bad' },
};

export function RatingChip({ rating, afterError, firstError }: { rating: StepRating | null; afterError: boolean; firstError: boolean }) {
  const base = 'inline-flex h-6 items-center gap-1 rounded-md border px-1.5 text-[12px] font-semibold tabular-nums whitespace-nowrap';
  if (afterError)
    return (
      <span className={`${base} border-dashed border-line font-normal text-faint`} data-testid="rating-chip" data-rating="none" title="After the first error: needs no rating">
        — no rating
      </span>
    );
  if (rating === null)
    return (
      <span className={`${base} border-dashed border-line-strong font-normal text-faint`} data-testid="rating-chip" data-rating="unrated">
        · unrated
      </span>
    );
  const c = CHIP[String(rating)]!;
  return (
    <span className={`${base} ${c.cls}`} data-testid="rating-chip" data-rating={String(rating)} title={`${c.sign} ${c.word}`}>
      <span aria-hidden>{c.icon}</span>
      {c.sign}
      <span className="font-normal">{firstError ? 'first error' : c.word}</span>
    </span>
  );
}
