// Gold in each person's queue (issue 23 §1; the rules in shared/goldRules.ts, set per task in the project's
// settings `gold`). Qualification first: until a person has judged the task's qualification set (since the
// lead's last retry for them) the queue serves only its items, in their own seeded order; a person who
// failed it is held (the queue serves nothing) until the lead grants a retry. Then honeypots: a queue slot
// (their count of judgements of the task) is a honeypot at the lead's rate, by a hash of who and which slot,
// and serves the next gold item in their own seeded order; every other slot walks the project as before,
// skipping gold, and once the walk is done the honeypots left come one by one. A gold item is never shown as gold: the file's own label on it is not shown either.
import type { GoldStanding } from '../../../shared/api/goldRules';
import type { GoldJudgement } from '../../../shared/api/gold';
import type { Task } from '../../../shared/domain';
import { GOLD_QUEUE_TASKS, goldOrder, honeypotSlot, rulesActive, type GoldQueueTask } from '../../../shared/goldRules';
import { goldList } from '../review/gold';
import { qualificationOf, qualificationSet, taskRules } from '../review/goldAccuracy';
import { findAnnotator } from '../store/annotators';
import { goldWatermark, humanLabelsOnItems, itemUids, judgedCount } from '../store/goldRules';
import { requireProject, type ProjectRow } from '../store/projects';
import type { FeatureHandlers, ServiceContext } from './context';

/** What the queue does for this request: serve an item, serve nothing (held), or walk skipping gold. */
export type GoldTurn =
  | { kind: 'none' }
  | { kind: 'serve'; itemId: number }
  | { kind: 'held' }
  | { kind: 'walk'; skip: Set<string>; restart: boolean; rest: number | null };

const isQueueTask = (task: Task): task is GoldQueueTask => (GOLD_QUEUE_TASKS as readonly string[]).includes(task);

export function goldQueue({ db }: ServiceContext) {
  const cache = new Map<string, { watermark: string; gold: GoldJudgement[]; uids: Map<number, string> }>();
  /** The task's gold in the file's order, read again only when the gold may have changed. */
  const goldFor = (project: ProjectRow, task: GoldQueueTask) => {
    const key = `${project.id}:${task}`;
    const watermark = goldWatermark(db, project.id);
    const cached = cache.get(key);
    if (cached && cached.watermark === watermark) return cached;
    const gold = goldList(db, project.id, task);
    const entry = { watermark, gold, uids: itemUids(db, gold.map((g) => g.itemId)) };
    cache.set(key, entry);
    return entry;
  };

  /** What the rules make of the task's gold, per person: their own orders and how far their honeypots went. */
  const people = new Map<string, { key: string; set: GoldJudgement[]; honeypots: GoldJudgement[]; cursor: number; judged: number }>();
  const skipsOf = new Map<string, { key: string; skip: Set<string>; seqs: Set<number> }>();

  /**
   * The first honeypot in the person's order they have not judged: checked a few at a time from where the
   * last call stopped (a judgement is rarely taken back: a drop in their count starts the check over).
   */
  const nextHoneypot = (task: GoldQueueTask, meId: number, mine: { honeypots: GoldJudgement[]; cursor: number; judged: number }, judged: number): GoldJudgement | null => {
    if (judged < mine.judged) mine.cursor = 0;
    mine.judged = judged;
    while (mine.cursor < mine.honeypots.length) {
      const batch = mine.honeypots.slice(mine.cursor, mine.cursor + 32);
      const done = new Set(humanLabelsOnItems(db, task, batch.map((g) => g.itemId), meId).map((l) => l.itemId));
      const open = batch.findIndex((g) => !done.has(g.itemId));
      if (open >= 0) {
        mine.cursor += open;
        return batch[open]!;
      }
      mine.cursor += batch.length;
    }
    return null;
  };

  /** The queue's turn for a request of the labeling loop. */
  const turn = (project: ProjectRow, annotator: string, task: Task, request: { direction: 'next' | 'previous'; unlabeledOnly: boolean; afterSeq: number }): GoldTurn => {
    if (!isQueueTask(task)) return { kind: 'none' };
    const rules = taskRules(project, task);
    if (!rulesActive(rules)) return { kind: 'none' };
    const { gold, uids, watermark } = goldFor(project, task);
    if (!gold.length) return { kind: 'none' };
    const key = `${watermark}:${rules.qualification}:${rules.honeypotRate > 0}`;
    const personKey = `${project.id}:${task}:${annotator}`;
    let mine = people.get(personKey);
    if (!mine || mine.key !== key) {
      const set = qualificationSet(gold, rules);
      const honeypots = rules.honeypotRate > 0 ? gold.slice(set.length) : [];
      mine = { key, set: goldOrder(set, annotator, project.name, task), honeypots: goldOrder(honeypots, annotator, project.name, task), cursor: 0, judged: 0 };
      people.set(personKey, mine);
    }
    let skips = skipsOf.get(`${project.id}:${task}`);
    if (!skips || skips.key !== key) {
      const skipped = [...mine.set, ...mine.honeypots];
      skips = { key, skip: new Set(skipped.map((g) => uids.get(g.itemId)!).filter(Boolean)), seqs: new Set(skipped.map((g) => g.seq)) };
      skipsOf.set(`${project.id}:${task}`, skips);
    }
    const me = findAnnotator(db, annotator);
    const forward = request.direction === 'next' && request.unlabeledOnly;
    if (mine.set.length) {
      const labels = me ? humanLabelsOnItems(db, task, mine.set.map((g) => g.itemId), me.id) : [];
      const qualification = qualificationOf(task, mine.set, rules, annotator, labels);
      if (qualification?.state === 'failed') return { kind: 'held' };
      if (qualification?.state === 'pending' && forward) {
        const since = rules.retries[annotator] ? Date.parse(rules.retries[annotator]) : Number.NEGATIVE_INFINITY;
        const judged = new Set(labels.filter((l) => Date.parse(l.createdAt) > since).map((l) => l.itemId));
        const next = mine.set.find((g) => !judged.has(g.itemId));
        if (next) return { kind: 'serve', itemId: next.itemId };
      }
    }
    const count = me ? judgedCount(db, project.id, task, me.id) : 0;
    const honeypot = forward && me && mine.honeypots.length ? nextHoneypot(task, me.id, mine, count) : null;
    if (honeypot && honeypotSlot(annotator, project.name, task, count, rules.honeypotRate)) return { kind: 'serve', itemId: honeypot.itemId };
    // Qualification items never come round again; honeypots come only in their slots, or once the walk is
    // done. After a gold item (served out of the walk's order) the walk starts over: labeled items are skipped.
    return { kind: 'walk', skip: skips.skip, restart: forward && skips.seqs.has(request.afterSeq), rest: honeypot?.itemId ?? null };
  };

  /** Whether an item is gold of a task whose rules mix gold into queues (its file's label then stays hidden). */
  const hidesGold = (project: ProjectRow, task: Task, itemId: number): boolean => {
    if (!isQueueTask(task) || !rulesActive(taskRules(project, task))) return false;
    return goldFor(project, task).uids.has(itemId);
  };

  const standing = (projectName: string, annotator: string): GoldStanding => {
    const project = requireProject(db, projectName);
    const me = findAnnotator(db, annotator);
    const tasks: GoldStanding['tasks'] = [];
    for (const task of GOLD_QUEUE_TASKS) {
      const rules = taskRules(project, task);
      if (rules.qualification <= 0) continue;
      const set = qualificationSet(goldFor(project, task).gold, rules);
      const mine = me ? humanLabelsOnItems(db, task, set.map((g) => g.itemId), me.id) : [];
      const qualification = qualificationOf(task, set, rules, annotator, mine);
      if (qualification) tasks.push({ task, qualification });
    }
    return { project: project.name, annotator, tasks };
  };

  return { turn, hidesGold, standing };
}

export function goldRulesHandlers(context: ServiceContext, queue = goldQueue(context)): FeatureHandlers<'goldStanding'> {
  return {
    goldStanding: ({ project, annotator }) => queue.standing(project, annotator),
  };
}
