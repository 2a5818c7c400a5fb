// What `arbiter stats`, `review`, `adjudicate` and every command's database opening need from core,
// apart from ./direct.ts: that one also names the formats and the scorer, whose modules cost start-up
// time to load (a third of `arbiter stats`'s start-up, docs/benchmarks.md "Sixth pass"), and the CLI is
// built in chunks (scripts/build.mjs) so a command loads only what it imports.
export { buildReview, withExternalIds } from '../review/report';
export { openDb, type Db } from '../store/db';
export { getItem, itemResolver } from '../store/items';
export * as projects from '../store/projects';
export { projectStats } from '../store/stats';
