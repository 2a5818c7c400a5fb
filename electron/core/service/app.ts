// appInfo: what the app is. It names no path: the browser host's page is untrusted, and the database's
// place is printed by `arbiter serve` and shown by `arbiter doctor`.
import type { FeatureHandlers, ServiceContext } from './context';

export function appHandlers({ options }: ServiceContext): FeatureHandlers<'appInfo'> {
  return {
    appInfo: () => ({
      version: options.version,
      transport: options.transport,
      defaultAnnotator: options.defaultAnnotator,
      openProject: options.openProject ?? null,
    }),
  };
}
