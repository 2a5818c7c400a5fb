// The header: project, screen tabs, progress, a running score job, annotator, the blind/assist switch
// (key b), theme, shortcuts.
import type { JobInfo } from '../../../shared/api';
import type { ThemeMode } from './theme';
import type { Progress } from '../context';
import type { Route } from '../route';
import { Kbd } from './Kbd';
import { QualificationChip } from './QualificationNotice';
import { ScreenTabs } from './ScreenTabs';

interface Props {
  route: Route;
  annotator: string;
  progress: Progress | null;
  prelabels: 'blind' | 'assist' | null;
  onPrelabels(mode: 'blind' | 'assist'): void;
  prelabelsError: string | null;
  /** The open project's newest score job; a running one shows as a small progress mark. */
  job: JobInfo | null;
  theme: ThemeMode;
  onTheme(): void;
  onShortcuts(): void;
  navigate(route: Route): void;
}

/** A screen tab's classes; one function for every render, so the memoised tabs keep their props. */
const tab = (active: boolean) => `rounded px-1.5 py-1 text-[13px] ${active ? 'bg-surface-2 text-fg font-medium' : 'text-muted hover:text-fg'}`;

const THEME_LABEL: Record<ThemeMode, string> = { light: 'Light', dark: 'Dark', system: 'System' };
const THEME_ICON: Record<ThemeMode, string> = { light: '☀', dark: '☾', system: '◐' };

/** How far a score job is, over all its models, from 0 to 1. */
export function jobFraction(job: JobInfo): number {
  const p = job.progress;
  if (!p || p.modelCount === 0) return 0;
  if (p.phase === 'done') return 1;
  const within = p.total > 0 ? p.done / p.total : 0;
  return Math.min(1, (p.modelIndex + within) / p.modelCount);
}

export function Header({ route, annotator, progress, prelabels, onPrelabels, prelabelsError, job, theme, onTheme, onShortcuts, navigate }: Props) {
  const project = route.name === 'start' ? null : route.name === 'unknown' ? (route.project ?? null) : route.project;
  const pct = progress && progress.total > 0 ? Math.round((progress.labeled / progress.total) * 100) : 0;
  return (
    <header className="flex min-h-11 shrink-0 flex-wrap items-center gap-x-3 border-b border-line bg-surface px-3 whitespace-nowrap xl:h-11 xl:flex-nowrap" data-testid="header">
      <button className="text-[14px] font-semibold tracking-tight text-fg" onClick={() => navigate({ name: 'start' })} title="Projects">
        Arbiter
      </button>
      {project && (
        <>
          <span className="text-faint">/</span>
          <span className="max-w-[12ch] truncate text-[13px] font-medium md:max-w-[28ch]" title={project} data-testid="header-project">
            {project}
          </span>
          <nav className="order-last -mx-1 flex w-[calc(100%+0.5rem)] items-center gap-1 overflow-x-auto border-t border-line py-1 xl:order-none xl:mx-0 xl:ml-1 xl:w-auto xl:min-w-0 xl:flex-1 xl:border-t-0 xl:py-0" aria-label="Screens">
            <ScreenTabs route={route} project={project} tab={tab} navigate={navigate} />
          </nav>
        </>
      )}
      <div className="ml-auto flex h-11 items-center gap-3 text-[13px]">
        {/* A screen with nothing of its shape says so itself: no "0 / 0" here. */}
        {project && progress && progress.total > 0 && (
          <div className="flex items-center gap-2" title={`${progress.labeled} of ${progress.total} items labeled by ${annotator}`} data-testid="progress">
            <div className="hidden h-1.5 w-28 overflow-hidden 2xl:block rounded-full bg-surface-2 ring-1 ring-line" aria-hidden>
              <div className="h-full rounded-full bg-accent transition-[width] duration-300" style={{ width: `${pct}%` }} />
            </div>
            <span className="tabular-nums text-muted">
              <span className="font-medium text-fg">{progress.labeled}</span> / {progress.total} labeled
            </span>
          </div>
        )}
        {project && <QualificationChip project={project} screen={route.name} version={progress?.labeled ?? 0} />}
        {project && job?.state === 'running' && (
          <button
            className="flex items-center gap-1.5 text-[12px] text-muted hover:text-fg"
            onClick={() => navigate({ name: 'models', project })}
            title="A score job is running for this project (Models screen)"
            data-testid="header-job"
          >
            <span className="inline-block h-2 w-2 animate-pulse rounded-full bg-accent" aria-hidden />
            scoring <span className="tabular-nums">{Math.floor(jobFraction(job) * 100)}%</span>
          </button>
        )}
        {project && prelabels && (
          <div
            className="flex items-center gap-1.5 text-[12px]"
            title={
              prelabelsError ??
              (prelabels === 'blind'
                ? 'Blind: model pre-labels stay hidden until you choose, then show whether they agree. Press b or click “assist” to show them up front (a project setting).'
                : 'Assist: model pre-labels are shown up front; press a to accept. Press b or click “blind” to hide them until you choose (a project setting).')
            }
            data-testid="prelabels"
            data-mode={prelabels}
          >
            <span className={`hidden 2xl:inline ${prelabelsError ? 'text-bad' : 'text-faint'}`}>{prelabelsError ? '⚠ pre-labels' : 'pre-labels'}</span>
            <div className="flex overflow-hidden rounded border border-line-strong" role="group" aria-label="Model pre-labels">
              {(['blind', 'assist'] as const).map((mode) => (
                <button
                  key={mode}
                  className={`px-1.5 py-0.5 leading-[1.35] ${prelabels === mode ? 'bg-surface-2 font-medium text-fg' : 'text-faint hover:text-fg'}`}
                  aria-pressed={prelabels === mode}
                  onClick={() => prelabels !== mode && onPrelabels(mode)}
                  data-testid={`prelabels-${mode}`}
                >
                  <span className="hidden 2xl:inline" aria-hidden>
                    {mode === 'blind' ? '◌ ' : '◉ '}
                  </span>
                  {mode}
                </button>
              ))}
            </div>
            <Kbd className="hidden md:inline-flex">b</Kbd>
          </div>
        )}
        <span className="text-muted" data-testid="annotator">
          <span className="hidden text-faint 2xl:inline">annotator </span><span className="font-medium text-fg">{annotator}</span>
        </span>
        <button
          className="rounded border border-line px-1.5 py-0.5 text-[12px] text-muted hover:text-fg"
          onClick={onTheme}
          title={`Theme: ${THEME_LABEL[theme]} (click to change)`}
          data-testid="theme-toggle"
        >
          {THEME_ICON[theme]}<span className="hidden 2xl:inline"> {THEME_LABEL[theme]}</span>
        </button>
        <button className="flex items-center gap-1 text-muted hover:text-fg" onClick={onShortcuts} title="Keyboard shortcuts">
          <Kbd>?</Kbd>
        </button>
      </div>
    </header>
  );
}
