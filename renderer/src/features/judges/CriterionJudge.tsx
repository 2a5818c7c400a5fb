// A rubric judge's score and feedback for one criterion of one response, on the rating sheet
// (features/rubrics/RatingPanel.tsx), under the same blind / assist rules as the compare judge line
// (JudgeGate.tsx): blind shows a criterion's judge score only once this annotator has rated that
// criterion (n/a counts); assist up front. Folded, the score follows the annotator's value; open, the
// row with the focus has the feedback (plain text) and the model, template version and seed.
import type { JudgeResultView } from '../../../../shared/api';
import type { RubricAnswer } from '../../../../shared/judgeAnswers';
import { JudgeGate, JudgeSource } from './JudgeGate';

interface Props {
  /** The newest rubric result of this response (judgeOf(…, 'rubric', response)). */
  result: JudgeResultView | undefined;
  criterion: string;
  /** The score in the sheet's words (Yes / No, a category, a number). */
  format(score: number | string): string;
  mode: 'blind' | 'assist';
  rated: boolean;
  focused: boolean;
  folded?: boolean;
}

export function CriterionJudge({ result, criterion, format, mode, rated, focused, folded = false }: Props) {
  const graded = result && !result.error && result.answer ? (result.answer as RubricAnswer).criteria?.[criterion] : undefined;
  if (!result || !graded) return null;
  // Blind: an unrated criterion says so only on the row with the focus (not once a row).
  if (mode === 'blind' && !rated && (folded || !focused)) return null;
  if (folded)
    return (
      <span className="text-[11.5px] text-faint" data-testid="criterion-judge-score" data-key={criterion} title={`Judge: ${graded.feedback}`}>
        judge {format(graded.score)}
      </span>
    );
  return (
    <JudgeGate result={result} mode={mode} labeled={rated} testid="criterion-judge" compact>
      {(r) => (
        <div className="flex flex-wrap items-baseline gap-x-2 pb-0.5 pl-[11.5rem] max-md:pl-1" data-key={criterion}>
          <span className="text-faint">Judge:</span>
          <b className="font-semibold text-fg" data-testid="criterion-judge-score" data-key={criterion}>
            {format(graded.score)}
          </b>
          <span className={`min-w-0 text-muted ${focused ? 'whitespace-pre-wrap break-words' : 'max-w-[48ch] truncate'}`} data-testid="criterion-judge-feedback" title={focused ? undefined : graded.feedback}>
            {graded.feedback}
          </span>
          {focused && <JudgeSource result={r} />}
        </div>
      )}
    </JudgeGate>
  );
}
