// Jobs: list and cancel long work.
import type { FeatureHandlers, ServiceContext } from './context';

export function jobsHandlers({ jobs }: ServiceContext): FeatureHandlers<'cancelJob' | 'listJobs'> {
  return {
    cancelJob: ({ jobId }) => jobs.cancel(jobId),
    listJobs: () => jobs.list(),
  };
}
