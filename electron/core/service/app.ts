// appInfo: what the app is and where its data lives.
import { exportsDir } from '../paths';
import type { FeatureHandlers, ServiceContext } from './context';

export function appHandlers({ options }: ServiceContext): FeatureHandlers<'appInfo'> {
  return {
    appInfo: () => ({
      version: options.version,
      transport: options.transport,
      dbPath: options.dbPath,
      defaultAnnotator: options.defaultAnnotator,
      exportsDir: exportsDir(),
    }),
  };
}
