// What an annotator is told about a qualification the lead set for this screen's task (issue 23 §1;
// shared/goldRules.ts): while they are labeling its set, that they are; once judged, passed or failed with
// their score; failed, that their queue is held until the lead lets them retry (on the held screen, and as
// a word in the header of each labeling screen). goldStanding is their own word only: which items were gold
// is never said.
import { useEffect, useRef, useState } from 'react';
import type { GoldStanding } from '../../../shared/api';
import { api, subscribeEvents } from '../api';
import { useShell } from '../context';

type Task = 'pairwise' | 'ranking' | 'verdict' | 'steps';
const pct = (x: number | null) => `${Math.round((x ?? 0) * 100)}%`;

/**
 * The annotator's qualification for a task. Asked once per project and task, and again only when it can
 * change: while a qualification of this task is pending, whose count moves with this person's saves, as
 * a save lands (the host's label event; `version`, the screen's count, as well); and when the lead's gold
 * marks or the team's settings change (a gold or team event). None, passed or failed does not move with
 * a save: the labels' keys ask nothing.
 */
export function useQualification(project: string, task: Task | null, version = 0): GoldStanding['tasks'][number]['qualification'] | null {
  const { annotator } = useShell();
  const [standing, setStanding] = useState<GoldStanding | null>(null);
  const [changes, setChanges] = useState(0);
  const [answered, setAnswered] = useState(false);
  const qualification = standing?.tasks.find((t) => t.task === task)?.qualification ?? null;
  // Until the first answer, the ask in flight brings it: a key pressed meanwhile asks nothing more.
  const moving = answered && (standing === null || qualification?.state === 'pending');
  const movingNow = useRef(moving);
  movingNow.current = moving;
  const count = moving ? version : -1;
  useEffect(
    () =>
      subscribeEvents((event) => {
        if (event.project !== project) return;
        if (event.type === 'gold' || event.type === 'team' || (event.type === 'label' && movingNow.current)) setChanges((n) => n + 1);
      }),
    [project],
  );
  useEffect(() => {
    if (!task) return;
    let live = true;
    // The same answer keeps the state, so no render.
    const keep = (s: GoldStanding | null) => {
      if (!live) return;
      setStanding((was) => (JSON.stringify(was) === JSON.stringify(s) ? was : s));
      setAnswered(true);
    };
    api.goldStanding({ project, annotator }).then(keep, () => keep(null));
    return () => {
      live = false;
    };
  }, [project, annotator, count, changes, task]);
  return qualification;
}

export function QualificationNotice({ project, task }: { project: string; task: Task }) {
  const q = useQualification(project, task);
  if (!q) return null;
  if (q.state === 'failed')
    return (
      <div className="flex flex-col items-center gap-1.5 text-center" data-testid="qualification-notice" data-state="failed">
        <p className="text-[15px] font-medium">Qualification not passed: {pct(q.score)} right, the pass mark is {pct(q.passMark)}.</p>
        <p className="max-w-prose text-muted">Your queue is held until the lead lets you take the qualification again. Nothing you labeled is lost.</p>
      </div>
    );
  return (
    <p className="text-[13px] text-muted" data-testid="qualification-notice" data-state={q.state}>
      {q.state === 'passed' ? `Qualification passed: ${pct(q.score)} right (pass mark ${pct(q.passMark)}).` : `Qualification: ${q.done} of ${q.total} labeled; the project’s items follow once you pass.`}
    </p>
  );
}

const SCREEN_TASK: Record<string, Task> = { compare: 'pairwise', rank: 'ranking', verdict: 'verdict', steps: 'steps' };

/** The header's word on a labeling screen while a qualification applies: n of N, passed or failed. */
export function QualificationChip({ project, screen, version }: { project: string; screen: string; version: number }) {
  const task = SCREEN_TASK[screen] ?? null;
  const q = useQualification(project, task, version);
  if (!task || !q) return null;
  // Short: the header is full on a narrow window; the score and the pass mark are in the title.
  const text = q.state === 'pending' ? `qualifying ${q.done}/${q.total}` : q.state === 'passed' ? 'qualified' : 'not qualified';
  const tone = q.state === 'failed' ? 'text-bad' : q.state === 'passed' ? 'text-ok' : 'text-muted';
  const title =
    q.state === 'pending'
      ? `The lead asks for a qualification first: ${q.total} items, pass mark ${pct(q.passMark)}. The project's items follow once you pass.`
      : `Your qualification: ${pct(q.score)} right, pass mark ${pct(q.passMark)}.`;
  return (
    <span className={`text-[12px] tabular-nums ${tone}`} title={title} data-testid="qualification-chip" data-state={q.state}>
      {text}
    </span>
  );
}
