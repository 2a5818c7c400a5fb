// The datasets table: one page of items with a short prompt preview and label counts. Both ways of
// paging walk the (project, seq) index from where the page starts, so a page deep in a 1M-item project
// costs what the first one does: keyset (after a seq), or a row number, which is the seq itself, since
// a project's visible items hold seqs 0…n−1 without gaps (imports close gaps as they write, and an
// import that fails or is cut short removes its whole tail).
import type { ItemListRow } from '../../../shared/api';
import { contentText } from '../../../shared/choices';
import type { Content } from '../../../shared/domain';
import type { Db } from './db';
import { findAnnotator } from './annotators';
import { countItems, VISIBLE } from './items';

interface ListRow {
  id: number;
  seq: number;
  external_id: string | null;
  prompt: string;
  responses: number;
  labels: number;
  my_choice: string | null;
  source_choice: string | null;
}

export function listItemRows(
  db: Db,
  projectId: number,
  page: { afterSeq?: number; offset: number; limit: number },
  annotator?: string,
): { total: number; rows: ItemListRow[] } {
  const me = annotator ? (findAnnotator(db, annotator)?.id ?? null) : null;
  const keyset = page.afterSeq !== undefined;
  const rows = db
    .prepare(
      `SELECT i.id, i.seq, i.external_id, substr(i.prompt, 1, 600) AS prompt, i.response_count AS responses,
        (SELECT COUNT(*) FROM label_head h JOIN annotator a ON a.id = h.annotator_id
          WHERE h.item_id = i.id AND h.task = 'pairwise' AND h.done = 1 AND a.kind = 'human') AS labels,
        (SELECT h.choice FROM label_head h WHERE h.item_id = i.id AND h.annotator_id = @me AND h.task = 'pairwise') AS my_choice,
        (SELECT h.choice FROM label_head h JOIN annotator a ON a.id = h.annotator_id
          WHERE h.item_id = i.id AND h.task = 'pairwise' AND a.kind = 'source' LIMIT 1) AS source_choice
       FROM item i WHERE i.project_id = @project AND ${VISIBLE} AND i.seq ${keyset ? '> @after' : '>= @offset'}
       ORDER BY i.seq LIMIT @limit`,
    )
    .all({ project: projectId, me, limit: page.limit, ...(keyset ? { after: page.afterSeq } : { offset: page.offset }) }) as ListRow[];
  return {
    total: countItems(db, projectId),
    rows: rows.map((r) => ({
      id: r.id,
      seq: r.seq,
      externalId: r.external_id,
      prompt: previewText(r.prompt),
      responses: r.responses,
      labels: r.labels,
      myChoice: r.my_choice,
      sourceChoice: r.source_choice,
    })),
  };
}

/** The prompt column holds JSON, cut at 600 characters; show its text without breaking on the cut. */
function previewText(truncatedJson: string): string {
  try {
    return contentText(JSON.parse(truncatedJson) as Content).slice(0, 200);
  } catch {
    return truncatedJson.replace(/^"|\\n/g, ' ').slice(0, 200);
  }
}
