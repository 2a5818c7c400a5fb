// The models screen: the reward models Arbiter knows, adding one from a folder, scoring this project
// with them in the background, and which execution providers this machine can run.
import { useCallback, useEffect, useState } from 'react';
import type { ModelInfo, ProviderStatus } from '../../../../shared/scoring';
import { api, errorMessage } from '../../api';
import { useShell } from '../../context';
import { AddModelPanel } from './AddModelPanel';
import { JudgesPanel } from '../judges/JudgesPanel';
import { ModelList } from './ModelList';
import { ProvidersPanel } from './ProvidersPanel';
import { ScorePanel } from './ScorePanel';

export function ModelsScreen({ project }: { project: string }) {
  const { job, trackJob, scoresVersion } = useShell();
  const [models, setModels] = useState<ModelInfo[] | null>(null);
  const [listError, setListError] = useState<string | null>(null);
  const [providers, setProviders] = useState<ProviderStatus[] | null>(null);
  const [providersError, setProvidersError] = useState<string | null>(null);

  const reload = useCallback(() => {
    api
      .listModels({})
      .then((list) => {
        setModels(list);
        setListError(null);
      })
      .catch((e) => setListError(errorMessage(e)));
  }, []);

  // A finished job changes score counts and the provider each model last ran on.
  useEffect(reload, [reload, scoresVersion]);
  useEffect(() => {
    api
      .providers({})
      .then(setProviders)
      .catch((e) => setProvidersError(errorMessage(e)));
  }, []);

  return (
    <main className="flex min-h-0 flex-1 flex-col overflow-auto" data-testid="models">
      <div className="mx-auto grid w-full max-w-[1400px] items-start gap-4 p-4 lg:grid-cols-[minmax(0,1fr)_400px]">
        <div className="flex min-w-0 flex-col gap-4">
          <ModelList models={models} error={listError} running={job?.state === 'running'} onChanged={reload} />
          <AddModelPanel known={models ?? []} onAdded={reload} />
          <JudgesPanel project={project} />
        </div>
        <div className="flex min-w-0 flex-col gap-4">
          <ScorePanel project={project} models={models ?? []} providers={providers} job={job} onJob={trackJob} />
          <ProvidersPanel providers={providers} error={providersError} />
        </div>
      </div>
    </main>
  );
}
