// The shell: picks the screen from the route, owns the annotator name, theme, progress and the
// shortcuts overlay.
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { AppInfo } from '../../shared/api';
import type { ProjectSettings } from '../../shared/domain';
import { api, errorMessage, subscribeEvents } from './api';
import { ShellContext, type PrelabelMode, type Shell } from './context';
import { Header } from './components/Header';
import { ShortcutsOverlay } from './components/ShortcutsOverlay';
import { PrelabelConfirm } from './components/PrelabelConfirm';
import { pageDirection, scrollByPage, scrollsItself, useGlobalKeys } from './components/keys';
import { useTheme } from './components/theme';
import { parseRoute, useRoute, type Route } from './route';
import { useProgress } from './useProgress';
import { ProjectPicker } from './features/projects/ProjectPicker';
import { NoSuchPage, OpenProject } from './features/projects/OpenProject';
import { CompareScreen } from './features/compare/CompareScreen';
import { DatasetsScreen } from './features/datasets/DatasetsScreen';
import { ItemsTable } from './features/items/ItemsTable';
import { ItemsScreen } from './features/items/ItemsScreen';
import { ModelsScreen } from './features/models/ModelsScreen';
import { StepsScreen } from './features/steps/StepsScreen';
import { RankingScreen } from './features/rankings/RankingScreen';
import { VerdictScreen } from './features/rankings/VerdictScreen';
import { RubricsScreen } from './features/rubrics/RubricsScreen';
import { ReviewScreen } from './features/review/ReviewScreen';
import { GuidelinesDrawer } from './features/guidelines/GuidelinesDrawer';
import { useJobs } from './features/models/useJobs';

const ANNOTATOR_KEY = 'arbiter.annotator';
const OPENED_ON_START = 'arbiter.openedOnStart';

/**
 * The page keys on screens that scroll as a whole page (projects, datasets, models): with nothing
 * focused they scroll the screen; a focused control or list keeps its own meaning for them. Screens
 * with responses (compare, steps) handle the page keys themselves.
 */
function scrollWholeScreen(event: KeyboardEvent, route: Route): boolean {
  if (route.name !== 'start' && route.name !== 'datasets' && route.name !== 'models') return false;
  const direction = pageDirection(event);
  const idle = document.activeElement === null || document.activeElement === document.body;
  const screen = document.querySelector<HTMLElement>('main');
  if (direction === null || !idle || !scrollsItself(screen)) return false;
  event.preventDefault();
  scrollByPage(screen, direction);
  return true;
}

export function App() {
  const [route, navigate] = useRoute();
  const [theme, cycleTheme] = useTheme();
  const [appInfo, setAppInfo] = useState<AppInfo | null>(null);
  const [fatal, setFatal] = useState<string | null>(null);
  const [annotator, setAnnotatorState] = useState<string>(() => localStorage.getItem(ANNOTATOR_KEY) ?? '');
  const [overlay, setOverlay] = useState(false);
  const [guidelines, setGuidelines] = useState(false);
  const [settings, setSettings] = useState<ProjectSettings | null>(null);
  const [settingsError, setSettingsError] = useState<string | null>(null);
  const jobs = useJobs();
  const project = route.name === 'start' ? null : route.name === 'unknown' ? (route.project ?? null) : route.project;
  // The guidelines drawer belongs to the labeling screens; it closes on the others.
  const labelingScreen = route.name === 'compare' || route.name === 'steps' || route.name === 'rank' || route.name === 'verdict';
  useEffect(() => {
    if (!labelingScreen) setGuidelines(false);
  }, [labelingScreen, project]);

  useEffect(() => {
    api
      .appInfo({})
      .then((info) => {
        setAppInfo(info);
        setAnnotatorState((current) => current || info.defaultAnnotator || 'annotator');
        // First launch from `npm start`: the demo it just made opens ready to label (once per window).
        if (info.openProject && !sessionStorage.getItem(OPENED_ON_START) && parseRoute(location.hash).name === 'start') {
          sessionStorage.setItem(OPENED_ON_START, '1');
          navigate({ name: 'open', project: info.openProject }, true);
        }
      })
      .catch((error) => setFatal(errorMessage(error)));
  }, [navigate]);

  const setAnnotator = useCallback((name: string) => {
    const trimmed = name.trim();
    if (!trimmed) return;
    localStorage.setItem(ANNOTATOR_KEY, trimmed);
    setAnnotatorState(trimmed);
  }, []);

  // Progress for this annotator: items they labeled out of the project's items.
  const task = route.name === 'steps' ? 'steps' : route.name === 'rank' ? 'ranking' : route.name === 'verdict' ? 'verdict' : 'pairwise';
  const { progress, refreshProgress, countLabelWrite } = useProgress(project, annotator, task);

  useEffect(() => {
    setSettings(null);
    setSettingsError(null);
    if (!project) return;
    api
      .getProject({ project })
      .then((summary) => setSettings(summary.settings))
      .catch(() => setSettings(null));
    // A team sync that took the lead's settings (pre-labels blind or assist among them) shows them at once.
    return subscribeEvents((event) => {
      if (event.type !== 'team' || event.project !== project || event.settings !== 'taken') return;
      api
        .getProject({ project })
        .then((summary) => setSettings(summary.settings))
        .catch(() => undefined);
    });
  }, [project]);

  // The blind / assist switch is a project setting: everyone labeling this project sees the change.
  const setPrelabelMode = useCallback(
    (mode: PrelabelMode) => {
      if (!project) return;
      setSettingsError(null);
      setSettings((s) => (s ? { ...s, prelabels: mode } : s));
      api
        .updateProjectSettings({ project, settings: { prelabels: mode } })
        .then(setSettings)
        .catch((error) => {
          setSettingsError(`Could not switch pre-labels to ${mode}: ${errorMessage(error)}`);
          api
            .getProject({ project })
            .then((summary) => setSettings(summary.settings))
            .catch(() => undefined);
        });
    },
    [project],
  );

  const closeGuidelines = useCallback(() => setGuidelines(false), []);
  const prelabelMode = settings?.prelabels ?? null;
  // The switch asks first (a project setting: every annotator sees it); the question owns the keys.
  const [askPrelabels, setAskPrelabels] = useState<PrelabelMode | null>(null);
  useGlobalKeys((event) => {
    if (event.key === 'Escape' && overlay) {
      setOverlay(false);
      return;
    }
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === '?') {
      event.preventDefault();
      setOverlay((open) => !open);
      return;
    }
    if (overlay) return;
    if (scrollWholeScreen(event, route)) return;
    if (!project) return;
    // The screens' own keys (c, n, p, u, d, i, m, q) are the header tabs' (ScreenTabs).
    if (event.key === 'g' && labelingScreen) setGuidelines((open) => !open);
    else if (event.key === 'b' && prelabelMode) setAskPrelabels(prelabelMode === 'blind' ? 'assist' : 'blind');
  });

  const job = project ? (jobs.byProject.get(project) ?? null) : null;

  const shell: Shell = useMemo(
    () => ({
      appInfo,
      project,
      annotator,
      setAnnotator,
      navigate,
      keysEnabled: !overlay && !askPrelabels,
      refreshProgress,
      countLabelWrite,
      prelabelMode,
      setPrelabelMode,
      job,
      trackJob: jobs.track,
      scoresVersion: jobs.finished,
    }),
    [appInfo, project, annotator, setAnnotator, navigate, overlay, askPrelabels, refreshProgress, countLabelWrite, prelabelMode, setPrelabelMode, job, jobs.track, jobs.finished],
  );

  return (
    <ShellContext.Provider value={shell}>
      <div className="flex h-full flex-col">
        <Header
          route={route}
          annotator={annotator || '…'}
          progress={progress}
          prelabels={prelabelMode}
          onPrelabels={setAskPrelabels}
          prelabelsError={settingsError}
          job={job}
          theme={theme}
          onTheme={cycleTheme}
          onShortcuts={() => setOverlay(true)}
          navigate={navigate}
        />
        {fatal ? (
          <div className="m-6 max-w-xl rounded-md border border-bad/40 bg-bad-soft p-4 text-[14px]" role="alert">
            <div className="font-semibold text-bad">Arbiter cannot reach its data.</div>
            <p className="mt-1">{fatal}</p>
            <p className="mt-1 text-muted">Open the exact URL the host printed (it carries the access token), or restart the app.</p>
          </div>
        ) : !annotator ? null : route.name === 'start' ? (
          <ProjectPicker />
        ) : route.name === 'open' ? (
          <OpenProject key={`o:${route.project}`} project={route.project} />
        ) : route.name === 'unknown' ? (
          <NoSuchPage hash={route.hash} project={route.project ?? null} />
        ) : route.name === 'datasets' ? (
          <DatasetsScreen
            key={`d:${route.project}`}
            project={route.project}
            table={(version) => <ItemsTable project={route.project} annotator={annotator} version={version} onOpen={(row) => navigate({ name: row.screen, project: route.project, itemId: row.id })} />}
          />
        ) : route.name === 'items' ? (
          <ItemsScreen key={`x:${route.project}:${route.view ?? ''}:${route.query ?? ''}`} project={route.project} query={route.query} view={route.view} />
        ) : route.name === 'models' ? (
          <ModelsScreen key={`m:${route.project}`} project={route.project} />
        ) : route.name === 'review' ? (
          <ReviewScreen key={`q:${route.project}`} project={route.project} itemId={route.itemId} task={route.task} tab={route.tab} />
        ) : route.name === 'rubrics' || route.name === 'guidelines' ? (
          <RubricsScreen key={`b:${route.project}`} project={route.project} tab={route.name === 'guidelines' ? 'guidelines' : 'rubric'} />
        ) : route.name === 'rank' ? (
          <RankingScreen key={`r:${route.project}:${annotator}:${route.itemId ?? ''}:${route.view ?? ''}`} project={route.project} itemId={route.itemId} view={route.view} />
        ) : route.name === 'verdict' ? (
          <VerdictScreen key={`v:${route.project}:${annotator}:${route.itemId ?? ''}:${route.view ?? ''}`} project={route.project} itemId={route.itemId} view={route.view} />
        ) : route.name === 'steps' ? (
          <StepsScreen key={`s:${route.project}:${annotator}:${route.itemId ?? ''}:${route.response ?? ''}:${route.view ?? ''}`} project={route.project} itemId={route.itemId} response={route.response} view={route.view} />
        ) : (
          <CompareScreen key={`c:${route.project}:${annotator}:${route.itemId ?? ''}:${route.view ?? ''}`} project={route.project} itemId={route.itemId} view={route.view} />
        )}
      </div>
      {guidelines && project && labelingScreen && (
        <GuidelinesDrawer project={project} onClose={closeGuidelines} onEdit={() => navigate({ name: 'guidelines', project })} />
      )}
      {overlay && <ShortcutsOverlay onClose={() => setOverlay(false)} />}
      {askPrelabels && project && (
        <PrelabelConfirm
          project={project}
          to={askPrelabels}
          onConfirm={() => {
            setPrelabelMode(askPrelabels);
            setAskPrelabels(null);
          }}
          onCancel={() => setAskPrelabels(null)}
        />
      )}
    </ShellContext.Provider>
  );
}
