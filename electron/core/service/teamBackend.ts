// The hub as the app uses it: the local link (store/hub.ts), join, one sync (hub/sync.ts) and the LISTEN
// connection (hub/listen.ts), behind the HubBackend the service's team room schedules.
import { listenHub } from '../hub/listen';
import { conflict } from '../errors';
import type { HubBackend } from './team';

const notYet = () => conflict('Syncing with a hub is not available in this build of Arbiter yet.');

export const hubBackend: HubBackend = {
  link: () => null,
  join: () => Promise.reject(notYet()),
  sync: () => Promise.reject(notYet()),
  listen: ({ url, password, onNotify, onLost }) => listenHub(url, { password, onNotify, onLost }),
};
