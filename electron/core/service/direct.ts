// What the command line, the local host and Electron's main process call in core besides the service
// object: the store, the formats, the scorer and the review report, named here because cli, host and main
// reach core through service/ only (and base/'s helpers; eslint.config.js holds them to it). The team
// hub's calls are in ./hubDirect.ts, so a command that does not sync does not load PostgreSQL's client.
export { exportProject, importFile, importLabelsFile } from '../formats/index';
export { decodeUtf8 } from '../formats/sources/utf8';
export { imagesFolderOf, moveImagesBeside } from '../formats/vision/imagesBeside';
export { buildReview, withExternalIds } from '../review/report';
export * as scorer from '../scorer/index';
export { backupBeforeDelete, copyDatabase, defaultBackupPath, rotateDefaultBackups } from '../store/backups';
export { openDb, type Db } from '../store/db';
export { hubLink } from '../store/hub';
export { getItem, itemResolver } from '../store/items';
export * as projects from '../store/projects';
export { requireProject } from '../store/projects';
export { findRubric, rubricNames, rubricVersion } from '../store/rubrics';
export { projectStats } from '../store/stats';
