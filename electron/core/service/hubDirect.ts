// The team hub's calls the command line makes itself (arbiter hub …, arbiter sync): cli reaches core
// through service/ only (eslint.config.js), and these load PostgreSQL's client, so they are apart from
// ./direct.ts.
export { connectHub, parseHubUrl, type HubAddress } from '../hub/connect';
export { joinProject } from '../hub/join';
export { publishProject } from '../hub/publish';
export { grant, HUB_ROLES, loginRoleExists, loginRoleFor, revoke, type HubRole } from '../hub/roles';
export { initHub } from '../hub/schema';
export { syncProject } from '../hub/sync';
