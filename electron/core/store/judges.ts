// Generative judges in SQLite (migrations/0015_judges.sql): templates (versioned per project and kind),
// the project's OpenAI-compatible server, results, and the edits annotators made to a judge's critique.
// `judgeResults` is the read the evaluation engine measures judges with.
import type { JudgeKind, JudgeResultView } from '../../../shared/api/judges';
import type { JudgeAnswer } from '../../../shared/judgeAnswers';
import type { Db } from './sqlite';

export interface JudgeTemplateRow {
  id: number;
  kind: JudgeKind;
  version: number;
  system: string;
  prompt: string;
  createdAt: string;
}

const TEMPLATE_COLUMNS = 'id, kind, version, system, prompt, created_at AS createdAt';

/** A template version: the newest when `version` is left out; null when none is saved. */
export function judgeTemplate(db: Db, projectId: number, kind: JudgeKind, version?: number): JudgeTemplateRow | null {
  const row =
    version === undefined
      ? db.prepare(`SELECT ${TEMPLATE_COLUMNS} FROM judge_template WHERE project_id = ? AND kind = ? ORDER BY version DESC LIMIT 1`).get(projectId, kind)
      : db.prepare(`SELECT ${TEMPLATE_COLUMNS} FROM judge_template WHERE project_id = ? AND kind = ? AND version = ?`).get(projectId, kind, version);
  return (row as JudgeTemplateRow | undefined) ?? null;
}

export function judgeTemplateVersions(db: Db, projectId: number, kind: JudgeKind): number {
  return db.prepare('SELECT count(*) FROM judge_template WHERE project_id = ? AND kind = ?').pluck().get(projectId, kind) as number;
}

/** Saves text as the next version unless the newest version holds the same text. */
export function saveJudgeTemplate(db: Db, projectId: number, kind: JudgeKind, system: string, prompt: string): { version: number; created: boolean } {
  const newest = judgeTemplate(db, projectId, kind);
  if (newest && newest.system === system && newest.prompt === prompt) return { version: newest.version, created: false };
  const version = (newest?.version ?? 0) + 1;
  db.prepare('INSERT INTO judge_template (project_id, kind, version, system, prompt, created_at) VALUES (?, ?, ?, ?, ?, ?)').run(projectId, kind, version, system, prompt, new Date().toISOString());
  return { version, created: true };
}

export interface JudgeEngineRow {
  baseUrl: string;
  apiKey: string;
  model: string;
}

export function judgeEngine(db: Db, projectId: number): JudgeEngineRow | null {
  return (db.prepare('SELECT base_url AS baseUrl, api_key AS apiKey, model FROM judge_engine WHERE project_id = ?').get(projectId) as JudgeEngineRow | undefined) ?? null;
}

export function setJudgeEngine(db: Db, projectId: number, engine: JudgeEngineRow | null): void {
  if (!engine) {
    db.prepare('DELETE FROM judge_engine WHERE project_id = ?').run(projectId);
    return;
  }
  db.prepare(
    `INSERT INTO judge_engine (project_id, base_url, api_key, model, updated_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (project_id) DO UPDATE SET base_url = excluded.base_url, api_key = excluded.api_key, model = excluded.model, updated_at = excluded.updated_at`,
  ).run(projectId, engine.baseUrl, engine.apiKey, engine.model, new Date().toISOString());
}

/** One result as a run writes it. */
export interface JudgeResultDraft {
  runId: string;
  projectId: number;
  itemId: number;
  response: number | null;
  kind: JudgeKind;
  engine: 'llama' | 'openai';
  modelName: string;
  modelHash: string;
  templateVersion: number;
  rubricVersion: number | null;
  params: Record<string, unknown>;
  seed: number;
  answer: JudgeAnswer | null;
  answerSwapped: JudgeAnswer | null;
  verdict: 'A' | 'B' | 'tie' | null;
  strength: number | null;
  flipped: boolean | null;
  firstError: number | null;
  outcome: string | null;
  critique: string | null;
  error: string | null;
  tokens: number;
  ms: number;
}

/** Appends results (inside the caller's write transaction). */
export function appendJudgeResults(db: Db, results: readonly JudgeResultDraft[]): void {
  const insert = db.prepare(
    `INSERT INTO judge_result (run_id, project_id, item_id, response_index, kind, engine, model_name, model_hash, template_version, rubric_version,
       params, seed, answer, answer_swapped, verdict, strength, flipped, first_error, outcome, critique, error, tokens, ms, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const now = new Date().toISOString();
  for (const r of results)
    insert.run(
      r.runId, r.projectId, r.itemId, r.response, r.kind, r.engine, r.modelName, r.modelHash, r.templateVersion, r.rubricVersion,
      JSON.stringify(r.params), r.seed, r.answer ? JSON.stringify(r.answer) : null, r.answerSwapped ? JSON.stringify(r.answerSwapped) : null,
      r.verdict, r.strength, r.flipped === null ? null : r.flipped ? 1 : 0, r.firstError, r.outcome, r.critique, r.error, r.tokens, r.ms, now,
    );
}

interface RawResult {
  id: number;
  item_id: number;
  response_index: number | null;
  kind: JudgeKind;
  engine: 'llama' | 'openai';
  model_name: string;
  model_hash: string;
  template_version: number;
  rubric_version: number | null;
  params: string;
  seed: number;
  answer: string | null;
  answer_swapped: string | null;
  verdict: 'A' | 'B' | 'tie' | null;
  strength: number | null;
  flipped: 0 | 1 | null;
  first_error: number | null;
  outcome: string | null;
  critique: string | null;
  error: string | null;
  run_id: string;
  tokens: number;
  ms: number;
  created_at: string;
}

/** A stored result with what the evaluation engine needs besides the view: its item, run, engine, rubric version. */
export interface JudgeResultRow extends JudgeResultView {
  itemId: number;
  runId: string;
  engine: 'llama' | 'openai';
  rubricVersion: number | null;
  answerSwapped: JudgeAnswer | null;
  tokens: number;
  ms: number;
}

const toRow = (r: RawResult): JudgeResultRow => ({
  id: r.id,
  itemId: r.item_id,
  runId: r.run_id,
  kind: r.kind,
  response: r.response_index,
  engine: r.engine,
  modelName: r.model_name,
  modelHash: r.model_hash,
  templateVersion: r.template_version,
  rubricVersion: r.rubric_version,
  seed: r.seed,
  params: JSON.parse(r.params) as Record<string, unknown>,
  verdict: r.verdict,
  strength: r.strength,
  flipped: r.flipped === null ? null : r.flipped === 1,
  firstError: r.first_error,
  outcome: r.outcome,
  critique: r.critique,
  answer: r.answer ? (JSON.parse(r.answer) as JudgeAnswer) : null,
  answerSwapped: r.answer_swapped ? (JSON.parse(r.answer_swapped) as JudgeAnswer) : null,
  error: r.error,
  tokens: r.tokens,
  ms: r.ms,
  createdAt: r.created_at,
});

export interface JudgeResultFilter {
  kind?: JudgeKind;
  modelHash?: string;
  itemId?: number;
  runId?: string;
  /** Only the newest result per (item, kind, response, model, template version): what a re-run replaced is left out. */
  newestOnly?: boolean;
}

/**
 * A project's judge results, oldest first (for evaluation: each names its model hash, template version,
 * params and seed; pairwise verdicts are in source order, `flipped` says the two orders disagreed; a
 * result with `error` holds no answer).
 */
export function judgeResults(db: Db, projectId: number, filter: JudgeResultFilter = {}): JudgeResultRow[] {
  const where = ['project_id = @projectId'];
  if (filter.kind) where.push('kind = @kind');
  if (filter.modelHash) where.push('model_hash = @modelHash');
  if (filter.itemId !== undefined) where.push('item_id = @itemId');
  if (filter.runId) where.push('run_id = @runId');
  const newest = filter.newestOnly
    ? ` AND id IN (SELECT max(id) FROM judge_result WHERE ${where.join(' AND ')} GROUP BY item_id, kind, coalesce(response_index, -1), model_hash, template_version)`
    : '';
  const rows = db.prepare(`SELECT * FROM judge_result WHERE ${where.join(' AND ')}${newest} ORDER BY item_id, coalesce(response_index, -1), id`).all({ projectId, ...filter }) as RawResult[];
  return rows.map(toRow);
}

export function judgeResultById(db: Db, projectId: number, id: number): JudgeResultRow | null {
  const row = db.prepare('SELECT * FROM judge_result WHERE project_id = ? AND id = ?').get(projectId, id) as RawResult | undefined;
  return row ? toRow(row) : null;
}

export interface CritiqueEditDraft {
  resultId: number;
  itemId: number;
  annotator: string;
  revisionId: string;
  distance: number;
  judgeLength: number;
  finalLength: number;
}

export function recordCritiqueEdit(db: Db, edit: CritiqueEditDraft): void {
  db.prepare(
    `INSERT INTO judge_critique_edit (result_id, item_id, annotator, revision_id, distance, judge_length, final_length, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (revision_id, result_id) DO UPDATE SET distance = excluded.distance, final_length = excluded.final_length`,
  ).run(edit.resultId, edit.itemId, edit.annotator, edit.revisionId, edit.distance, edit.judgeLength, edit.finalLength, new Date().toISOString());
}

/** The recorded critique edits of a project's items, oldest first. */
export function critiqueEdits(db: Db, projectId: number): (CritiqueEditDraft & { createdAt: string })[] {
  return db
    .prepare(
      `SELECT e.result_id AS resultId, e.item_id AS itemId, e.annotator, e.revision_id AS revisionId, e.distance, e.judge_length AS judgeLength,
              e.final_length AS finalLength, e.created_at AS createdAt
       FROM judge_critique_edit e JOIN judge_result r ON r.id = e.result_id WHERE r.project_id = ? ORDER BY e.id`,
    )
    .all(projectId) as (CritiqueEditDraft & { createdAt: string })[];
}
