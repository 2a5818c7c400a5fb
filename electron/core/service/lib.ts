// Arbiter's core as a library (bundled as out/node/core.mjs): what benches and scripts call to run
// the shipped code, worker threads included, rather than the TypeScript sources.
export { openDb } from '../store/db';
export { importFile, importLines, exportProject, importLabelsFile } from '../formats/index';
export { mulberry32 } from '../../../shared/order';
export { buildReview } from '../review/report';
export { requireProject } from '../store/projects';
export { matchingItemIds, searchPage, planOf } from '../store/search';
export { bothPage, bothSplit, splitPage } from '../store/searchBoth';
export { searchBounds } from '../store/searchTop';
export { labelAppender } from '../store/labels';
export { ensureAnnotator } from '../store/annotators';
export { parseSearch } from '../../../shared/searchQuery';
export { runItemsQuery, matchingIds } from './itemsQuery';
