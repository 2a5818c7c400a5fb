// Videos in the database: which project holds which video (project_video, migration 0016; the bytes are
// in the video store, core/videos/store.ts). The image rows' twins (./images.ts).
import type { Db } from './sqlite';

/** Whether project `projectId` holds video `sha256`: the video route's check. */
export function projectHoldsVideo(db: Db, projectId: number, sha256: string): boolean {
  return db.prepare('SELECT 1 FROM project_video WHERE project_id = ? AND sha256 = ?').get(projectId, sha256) !== undefined;
}

/** Records that project `projectId` holds videos, for an import whose first seq is `firstSeq` (in its write transaction). */
export function projectVideoAdder(db: Db, projectId: number, firstSeq: number): (sha256s: readonly string[]) => number {
  const insert = db.prepare('INSERT OR IGNORE INTO project_video (project_id, sha256, seq) VALUES (?, ?, ?)');
  return (sha256s) => {
    let added = 0;
    for (const sha of sha256s) added += insert.run(projectId, sha, firstSeq).changes;
    return added;
  };
}

/** Removes the video rows of a pending import whose items are being removed (rolled back, or left by a crash). */
export function removeImportVideos(db: Db, projectId: number, firstSeq: number): void {
  db.prepare('DELETE FROM project_video WHERE project_id = ? AND seq >= ? AND seq >= (SELECT visible_seq FROM project WHERE id = ?)').run(projectId, firstSeq, projectId);
}

/** How many videos project `projectId` holds. */
export function projectVideoCount(db: Db, projectId: number): number {
  return db.prepare('SELECT COUNT(*) FROM project_video WHERE project_id = ?').pluck().get(projectId) as number;
}
