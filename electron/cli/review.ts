// `arbiter review --project NAME [--task T] [--reason R] [--limit N] [--json]`: the disagreement queue,
// most disputed first, items by external id; `arbiter adjudicate --project NAME --item ID (--choice C |
// --verdict V | --ranking R | --first-error A=2,B=-1 and / or --outcome A=failure) [--strength N] [--task T] [--note TEXT] [--lead NAME]`;
// and the review figures that `arbiter stats` prints (docs/cli.md).
import { goldLines } from './goldLines';
import { QUEUE_REASONS, REVIEW_TASKS, reviewSchemas, type Figure, type QueueRow, type ReviewReport } from '../../shared/api/review';
import { invalidInput } from '../core/base/errors';
import { buildReview, withExternalIds, getItem, itemResolver, projects, type Db } from '../core/service/storeDirect';
import { adjudicateItem } from '../core/service/review';
import { parse, UsageError, withDb, type CliIo } from './io';
import { requireProjectName } from './options';
import { plural } from '../../shared/plural';

type Command = (argv: string[], io: CliIo) => Promise<number>;

function oneOf<T extends string>(name: string, value: unknown, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (!allowed.includes(value as T)) throw new UsageError(`--${name} must be one of ${allowed.join(', ')}`);
  return value as T;
}

const percent = (f: Figure) => (f.value === null ? `— (${f.reason})` : `${(f.value * 100).toFixed(1)}%`);
const number = (f: Figure) => (f.value === null ? `— (${f.reason})` : f.value.toFixed(3));

/** The report as a few readable lines (`stats` without --json). */
export function reviewLines(report: ReviewReport): string[] {
  const lines = [`  agreement (${plural(report.labels, 'current human label')} by ${plural(report.annotators, 'person', 'people')}):`];
  for (const f of report.fields) {
    const parts = [`percent ${percent(f.percent)}`, `α ${f.level} ${number(f.alpha)}`];
    if (f.alsoAlpha) parts.push(`α ${f.alsoAlpha.level} ${number(f.alsoAlpha)}`);
    if (f.fleiss) parts.push(`Fleiss κ ${number(f.fleiss)}`);
    if (f.cohen) parts.push(`Cohen κ ${number(f.cohen)} (${f.cohen.between.join(' & ')})`);
    if (f.kendallW) parts.push(`Kendall W ${number(f.kendallW)}`);
    if (f.withinOne) parts.push(`within one step ${percent(f.withinOne)}`);
    lines.push(`    ${f.task} ${f.field}: ${parts.join(', ')}; n ${f.alpha.n}`);
  }
  for (const p of report.people)
    lines.push(`    ${p.name}: ${p.labels} labels; with others ${percent(p.withOthers)}, with consensus ${percent(p.withConsensus)}, left picks ${percent(p.leftPicks)}, longer picks ${percent(p.longerPicks)}`);
  for (const m of report.models) lines.push(`    model ${m.model}: accuracy ${percent(m.accuracy)}, Brier ${number(m.brier)}, ECE ${number(m.ece)}`);
  // Older reports (a cached JSON) may lack region figures.
  const regions = report.regions as ReviewReport['regions'] | undefined;
  if (regions && (regions.boxes.n || regions.absent.n))
    lines.push(`    region marks: boxes mean IoU ${number(regions.boxes)} over ${plural(regions.boxes.n, 'image')} two or more people boxed; "not present" agreement ${percent(regions.absent)} over ${plural(regions.absent.n, 'image-tag')}`);
  lines.push(...goldLines(report.gold));
  lines.push(`  review queue: ${report.queue.total} items (${Object.entries(report.queue.byReason).map(([r, n]) => `${r} ${n}`).join(', ')}), ${report.queue.adjudicated} adjudicated`);
  return lines;
}

/** The review report of a project, computed in this process (the CLI has no host thread to keep free). */
export function projectReview(db: Db, name: string) {
  return buildReview(db, projects.requireProject(db, name));
}

function queueLine(row: QueueRow): string {
  const votes = Object.entries(row.votes).map(([k, n]) => `${k}×${n}`).join(' ');
  const model = row.modelPA === null ? '' : `  model P(A) ${row.modelPA.toFixed(2)}`;
  const t = row.trajectory;
  const trajectory = t ? `  trajectory${t.turns === null ? '' : `, ${plural(t.turns, 'turn')}`}, split on ${t.disputed.map((d) => (d === 'first_error' ? 'the first error turn' : 'the outcome')).join(' and ')}` : '';
  return `${(row.externalId ?? `#${row.itemId}`).padEnd(16)} ${row.dispute.toFixed(2)}  ${row.reasons.join(',').padEnd(22)} ${votes}${model}${trajectory}${row.adjudicated ? '  adjudicated' : ''}`;
}

export const reviewCommand: Command = async (argv, io) => {
  const { values } = parse(argv, {
    project: { type: 'string' },
    task: { type: 'string' },
    reason: { type: 'string' },
    limit: { type: 'string' },
    json: { type: 'boolean', default: false },
  });
  const project = requireProjectName(values);
  const task = oneOf('task', values.task, REVIEW_TASKS, 'pairwise');
  const reason = values.reason === undefined ? undefined : oneOf('reason', values.reason, QUEUE_REASONS, 'annotators');
  const limit = values.limit === undefined ? Infinity : Number(values.limit);
  if (!(limit > 0)) throw new UsageError('--limit must be a positive number');
  return withDb(values, (db) => {
    const rows = withExternalIds(db, projectReview(db, project).queues[task].filter((r) => !reason || r.reasons.includes(reason)).slice(0, limit));
    if (values.json) io.out(JSON.stringify({ project, task, rows }));
    else {
      io.out(`${project}: ${rows.length} ${task} item(s) to review, most disputed first`);
      for (const row of rows) io.out(`  ${queueLine(row)}`);
    }
    return 0;
  });
};

/** "A=2,B=-1" → {A: 2, B: -1}. */
function firstErrors(text: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const part of text.split(',')) {
    const m = /^\s*([A-Z])\s*=\s*(-?\d+)\s*$/.exec(part);
    if (!m) throw new UsageError(`--first-error takes LETTER=INDEX pairs such as A=2,B=-1 (it was "${text}")`);
    out[m[1]!] = Number(m[2]);
  }
  return out;
}

/** "A=failure,B=success" → {A: 'failure', B: 'success'} (checked by the API's schema and the item). */
function outcomes(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of text.split(',')) {
    const m = /^\s*([A-Z])\s*=\s*([a-z]+)\s*$/.exec(part);
    if (!m) throw new UsageError(`--outcome takes LETTER=OUTCOME pairs such as A=failure,B=success (it was "${text}")`);
    out[m[1]!] = m[2]!;
  }
  return out;
}

/** "2,0,1" or "2,[0 1]" (tied responses in brackets) → [[2],[0],[1]] or [[2],[0,1]]. */
function rankingOf(text: string): number[][] {
  const groups = text.match(/\[[^\]]*\]|[^,[\]]+/g) ?? [];
  const ranking = groups.map((g) => g.replace(/[[\]]/g, '').trim().split(/[\s,]+/).filter(Boolean).map(Number)).filter((g) => g.length);
  if (!ranking.length || ranking.flat().some((n) => !Number.isInteger(n) || n < 0)) throw new UsageError(`--ranking takes response indexes best first, tied ones in brackets: 2,[0 1] (it was "${text}")`);
  return ranking;
}

/** What --item takes, said where an item is not found (and in --help). */
const ITEM_ID = "ID: the item's external id (the file's \"id\"), its uid, or the #N `arbiter review` lists for an item without one (N alone too).";

/** An item of the project by external id, uid, or `#N` / `N` (its number, as the review queue lists it). */
function resolveItem(db: Db, projectId: number, ref: string): number | null {
  const found = itemResolver(db, projectId)(ref);
  if (found !== null) return found;
  const number = /^#?(\d{1,15})$/.exec(ref.trim());
  return number && getItem(db, projectId, Number(number[1])) ? Number(number[1]) : null;
}

export const adjudicateCommand: Command = async (argv, io) => {
  const { values } = parse(argv, {
    project: { type: 'string' },
    item: { type: 'string' },
    task: { type: 'string' },
    choice: { type: 'string' },
    strength: { type: 'string' },
    verdict: { type: 'string' },
    ranking: { type: 'string' },
    'first-error': { type: 'string' },
    outcome: { type: 'string' },
    note: { type: 'string' },
    lead: { type: 'string' },
  });
  const project = requireProjectName(values);
  if (!values.item) throw new UsageError(`--item ID is required. ${ITEM_ID}`);
  const task = oneOf('task', values.task, REVIEW_TASKS, values.ranking ? 'ranking' : values.verdict ? 'verdict' : values['first-error'] || values.outcome ? 'steps' : 'pairwise');
  const lead = String(values.lead ?? process.env.ARBITER_ANNOTATOR ?? process.env.USER ?? 'lead');
  return withDb(values, (db) => {
    const row = projects.requireProject(db, project);
    const itemId = resolveItem(db, row.id, String(values.item));
    if (itemId === null) throw invalidInput(`No item "${String(values.item)}" in project "${project}". ${ITEM_ID}`);
    const input = reviewSchemas.adjudicate.safeParse({
      project,
      annotator: lead,
      itemId,
      task,
      ...(values.choice !== undefined ? { choice: values.choice } : {}),
      ...(values.strength !== undefined ? { strength: Number(values.strength) } : {}),
      ...(values.verdict !== undefined ? { verdict: values.verdict } : {}),
      ...(values.ranking !== undefined ? { ranking: rankingOf(String(values.ranking)) } : {}),
      ...(values['first-error'] !== undefined ? { firstError: firstErrors(String(values['first-error'])) } : {}),
      ...(values.outcome !== undefined ? { outcome: outcomes(String(values.outcome)) } : {}),
      note: values.note === undefined ? '' : String(values.note),
    });
    if (!input.success) throw new UsageError(input.error.issues.map((i) => `--${i.path.join('.') || 'input'}: ${i.message}`).join('; '));
    const saved = adjudicateItem(db, input.data);
    io.out(JSON.stringify({ project, item: String(values.item), task, by: lead, ...saved }));
    return 0;
  });
};
