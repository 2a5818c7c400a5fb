// Arbiter's lossless labels format: one label revision per line (FORMATS.md, "Labels").
// {"id","item","item_uid","annotator","annotator_kind","choice"|"ranking","strength","shown_order",
//  "ratings","steps","first_error","rationale","rubric_version","time_ms","prelabel_visible",…,"created_at"}
// `item` is the item's external id, or its uid when it has none; `item_uid` is always written too, so a
// labels file finds its items even where external ids repeat. Importing is all-or-nothing and idempotent.
import { z } from 'zod';
import type { AnnotatorKind, LabelBody, LabelRevision, LineError } from '../../../shared/domain';
import { ArbiterError, InvalidFileError } from '../errors';
import { ensureAnnotator, findAnnotator, SOURCE_ANNOTATOR } from '../store/annotators';
import type { Db } from '../store/db';
import { itemResolver } from '../store/items';
import { labelAppender } from '../store/labels';
import { requireProject } from '../store/projects';
import { readLines } from './jsonl';
import { RecordError } from './types';
import { check, isPlainObject } from './validate';

/** Body fields, in the order they are written. */
const BODY_KEYS = ['ratings', 'steps', 'first_error', 'rationale', 'rubric_version', 'time_ms', 'prelabel_visible'] as const;
const TOP_KEYS = new Set([
  'id',
  'item',
  'item_uid',
  'annotator',
  'annotator_kind',
  'choice',
  'ranking',
  'strength',
  'shown_order',
  'created_at',
  ...BODY_KEYS,
]);

export type RevisionWithItem = LabelRevision & { itemExternalId: string | null; itemUid: string };

export function encodeLabel(rev: RevisionWithItem): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: rev.id,
    item: rev.itemExternalId ?? rev.itemUid,
    item_uid: rev.itemUid,
    annotator: rev.annotator,
    annotator_kind: rev.annotatorKind,
  };
  if (rev.choice !== null || rev.ranking === null) out.choice = rev.choice;
  if (rev.ranking !== null) out.ranking = rev.ranking;
  if (rev.strength !== null) out.strength = rev.strength;
  if (rev.shownOrder !== null) out.shown_order = rev.shownOrder;
  const body = rev.body;
  for (const key of BODY_KEYS) if (body[key] !== undefined) out[key] = body[key];
  for (const key in body) if (!TOP_KEYS.has(key) && body[key] !== undefined) out[key] = body[key];
  out.created_at = rev.createdAt;
  return out;
}

const index = z.number().int().min(0);
const labelSchema = z.looseObject({
  id: z.string().min(1, 'empty').max(200, 'longer than 200 characters'),
  item: z.union([z.string().min(1, 'empty'), z.number()]),
  item_uid: z.string().min(1, 'empty').optional(),
  annotator: z.string().min(1, 'empty').max(80, 'longer than 80 characters'),
  annotator_kind: z.enum(['human', 'model', 'source']).optional(),
  choice: z.enum(['A', 'B', 'tie', 'both_bad']).nullable().optional(),
  ranking: z.array(index).min(2, 'fewer than 2 entries').nullable().optional(),
  strength: z.union([z.literal(1), z.literal(2), z.literal(3)], { error: 'must be 1, 2 or 3' }).nullable().optional(),
  shown_order: z.array(index).nullable().optional(),
  ratings: z.record(z.string(), z.record(z.string(), z.number())).optional(),
  steps: z.record(z.string(), z.array(z.number())).optional(),
  first_error: z.record(z.string(), z.number().int().nullable()).optional(),
  rationale: z.string().optional(),
  rubric_version: z.number().int().optional(),
  time_ms: z.number().min(0).optional(),
  prelabel_visible: z.boolean().optional(),
  created_at: z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'not a timestamp'),
});
type LabelLine = z.infer<typeof labelSchema>;

export interface LabelsImportResult {
  added: number;
  duplicates: number;
  lines: number;
}

export async function importLabelsLines(
  db: Db,
  opts: { project: string; fileName: string; lines: AsyncIterable<string> | Iterable<string>; onProgress?: (linesRead: number) => void },
): Promise<LabelsImportResult> {
  const errors: LineError[] = [];
  let lineNo = 0;
  let records = 0;
  let added = 0;
  let duplicates = 0;
  db.exec('BEGIN IMMEDIATE');
  try {
    const project = requireProject(db, opts.project);
    const append = labelAppender(db);
    const resolveItem = itemResolver(db, project.id);
    const byUid = db.prepare('SELECT id FROM item WHERE project_id = ? AND uid = ?').pluck();
    const responseCount = db.prepare('SELECT json_array_length(responses) FROM item WHERE id = ?').pluck();
    const annotators = new Map<string, { id: number; kind: AnnotatorKind }>();

    const annotatorFor = (name: string, kind: AnnotatorKind | undefined) => {
      const key = `${name}\u0000${kind ?? ''}`;
      let found = annotators.get(key);
      if (found) return found;
      try {
        const row = kind ? ensureAnnotator(db, name, kind) : (findAnnotator(db, name) ?? ensureAnnotator(db, name, name === SOURCE_ANNOTATOR ? 'source' : 'human'));
        found = { id: row.id, kind: row.kind };
      } catch (error) {
        throw new RecordError(`annotator_kind: ${error instanceof ArbiterError ? error.message : String(error)}`);
      }
      annotators.set(key, found);
      return found;
    };

    const apply = (text: string) => {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (error) {
        throw new RecordError(`invalid JSON: ${(error as Error).message}`);
      }
      if (!isPlainObject(value)) throw new RecordError('not a JSON object');
      const line: LabelLine = check(labelSchema, value);
      let itemId: number | null = null;
      if (line.item_uid !== undefined) itemId = (byUid.get(project.id, line.item_uid) as number | undefined) ?? null;
      if (itemId === null) itemId = resolveItem(String(line.item));
      if (itemId === null) throw new RecordError(`item: no item "${String(line.item)}" in project "${opts.project}"`);
      const count = responseCount.get(itemId) as number;
      const checkIndexes = (field: string, list: number[] | null | undefined) => {
        if (!list) return;
        const bad = list.find((i) => i >= count);
        if (bad !== undefined) throw new RecordError(`${field}: index ${bad} but the item has ${count} responses`);
        if (new Set(list).size !== list.length) throw new RecordError(`${field}: an index appears twice`);
      };
      checkIndexes('ranking', line.ranking);
      checkIndexes('shown_order', line.shown_order);
      const annotator = annotatorFor(line.annotator, line.annotator_kind);
      const body: LabelBody = {};
      for (const key of BODY_KEYS) if (line[key] !== undefined) (body as Record<string, unknown>)[key] = line[key];
      for (const key in line) if (!TOP_KEYS.has(key)) body[key] = (line as Record<string, unknown>)[key];
      const id = append({
        id: line.id,
        itemId,
        annotatorId: annotator.id,
        createdAt: line.created_at,
        choice: line.choice ?? null,
        ranking: line.ranking ?? null,
        strength: line.strength ?? null,
        shownOrder: line.shown_order ?? null,
        body,
      });
      if (id === null) duplicates++;
      else added++;
    };

    for await (const raw of opts.lines) {
      lineNo++;
      let text = raw;
      if (lineNo === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      if (text.trim() === '') continue;
      records++;
      try {
        apply(text);
      } catch (error) {
        if (!(error instanceof RecordError)) throw error;
        errors.push({ line: lineNo, reason: error.message });
      }
      if (opts.onProgress && lineNo % 1000 === 0) opts.onProgress(lineNo);
    }
    if (errors.length) throw new InvalidFileError(opts.fileName, errors);
    db.exec('COMMIT');
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw error;
  }
  opts.onProgress?.(lineNo);
  return { added, duplicates, lines: records };
}

export function importLabelsFile(db: Db, opts: { path: string; project: string; onProgress?: (linesRead: number) => void }): Promise<LabelsImportResult> {
  return importLabelsLines(db, { project: opts.project, fileName: opts.path, lines: readLines(opts.path), onProgress: opts.onProgress });
}
