// The datasets table: one page of items with a short prompt preview and label counts.
import type { ItemListRow } from '../../shared/api';
import { contentText } from '../../shared/choices';
import type { Content } from '../../shared/domain';
import type { Db } from './store/db';
import { findAnnotator } from './store/annotators';

export function listItemRows(db: Db, projectId: number, offset: number, limit: number, annotator?: string): { total: number; rows: ItemListRow[] } {
  const total = db.prepare('SELECT COUNT(*) FROM item WHERE project_id = ?').pluck().get(projectId) as number;
  const me = annotator ? findAnnotator(db, annotator)?.id ?? null : null;
  const rows = db
    .prepare(
      `SELECT i.id, i.seq, i.external_id, substr(i.prompt, 1, 600) AS prompt, json_array_length(i.responses) AS responses,
        (SELECT COUNT(*) FROM label_head h JOIN annotator a ON a.id = h.annotator_id
          WHERE h.item_id = i.id AND h.choice IS NOT NULL AND a.kind = 'human') AS labels,
        (SELECT h.choice FROM label_head h WHERE h.item_id = i.id AND h.annotator_id = @me) AS my_choice,
        (SELECT h.choice FROM label_head h JOIN annotator a ON a.id = h.annotator_id
          WHERE h.item_id = i.id AND a.kind = 'source' LIMIT 1) AS source_choice
       FROM item i WHERE i.project_id = @project ORDER BY i.seq LIMIT @limit OFFSET @offset`,
    )
    .all({ project: projectId, me, limit, offset }) as {
    id: number;
    seq: number;
    external_id: string | null;
    prompt: string;
    responses: number;
    labels: number;
    my_choice: string | null;
    source_choice: string | null;
  }[];
  return {
    total,
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
