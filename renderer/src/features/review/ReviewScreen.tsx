// The review screen: the disagreement queue (most disputed first), an item's adjudication view, and the
// agreement dashboard, and the evaluation of people and models on the gold (features/evaluation), under one
// header with the queue's figures and the Recompute button. Keys: q the queue, a the agreement tab, e the
// evaluation, Shift+R recomputes; the queue, the item view and the evaluation add their own.
import { useCallback, useEffect, useState } from 'react';
import { QUEUE_REASONS, type QueueReason, type ReviewTask } from '../../../../shared/api';
import { Kbd } from '../../components/Kbd';
import { pageDirection, scrollByPage, scrollsItself } from '../../components/keys';
import { useShell } from '../../context';
import { useScreenKeys } from '../../components/useScreenKeys';
import { EvaluationScreen } from '../evaluation/EvaluationScreen';
import { TeamStandsCard } from '../team/TeamStandsCard';
import { AdjudicationScreen } from './AdjudicationScreen';
import { Dashboard } from './Dashboard';
import { QueueView } from './QueueView';
import { readFilters, saveFilters, useReport, type QueueFilters } from './useReview';
import { plural, whenWords } from './reviewWords';

const REASON_CLAUSE: Record<QueueReason, string> = { annotators: 'people disagree', model: 'the model disagrees', uncertain: 'the model is unsure', judge: 'a judge disagrees or flips', sent: 'a lead sent it', moments: 'their marks in time differ' };

interface Props {
  project: string;
  itemId?: number;
  task?: ReviewTask;
  tab?: 'queue' | 'agreement' | 'evaluation';
}

export function ReviewScreen({ project, itemId, task, tab }: Props) {
  const { navigate, keysEnabled } = useShell();
  const report = useReport(project);
  const [filters, setFiltersState] = useState<QueueFilters>(() => ({ ...readFilters(project), ...(task ? { task } : {}) }));
  // A queue that follows the report: recomputing asks for the queue again.
  const [version, setVersion] = useState(0);
  const agreement = tab === 'agreement' && itemId === undefined;
  const evaluation = tab === 'evaluation' && itemId === undefined;
  const queueTask = task ?? filters.task;

  const setFilters = useCallback(
    (next: QueueFilters) => {
      saveFilters(project, next);
      setFiltersState(next);
      if (next.task !== queueTask) navigate({ name: 'review', project, task: next.task });
    },
    [project, queueTask, navigate],
  );
  const recompute = useCallback(() => {
    report.recompute();
    setVersion((v) => v + 1);
  }, [report]);
  // What the last Record did, said on the item it moved to; it fades after a while.
  const [flash, setFlash] = useState<string | null>(null);
  useEffect(() => {
    if (!flash) return;
    const timer = setTimeout(() => setFlash(null), 6000);
    return () => clearTimeout(timer);
  }, [flash]);
  const { reload } = report;
  const onRecorded = useCallback(
    (message: string) => {
      setFlash(message);
      reload();
    },
    [reload],
  );
  // Labels a hub sync brought in: the figures and the queue are read again.
  const pulled = useCallback(() => {
    reload();
    setVersion((v) => v + 1);
  }, [reload]);
  const toQueue = useCallback(() => navigate({ name: 'review', project, task: queueTask }), [navigate, project, queueTask]);

  useScreenKeys((event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return false;
    // The dashboard scrolls as a page: Space / Shift+Space, PageDown / PageUp.
    const direction = agreement ? pageDirection(event) : null;
    const dashboard = document.querySelector<HTMLElement>('[data-testid="dashboard"]');
    if (direction !== null && scrollsItself(dashboard)) scrollByPage(dashboard, direction);
    else if (event.key === 'q' && (agreement || evaluation || itemId !== undefined)) toQueue();
    else if (event.key === 'a' && !agreement) navigate({ name: 'review', project, tab: 'agreement' });
    else if (event.key === 'e' && !evaluation) navigate({ name: 'review', project, tab: 'evaluation' });
    else if (event.key === 'R' && !report.computing && !evaluation) recompute();
    else return false;
    return true;
  }, keysEnabled);

  const summary = report.report?.queue;
  const tabClass = (active: boolean) =>
    `flex items-center gap-1.5 rounded px-2 py-1 text-[13px] ${active ? 'bg-surface-2 font-medium text-fg' : 'text-muted hover:text-fg'}`;
  return (
    <main className="flex min-h-0 flex-1 flex-col" data-testid="review-screen" data-tab={itemId !== undefined ? 'item' : agreement ? 'agreement' : evaluation ? 'evaluation' : 'queue'}>
      <div className="flex shrink-0 items-center gap-x-3 border-b border-line bg-surface px-4 py-1.5 whitespace-nowrap">
        <nav className="flex items-center gap-1" aria-label="Review">
          <button className={tabClass(!agreement && !evaluation)} onClick={toQueue} data-testid="review-tab-queue" aria-current={(!agreement && !evaluation) || undefined}>
            Queue <Kbd>q</Kbd>
          </button>
          <button className={tabClass(agreement)} onClick={() => navigate({ name: 'review', project, tab: 'agreement' })} data-testid="review-tab-agreement" aria-current={agreement || undefined}>
            Agreement <Kbd>a</Kbd>
          </button>
          <button className={tabClass(evaluation)} onClick={() => navigate({ name: 'review', project, tab: 'evaluation' })} data-testid="review-tab-evaluation" aria-current={evaluation || undefined}>
            Evaluation <Kbd>e</Kbd>
          </button>
        </nav>
        <span
          className="min-w-0 truncate text-[12px] text-muted"
          title={summary ? QUEUE_REASONS.filter((r) => summary.byReason[r] > 0).map((r) => `${summary.byReason[r]} where ${REASON_CLAUSE[r]}`).join(', ') : undefined}
          data-testid="review-summary"
        >
          {report.report ? (
            <>
              {plural(report.report.labels, 'label')} by {plural(report.report.annotators, 'annotator')}
              {summary && summary.total > 0 && (
                <>
                  <span className="text-faint"> · </span>
                  {plural(summary.total, 'item')} to review, {summary.adjudicated.toLocaleString()} adjudicated
                </>
              )}
            </>
          ) : report.error ? null : (
            'Reading the labels…'
          )}
        </span>
        <div className="ml-auto flex shrink-0 items-center gap-2 text-[12px]">
          {report.computing ? (
            <span className="flex items-center gap-1.5 text-muted" data-testid="review-computing" role="status">
              <span className="inline-block h-2 w-2 animate-pulse rounded-full bg-accent" aria-hidden />
              Computing the figures…
            </span>
          ) : (
            report.report && (
              <span className="text-faint" title={report.report.computedAt} data-testid="review-computed-at">
                computed {whenWords(report.report.computedAt)}
              </span>
            )
          )}
          <button
            className="flex items-center gap-1.5 rounded border border-line-strong bg-surface px-2 py-0.5 text-[12px] text-fg hover:bg-surface-2 disabled:text-faint"
            onClick={recompute}
            disabled={report.computing}
            title="Read every label again and recompute the figures and the queue (a job on the host)"
            data-testid="review-recompute"
          >
            Recompute <Kbd>⇧R</Kbd>
          </button>
        </div>
      </div>
      {report.error && (
        <div className="border-b border-line bg-bad-soft px-4 py-2 text-[13px]" role="alert" data-testid="review-error">
          <span className="font-medium text-bad">The review figures could not be computed:</span> {report.error} Try Recompute; if it fails again, the host’s log
          says more.
        </div>
      )}
      {itemId === undefined && !evaluation && <TeamStandsCard project={project} report={report.report} onPulled={pulled} />}
      {itemId !== undefined ? (
        <AdjudicationScreen key={`${queueTask}:${itemId}`} project={project} itemId={itemId} filters={{ ...filters, task: queueTask }} onBack={toQueue} flash={flash} onRecorded={onRecorded} />
      ) : agreement ? (
        <Dashboard report={report.report} computing={report.computing} />
      ) : evaluation ? (
        <EvaluationScreen project={project} />
      ) : (
        <QueueView project={project} filters={{ ...filters, task: queueTask }} setFilters={setFilters} version={version} report={report.report} />
      )}
    </main>
  );
}
