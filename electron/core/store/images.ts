// Images in the database: which project holds which image (project_image; the bytes are in the image
// store, core/images/store.ts), and the items that may hold images (their prompt or a response has a
// typed part whose JSON mentions an image; the caller parses what comes back to be sure, since the
// pattern also matches text that says "image").
import type { Db } from './sqlite';

export interface ImageCandidate {
  externalId: string | null;
  seq: number;
  /** The prompt's and every response's stored content JSON. */
  contents: string[];
}

/** The project's visible items whose stored content may hold an image part, in seq order. */
export function* imageCandidates(db: Db, projectId: number): Generator<ImageCandidate> {
  const pattern = '%"type":"%image%';
  const rows = db
    .prepare(
      `SELECT i.id, i.external_id, i.seq, i.prompt FROM item i
       WHERE i.project_id = @project AND i.seq < (SELECT visible_seq FROM project WHERE id = @project)
         AND (i.prompt LIKE @pattern OR EXISTS (SELECT 1 FROM response r WHERE r.item_id = i.id AND r.content LIKE @pattern))
       ORDER BY i.seq`,
    )
    .all({ project: projectId, pattern }) as { id: number; external_id: string | null; seq: number; prompt: string }[];
  const responses = db.prepare('SELECT content FROM response WHERE item_id = ? ORDER BY idx').pluck();
  for (const row of rows) yield { externalId: row.external_id, seq: row.seq, contents: [row.prompt, ...(responses.all(row.id) as string[])] };
}

/** Whether project `projectId` holds image `sha256` (project_image, filled by the import): the image route's check. */
export function projectHoldsImage(db: Db, projectId: number, sha256: string): boolean {
  return db.prepare('SELECT 1 FROM project_image WHERE project_id = ? AND sha256 = ?').get(projectId, sha256) !== undefined;
}

/**
 * Records that project `projectId` holds images, for an import whose first seq is `firstSeq` (in the
 * import's write transaction, with the items). Returns how many of `sha256s` are new to the project.
 */
export function projectImageAdder(db: Db, projectId: number, firstSeq: number): (sha256s: readonly string[]) => number {
  const insert = db.prepare('INSERT OR IGNORE INTO project_image (project_id, sha256, seq) VALUES (?, ?, ?)');
  return (sha256s) => {
    let added = 0;
    for (const sha of sha256s) added += insert.run(projectId, sha, firstSeq).changes;
    return added;
  };
}

/** Removes the image rows of a pending import whose items are being removed (rolled back, or left by a crash). */
export function removeImportImages(db: Db, projectId: number, firstSeq: number): void {
  db.prepare('DELETE FROM project_image WHERE project_id = ? AND seq >= ? AND seq >= (SELECT visible_seq FROM project WHERE id = ?)').run(projectId, firstSeq, projectId);
}

/** How many images project `projectId` holds. */
export function projectImageCount(db: Db, projectId: number): number {
  return db.prepare('SELECT COUNT(*) FROM project_image WHERE project_id = ?').pluck().get(projectId) as number;
}
