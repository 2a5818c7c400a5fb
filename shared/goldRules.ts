// Gold for people (issue 23 §1): the lead's rules per task (project settings `gold`, carried through the hub
// with the other settings and checked by the same schema, shared/api/projects.ts), which queue slots are
// honeypots, and whether a person's judgement matches the gold one. Pure: the service (electron/core/
// service/goldRules.ts) and the review (electron/core/review/goldAccuracy.ts) apply it to the store.
import { z } from 'zod';
import { fnv1a } from './order';
import { annotatorName } from './api/common';

/** The tasks a queue serves items for, where a person's judgement can be checked against gold. */
export const GOLD_QUEUE_TASKS = ['pairwise', 'ranking', 'verdict', 'steps'] as const;
export type GoldQueueTask = (typeof GOLD_QUEUE_TASKS)[number];

/** The lead's rules for one task. */
export interface GoldTaskRules {
  /** Share of a person's queue slots that serve a gold item (0 – 0.5): honeypots, never shown as gold. */
  honeypotRate: number;
  /** How many gold items (the first in the file's order) make the qualification set; 0: none. */
  qualification: number;
  /** The share of the qualification set a person must get right to pass (0 – 1). */
  passMark: number;
  /** Accuracy on gold below which a person is flagged (0 – 1). */
  bar: number;
  /** Retries the lead granted: per person, the time from which their qualification labels count again. */
  retries: Record<string, string>;
}

export type GoldRules = Partial<Record<GoldQueueTask, GoldTaskRules>>;

export const DEFAULT_GOLD_TASK_RULES: GoldTaskRules = { honeypotRate: 0, qualification: 0, passMark: 0.8, bar: 0.7, retries: {} };

const share = z.number().min(0).max(1);
export const goldTaskRulesSchema = z
  .object({
    honeypotRate: z.number().min(0).max(0.5, 'a honeypot rate above 50% would leave people mostly gold'),
    qualification: z.number().int().min(0).max(200),
    passMark: share,
    bar: share,
    retries: z
      .record(annotatorName, z.iso.datetime())
      .refine((r) => Object.keys(r).length <= 500, 'more than 500 retries'),
  })
  .strict();
export const goldRulesSchema = z.object(Object.fromEntries(GOLD_QUEUE_TASKS.map((t) => [t, goldTaskRulesSchema.optional()])) as Record<GoldQueueTask, z.ZodOptional<typeof goldTaskRulesSchema>>).strict();

/** Whether a task's rules ask for anything of the queue. */
export function rulesActive(rules: GoldTaskRules | undefined): rules is GoldTaskRules {
  return !!rules && (rules.honeypotRate > 0 || rules.qualification > 0);
}

/**
 * Whether a person's queue slot `n` (the count of their judgements of the task so far) serves a honeypot:
 * a hash of who, where and which slot against the rate, so the mix is stable per person and differs
 * between people.
 */
export function honeypotSlot(annotator: string, project: string, task: string, n: number, rate: number): boolean {
  if (!(rate > 0)) return false;
  return mixed(`${annotator}\u0000${project}\u0000${task}\u0000${n}`) / 4294967296 < rate;
}

/**
 * FNV-1a, then MurmurHash3's finaliser: texts that differ only in their last characters (slot 17, 18, …)
 * differ in every bit. FNV-1a alone leaves its high bits poorly mixed by a last character, and the share of
 * slots under a rate came out 8.3% at 10% over 5,000 slots (test/unit/gold-rules.test.ts).
 */
function mixed(text: string): number {
  let h = fnv1a(text);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A person's own order over a list of gold items (seeded by who and where): stable, different per person. */
export function goldOrder<T extends { seq: number }>(items: readonly T[], annotator: string, project: string, task: string): T[] {
  const key = (seq: number) => mixed(`${annotator}\u0000${project}\u0000${task}\u0000gold\u0000${seq}`);
  return [...items].sort((a, b) => key(a.seq) - key(b.seq) || a.seq - b.seq);
}

/** What of a judgement is compared with gold. */
export interface JudgementFacts {
  choice: string | null;
  ranking: number[][] | null;
  /** Steps: the first wrong step per response letter (−1: none), as the steps body holds it. */
  firstError: Record<string, number | null> | null;
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Whether a person's judgement matches gold: the same choice (pairwise, verdict), the same ranking with
 * its ties, the same first wrong step of every response gold names. null when gold says nothing to check.
 */
export function matchesGold(task: GoldQueueTask, person: JudgementFacts, gold: JudgementFacts): boolean | null {
  if (task === 'pairwise' || task === 'verdict') return gold.choice === null ? null : person.choice === gold.choice;
  if (task === 'ranking') return gold.ranking === null ? null : sameJson(person.ranking, gold.ranking);
  const wanted = Object.entries(gold.firstError ?? {}).filter(([, v]) => v !== null && v !== undefined);
  if (!wanted.length) return null;
  return wanted.every(([letter, v]) => (person.firstError?.[letter] ?? null) === v);
}

/** A qualification's state for one person and task. */
export type QualificationState = 'pending' | 'passed' | 'failed';
