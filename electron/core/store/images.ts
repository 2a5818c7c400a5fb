// Items that may hold images: their prompt or a response has a typed part whose JSON mentions an image.
// The caller parses what comes back to be sure (the pattern also matches text that says "image").
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
