// A shared desktop: a person typed their name in the page before the hub knew them, so their annotator
// here has a uuid of its own, and the hub granted that name another one (hub grant without --uuid). Their
// labels then wait here (the hub takes a revision only under the granted uuid). While they have no labels
// in another project of this desktop, their annotator takes the hub's uuid: their labels here are
// theirs, and go up at the next sync. With labels elsewhere (another project, perhaps linked to another
// hub or sent as a file), the uuid stays and the hub's admin grants the name with it instead.
import type { Db } from './db';
import { findAnnotator } from './annotators';
import { writeNow } from './write';

export type HubUuidAdoption =
  | { outcome: 'adopted' | 'same'; uuid: string }
  /** Labels in other projects here carry the local uuid: it stays. */
  | { outcome: 'elsewhere'; localUuid: string; projects: string[] }
  /** Another annotator here holds the hub's uuid already (pulled from the hub under another name). */
  | { outcome: 'taken'; localUuid: string; holder: string }
  | { outcome: 'not-human' | 'unknown' };

/** Projects other than `projectId` in which `annotatorId` has labels (at most 5 names). */
export function labelsElsewhere(db: Db, annotatorId: number, projectId: number): string[] {
  return db
    .prepare(
      `SELECT DISTINCT p.name FROM label l CROSS JOIN item i ON i.id = l.item_id CROSS JOIN project p ON p.id = i.project_id
       WHERE l.annotator_id = ? AND i.project_id <> ? ORDER BY p.name LIMIT 5`,
    )
    .pluck()
    .all(annotatorId, projectId) as string[];
}

/** The name of the annotator here holding `uuid`, if any. */
export function annotatorNameByUuid(db: Db, uuid: string): string | undefined {
  return db.prepare('SELECT name FROM annotator WHERE uuid = ? COLLATE NOCASE').pluck().get(uuid) as string | undefined;
}

/** Gives the person `name` the hub's uuid, when nothing outside project `projectId` carries theirs. One transaction. */
export function adoptHubUuidHere(db: Db, name: string, hubUuid: string, projectId: number): HubUuidAdoption {
  return writeNow(db, (): HubUuidAdoption => {
    const named = findAnnotator(db, name);
    if (!named) return { outcome: 'unknown' };
    if (named.kind !== 'human') return { outcome: 'not-human' };
    if (named.uuid.toLowerCase() === hubUuid.toLowerCase()) return { outcome: 'same', uuid: named.uuid };
    const projects = labelsElsewhere(db, named.id, projectId);
    if (projects.length) return { outcome: 'elsewhere', localUuid: named.uuid, projects };
    const holder = annotatorNameByUuid(db, hubUuid);
    if (holder !== undefined) return { outcome: 'taken', localUuid: named.uuid, holder };
    db.prepare('UPDATE annotator SET uuid = ? WHERE id = ?').run(hubUuid.toLowerCase(), named.id);
    return { outcome: 'adopted', uuid: hubUuid.toLowerCase() };
  });
}
