// The datasets screen: import on the left, export on the right, every item below.
import { useState } from 'react';
import { useShell } from '../../context';
import { ExportPanel } from './ExportPanel';
import { ImportPanel } from './ImportPanel';
import { ItemsTable } from './ItemsTable';
import { StepSettingsPanel } from './StepSettingsPanel';
import { WorkSplitPanel } from './WorkSplitPanel';
import { LabelExchangePanel } from './LabelExchangePanel';
import { RubricSettingsPanel } from '../rubrics/RubricSettingsPanel';

export function DatasetsScreen({ project }: { project: string }) {
  const { annotator, navigate, refreshProgress } = useShell();
  const [version, setVersion] = useState(0);
  return (
    <main className="flex min-h-0 flex-1 flex-col overflow-auto" data-testid="datasets">
      <div className="mx-auto flex w-full max-w-[1400px] flex-1 flex-col gap-4 p-4">
        <div className="grid items-start gap-4 lg:grid-cols-[minmax(0,1fr)_360px]">
          {/* Step settings sit under the import, side by side inside, so the two columns end level and the
              items table starts right below them. */}
          <div className="flex flex-col gap-4">
            <ImportPanel
              project={project}
              onImported={() => {
                setVersion((v) => v + 1);
                refreshProgress();
              }}
            />
            <StepSettingsPanel project={project} />
            <WorkSplitPanel project={project} />
          </div>
          <div className="flex flex-col gap-4">
            <ExportPanel project={project} version={version} />
            <RubricSettingsPanel project={project} />
            <LabelExchangePanel
              project={project}
              annotator={annotator}
              onMerged={() => {
                setVersion((v) => v + 1);
                refreshProgress();
              }}
            />
          </div>
        </div>
        {/* A basis of 0px, not 0%: the table takes the height that is left (at least 420 px) and scrolls
            itself. Sized by its content it grew to every row, and the virtualized list rendered them all. */}
        <div className="flex min-h-[420px] flex-[1_1_0px] flex-col">
          <ItemsTable project={project} annotator={annotator} version={version} onOpen={(id) => navigate({ name: 'compare', project, itemId: id })} />
        </div>
      </div>
    </main>
  );
}
