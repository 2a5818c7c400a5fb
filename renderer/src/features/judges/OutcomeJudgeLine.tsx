// The judge's outcome pre-label of a single response (success / partial / failure and its reason) on the
// verdict screen, under the same blind / assist rules as the compare judge line (JudgeGate.tsx).
import { useState } from 'react';
import { JudgeGate, JudgeSource, judgeLead } from './JudgeGate';
import { judgeOf, useItemJudges, type JudgeLoads } from './judgeLoads';

const TONE: Record<string, string> = { success: 'text-ok', partial: 'text-tie', failure: 'text-bad' };

interface Props {
  loads: JudgeLoads;
  itemId: number | null;
  /** The response judged, in source order. */
  response: number;
  mode: 'blind' | 'assist';
  labeled: boolean;
}

export function OutcomeJudgeLine({ loads, itemId, response, mode, labeled }: Props) {
  const result = judgeOf(useItemJudges(loads, itemId), 'outcome', response);
  const [openOn, setOpenOn] = useState<number | null>(null);
  if (itemId === null || !result) return null;
  const open = openOn === itemId;
  return (
    <JudgeGate result={result} mode={mode} labeled={labeled} until="once you give your verdict">
      {(r) => (
        <>
          <div className="flex flex-wrap items-baseline gap-x-2">
            <span className="text-faint">{judgeLead(mode)}</span>
            <b className={`font-medium ${TONE[r.outcome ?? ''] ?? ''}`} data-testid="judge-outcome" data-value={r.outcome ?? ''}>
              {r.outcome}
            </b>
            <JudgeSource result={r} />
            {r.critique && (
              <button className="text-accent hover:underline" onClick={() => setOpenOn(open ? null : itemId)} data-testid="judge-reason-toggle">
                {open ? 'hide reason' : 'reason'}
              </button>
            )}
          </div>
          {open && r.critique && (
            <div className="mt-1 max-h-28 overflow-y-auto whitespace-pre-wrap break-words text-muted" data-testid="judge-reason">
              {r.critique}
            </div>
          )}
        </>
      )}
    </JudgeGate>
  );
}
