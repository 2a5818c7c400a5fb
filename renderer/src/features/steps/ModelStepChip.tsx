// One model's score for one step: P(good) with ✓ / ✗, and (once shown against a rating) whether it agrees.
import { isGood, type StepAgreement } from './modelSteps';

const AGREE: Record<StepAgreement, { mark: string; word: string; cls: string }> = {
  agrees: { mark: '✓', word: 'agrees', cls: 'text-ok' },
  disagrees: { mark: '✗', word: 'disagrees', cls: 'text-bad' },
  neutral: { mark: '–', word: 'neutral', cls: 'text-faint' },
};

export function ModelStepChip({ model, p, agreement }: { model: string; p: number | null; agreement: StepAgreement | null }) {
  const good = p !== null && isGood(p);
  const a = agreement ? AGREE[agreement] : null;
  return (
    <span
      className="inline-flex items-center gap-1 text-[11.5px] whitespace-nowrap text-muted tabular-nums"
      title={p === null ? `${model}: this step was cut by truncation, no score` : `${model}: P(step is good) ${p.toFixed(2)}${a ? ` — ${a.word} with your rating` : ''}`}
      data-testid="model-step"
      data-agreement={agreement ?? ''}
    >
      <span className="max-w-[5.5rem] truncate text-faint">{model}</span>
      {p === null ? (
        <span className="text-faint">cut</span>
      ) : (
        <>
          <span className="text-fg">{p.toFixed(2)}</span>
          <span className={good ? 'text-ok' : 'text-bad'} aria-hidden>
            {good ? '✓' : '✗'}
          </span>
        </>
      )}
      {a && (
        <span className={a.cls} aria-label={a.word}>
          · {a.mark === '–' ? '–' : a.word}
        </span>
      )}
    </span>
  );
}
