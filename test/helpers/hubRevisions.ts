// Many teammates' revisions on a hub at once, for the tests and benches of a big pull: one INSERT … SELECT
// straight into arbiter.revision as the cluster's superuser (row security exempts it), `teammates` revisions
// of every published item, each teammate with a uuid of their own, two in three choosing A.
import type pg from 'pg';

/** Writes them and answers how many revisions the hub project holds now. */
export async function bulkRevisions(admin: pg.Client, hubProject: number, teammates: number): Promise<number> {
  await admin.query(
    `INSERT INTO arbiter.revision (id, project_id, annotator_uuid, line)
     SELECT r.id, $1, r.au, jsonb_build_object('id', r.id, 'item', il.uid, 'item_uid', il.uid, 'annotator', 'mate' || a, 'annotator_uuid', r.au::text,
              'annotator_kind', 'human', 'task', 'pairwise', 'choice', CASE WHEN (a + il.seq) % 3 = 0 THEN 'B' ELSE 'A' END, 'strength', 2,
              'shown_order', jsonb_build_array(0, 1), 'created_at', '2026-01-01T00:00:00.000Z')
     FROM arbiter.item_line il CROSS JOIN generate_series(0, $2 - 1) AS a
     CROSS JOIN LATERAL (SELECT lpad(to_hex(a), 8, '0') || '-0000-7000-8000-' || lpad(to_hex(il.seq), 12, '0') AS id,
                                ('00000000-0000-4000-8000-' || lpad(to_hex(a), 12, '0'))::uuid AS au) r
     WHERE il.project_id = $1`,
    [hubProject, teammates],
  );
  return Number((await admin.query('SELECT count(*) AS n FROM arbiter.revision WHERE project_id = $1', [hubProject])).rows[0].n);
}
