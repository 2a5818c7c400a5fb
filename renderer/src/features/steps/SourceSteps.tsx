// The file's own step ratings (the `source` annotator's: what an imported PRM800K or Math-Shepherd file
// carried), shown beside the annotator's on `v`, as Compare shows the file's preference. Fetched when
// asked for; shown only against the very steps they were made for.
import { useEffect, useState } from 'react';
import type { StepRating } from '../../../../shared/segment';
import { api, errorMessage } from '../../api';

export const SOURCE = 'source';

export type SourceSteps =
  | { state: 'shown'; ratings: (StepRating | null)[]; firstError: number | null }
  | { state: 'none' | 'other-cut' | 'loading'; ratings?: undefined }
  | { state: 'failed'; error: string; ratings?: undefined };

/** The source's judgement of one response while `on`; null while off. */
export function useSourceSteps(project: string, itemId: number | null, response: number, version: number | null, on: boolean): SourceSteps | null {
  const [got, setGot] = useState<{ key: string; value: SourceSteps } | null>(null);
  const key = `${itemId}:${response}:${version}`;
  useEffect(() => {
    if (!on || itemId === null || version === null) return;
    let live = true;
    api
      .getSteps({ project, annotator: SOURCE, itemId })
      .then((view) => {
        if (!live) return;
        const j = view.label ? view.judgements[response] : undefined;
        const value: SourceSteps = !j ? { state: 'none' } : j.version !== version ? { state: 'other-cut' } : { state: 'shown', ratings: j.ratings, firstError: j.firstError };
        setGot({ key, value });
      })
      .catch((error) => live && setGot({ key, value: { state: 'failed', error: errorMessage(error) } }));
    return () => {
      live = false;
    };
  }, [on, project, itemId, response, version, key]);
  if (!on) return null;
  return got && got.key === key ? got.value : { state: 'loading' };
}

/** What `v` found, in words, for the status line. */
export function sourceWords(source: SourceSteps): string {
  switch (source.state) {
    case 'shown':
      return 'The file’s own step ratings are shown beside yours (v hides them)';
    case 'none':
      return 'This response came with no step ratings in its file';
    case 'other-cut':
      return 'The file’s step ratings are for the steps as imported; these steps were split or merged since';
    case 'failed':
      return `Could not read the file’s step ratings: ${source.error}`;
    default:
      return 'Reading the file’s step ratings…';
  }
}

const SIGN: Record<string, string> = { '1': '+1', '0': '0', '-1': '−1' };

/** The file's rating of one step, quieter than the annotator's own chip. */
export function SourceStepChip({ rating, afterError }: { rating: StepRating | null; afterError: boolean }) {
  const value = rating === null ? '' : String(rating);
  const tone = rating === 1 ? 'text-ok' : rating === -1 ? 'text-bad' : 'text-muted';
  return (
    <span
      className="inline-flex h-5 items-center gap-1 rounded border border-dashed border-line-strong px-1.5 text-[11.5px] whitespace-nowrap text-muted tabular-nums"
      title={rating === null ? (afterError ? 'The file: no rating (after its first error)' : 'The file: not rated') : `The file rated this step ${SIGN[value]}`}
      data-testid="source-step-chip"
      data-rating={value}
    >
      file <b className={`font-semibold ${tone}`}>{rating === null ? '—' : SIGN[value]}</b>
    </span>
  );
}
