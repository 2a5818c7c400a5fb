// The datasets screen. A project with items: every item first (the items table of features/items/, which
// starts at the top and scrolls itself), then import and export, then the project's settings (steps, rubric, order and overlap, team
// labels). An empty project: import first, then the rest.
import { useEffect, useState, type ReactNode } from 'react';
import { subscribeEvents } from '../../api';
import { useShell } from '../../context';
import { useOverview } from '../../components/useOverview';
import { ExportPanel } from './ExportPanel';
import { ImportPanel } from './ImportPanel';
import { StepSettingsPanel } from './StepSettingsPanel';
import { WorkSplitPanel } from './WorkSplitPanel';
import { LabelExchangePanel } from './LabelExchangePanel';
import { RubricSettingsPanel } from '../rubrics/RubricSettingsPanel';
import { TeamPanel } from '../team/TeamPanel';
import { GoldRulesPanel } from '../goldRules/GoldRulesPanel';

/**
 * `table`: the items table (features/items/, a floor above this one: the shell hands it in), drawn with
 * the screen's version so an import or a sync reads it again.
 */
export function DatasetsScreen({ project, table: itemsTable }: { project: string; table(version: number): ReactNode }) {
  const { annotator, refreshProgress } = useShell();
  const [version, setVersion] = useState(0);
  const { overview, error } = useOverview(project, version);
  // An import reads the table again, and the settings panels: a project's first agent trajectories set its error tags.
  const changed = () => {
    setVersion((v) => v + 1);
    setSettingsVersion((v) => v + 1);
    refreshProgress();
  };
  // A team sync that brought items reads the table again; one that took the lead's settings reads the
  // settings panels again (they hold what they read when they opened).
  const [settingsVersion, setSettingsVersion] = useState(0);
  useEffect(
    () =>
      subscribeEvents((event) => {
        if (event.type !== 'team' || event.project !== project) return;
        if (typeof event.items === 'number' && event.items > 0) {
          setVersion((v) => v + 1);
          refreshProgress();
        }
        if (event.settings === 'taken') setSettingsVersion((v) => v + 1);
      }),
    [project, refreshProgress],
  );
  // Decided once, when the screen opens: an import made here keeps its summary where it was.
  const [tableFirst, setTableFirst] = useState<boolean | null>(null);
  useEffect(() => {
    if (tableFirst === null && (overview || error)) setTableFirst((overview?.items ?? 0) > 0);
  }, [overview, error, tableFirst]);
  const hasItems = tableFirst === true;
  // A basis of 0px, not 0%: the table takes the height that is left (at least 420 px) and scrolls itself.
  // Sized by its content it grew to every row, and the virtualized list rendered them all.
  const table = (
    <div className={`flex min-h-[420px] flex-col ${hasItems ? 'h-[calc(100vh-7rem)] shrink-0' : 'flex-[1_1_0px]'}`}>
      {itemsTable(version)}
    </div>
  );
  return (
    <main className="flex min-h-0 flex-1 flex-col overflow-auto" data-testid="datasets">
      {tableFirst !== null && (
        <div className="mx-auto flex w-full max-w-[1400px] flex-1 flex-col gap-4 p-4">
          {hasItems && table}
          <div className="grid items-start gap-4 lg:grid-cols-[minmax(0,1fr)_360px]">
            <div className="flex flex-col gap-4">
              <ImportPanel project={project} onImported={changed} />
              <StepSettingsPanel key={`steps-${settingsVersion}`} project={project} />
              <WorkSplitPanel key={`split-${settingsVersion}`} project={project} />
              <GoldRulesPanel key={`gold-${settingsVersion}`} project={project} />
            </div>
            <div className="flex flex-col gap-4">
              <ExportPanel project={project} version={version} />
              <RubricSettingsPanel key={`rubric-${settingsVersion}`} project={project} />
              <TeamPanel project={project} />
              <LabelExchangePanel project={project} annotator={annotator} onMerged={changed} />
            </div>
          </div>
          {!hasItems && table}
        </div>
      )}
    </main>
  );
}
