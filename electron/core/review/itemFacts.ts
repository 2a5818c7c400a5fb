// The items explorer's facts: per visible item (indexed by its seq: a project's visible items hold
// seqs 0…n−1), every value a facet counts, in typed arrays (one byte or four per item and fact) and, for
// the facets an item may hold several values of (annotators, tags, metadata), sorted seq lists per value.
// Two parts, read apart: the items' (shape, length, images, metadata), read again only for the seqs an
// import adds; and the labels' (read again when the review watermark moves), from the same machinery as
// the dashboard: the disagreement queue and its consensus (./report.ts), the majority rule of every export
// (./majority.ts), the models' P(A better) as the review computes it (./pairwise.ts) and the uncertainty
// the uncertain labeling order ranks by (./priority.ts). Queries and counts over them are linear passes.
import { DISAGREEMENTS, SHAPES } from '../../../shared/itemFacets';
import type { Db } from '../store/db';
import { adjudicationsBySeq, factMarks, itemMetadata, itemShapes, modelPairRewardsBySeq, responseModels, type FactMarks } from '../store/itemFacts';
import { visibleSeqOf } from '../store/items';
import { reviewWatermark } from '../store/review';
import { readPeople, type Consensus } from './itemFactsPeople';
import { PostingLists, type Coded, type Postings } from './postings';
import { goldOf } from './gold';
import { reviewQueues } from './report';

/** What the items say: read once, and for an import's new seqs only. */
export interface ItemPart {
  n: number;
  ids: Int32Array;
  responses: Uint8Array;
  length: Int32Array;
  /** An index into SHAPES. */
  shape: Uint8Array;
  images: Uint8Array;
  /** metadata field → value → seqs (the responses' model names as the field "model" besides the file's). */
  meta: Map<string, Postings>;
}

/** What the labels, adjudications and models say of each item alone: kept current item by item (./itemFactsDelta.ts). */
export interface PeoplePart {
  /** Where they were read. */
  marks: FactMarks;
  adjudicated: Uint8Array;
  /** People with a current judgement (any task). */
  labels: Uint8Array;
  /** The models' mean P(A better); NaN when unscored (single precision). */
  score: Float32Array;
  /** Pre-label uncertainty as the uncertain labeling order ranks it (./priority.ts): the models' mean of 1 − |2·P(A) − 1|; NaN when unscored. */
  uncertainty: Float32Array;
  /** Bit i: a person judged it in LABEL_TASKS[i]. */
  labeledAny: Uint8Array;
  /** 1: people rated a rubric criterion differently. */
  rubricSplit: Uint8Array;
  consensus: Record<Consensus, Coded>;
  /** person → task → seqs they judged. */
  people: Map<string, Map<string, Int32Array>>;
  sets: { annotator: Postings; tag: Postings; severity: Postings; outcome: Postings; split: Postings; wrong: Postings; week: Postings; prelabel: Postings };
}

/**
 * What the review's disagreement queue says (./report.ts): project-wide (the Dawid–Skene consensus the
 * model reason compares with), so read whole, in the background, while the people's part is already current.
 */
export interface ReviewPart {
  /** The review watermark these were read at. */
  asOf: string;
  n: number;
  /** The review's largest dispute for the item (0 when not in its queue). */
  dispute: Float32Array;
  /** Bit i: people split in DISAGREEMENTS[i] (the rubric's bit from the people's part). */
  disputed: Uint8Array;
  /** The review's reason "model": the models pick the other response than the consensus. */
  modelDisagrees: Uint8Array;
}

/** Both, as the facets read them. */
export type LabelPart = Omit<PeoplePart, 'marks' | 'rubricSplit'> & Omit<ReviewPart, 'n'>;

export type ItemFacts = ItemPart & LabelPart & { projectId: number };

/** Metadata fields kept (the first met), and a value's longest text. */
const META_FIELDS = 64;
const META_VALUE_CHARS = 200;
const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

export function factsWatermark(db: Db, projectId: number): string {
  return reviewWatermark(db, projectId);
}

export function visibleItems(db: Db, projectId: number): number {
  return visibleSeqOf(db, projectId);
}

/** Grows a typed array to n, keeping what it holds. */
function grown<T extends Int32Array | Uint8Array>(old: T | undefined, n: number, make: (n: number) => T): T {
  const out = make(n);
  if (old) out.set(old.subarray(0, Math.min(old.length, n)));
  return out;
}

/** The items' part: `previous` (read when the project had fewer items) is kept, and only the seqs after it are read. */
export function readItemPart(db: Db, projectId: number, previous?: ItemPart): ItemPart {
  return db.transaction(() => {
    const n = visibleSeqOf(db, projectId);
    const keep = previous && previous.n <= n ? previous : undefined;
    const from = keep?.n ?? 0;
    const ids = grown(keep?.ids, n, (k) => new Int32Array(k));
    const responses = grown(keep?.responses, n, (k) => new Uint8Array(k));
    const length = grown(keep?.length, n, (k) => new Int32Array(k));
    const shape = grown(keep?.shape, n, (k) => new Uint8Array(k));
    const images = grown(keep?.images, n, (k) => new Uint8Array(k));
    for (const [seq, id, count, chars, image, steps, trajectory] of itemShapes(db, projectId, from)) {
      ids[seq] = id;
      responses[seq] = Math.min(count, 255);
      length[seq] = Math.min(chars, 2 ** 31 - 1);
      images[seq] = image;
      shape[seq] = SHAPES.indexOf(count === 2 ? 'pair' : count > 2 ? 'ranking' : trajectory ? 'trajectory' : steps ? 'chain' : 'single');
    }
    const lists = new Map<string, PostingLists>();
    const fields = new Set(keep?.meta.keys());
    const listOf = (field: string) => {
      let list = lists.get(field);
      if (!list && (fields.has(field) || fields.size < META_FIELDS)) {
        fields.add(field);
        lists.set(field, (list = new PostingLists()));
      }
      return list;
    };
    for (const [seq, text] of itemMetadata(db, projectId, from)) {
      let metadata: unknown;
      try {
        metadata = JSON.parse(text);
      } catch {
        continue;
      }
      if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata)) continue;
      for (const [field, value] of Object.entries(metadata))
        if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') listOf(field)?.add(String(value).slice(0, META_VALUE_CHARS), seq);
    }
    for (const [seq, model] of responseModels(db, projectId, from)) listOf('model')?.add(model.slice(0, META_VALUE_CHARS), seq);
    const meta = new Map(keep?.meta);
    for (const [field, list] of lists) meta.set(field, appended(meta.get(field), list.done()));
    return { n, ids, responses, length, shape, images, meta };
  }).deferred();
}

/** Postings of earlier seqs followed by those of later ones, value by value. */
function appended(before: Postings | undefined, after: Postings): Postings {
  if (!before) return after;
  const out = new Map(before);
  for (const [value, seqs] of after) {
    const old = out.get(value);
    if (!old) out.set(value, seqs);
    else {
      const joined = new Int32Array(old.length + seqs.length);
      joined.set(old);
      joined.set(seqs, old.length);
      out.set(value, joined);
    }
  }
  return out;
}

const RUBRIC_BIT = 1 << DISAGREEMENTS.indexOf('rubric');
/**
 * The page cache the review's part is read with: the host holds the other parts meanwhile. At 10M items
 * (2M judged) the whole review read in 21.5 s with 64 MiB and 19.4 s with 16 MiB against 23.9 s with the
 * review's 256 MiB; the queues alone read in 8.3–9.1 s with 8 MiB as with 32 (docs/benchmarks.md).
 */
const REVIEW_CACHE_KIB = 8 * 1024;

/** The review's part for a project of n visible items, in one read transaction. */
export function readReviewPart(db: Db, project: { id: number; name: string }, n: number): ReviewPart {
  return db.transaction(() => {
    const asOf = reviewWatermark(db, project.id);
    // The review's disagreement queue: who split on what, its dispute, and where the models and people part.
    const queues = reviewQueues(db, project, REVIEW_CACHE_KIB);
    const dispute = new Float32Array(n);
    const disputed = new Uint8Array(n);
    const modelDisagrees = new Uint8Array(n);
    const bit = (name: (typeof DISAGREEMENTS)[number]) => 1 << DISAGREEMENTS.indexOf(name);
    for (const row of Object.values(queues).flat()) {
      if (row.seq >= n) continue;
      dispute[row.seq] = Math.max(dispute[row.seq]!, row.dispute);
      if (row.reasons.includes('model')) modelDisagrees[row.seq] = 1;
      if (!row.reasons.includes('annotators')) continue;
      if (row.task === 'steps') for (const kind of row.trajectory?.disputed ?? ['first_error' as const]) disputed[row.seq]! |= bit(kind);
      else disputed[row.seq]! |= bit(row.task);
    }
    return { asOf, n, dispute, disputed, modelDisagrees };
  }).deferred();
}

/**
 * The people's part of the n visible items, or of `seqs` alone (ascending: a label change's items; the
 * typed arrays then hold one slot per seq given), in one read transaction.
 */
export function readPeoplePart(db: Db, projectId: number, n: number, seqs?: number[]): PeoplePart {
  return db.transaction(() => {
    const marks = factMarks(db, projectId);
    const slots = seqs ? new Map(seqs.map((seq, i) => [seq, i])) : null;
    const size = seqs ? seqs.length : n;
    const adjudicated = new Uint8Array(size);
    const resolvedChoice = new Map<number, string | null>();
    for (const [seq, task, choice] of adjudicationsBySeq(db, projectId, seqs)) {
      if (seq >= n) continue;
      adjudicated[slots ? slots.get(seq)! : seq] = 1;
      if (task === 'pairwise') resolvedChoice.set(seq, choice);
    }
    const people = readPeople(db, projectId, n, seqs);
    const rubricSplit = new Uint8Array(size);
    for (const seq of people.rubricSplit) rubricSplit[slots ? slots.get(seq)! : seq] = 1;

    // The models: P(A better) per model, their mean; a model is wrong where it picks the other response
    // than the gold (./gold.ts: the lead's resolution, else the file's label a lead marked), else than the
    // people's majority.
    // (The gold is read for the project, so only when some of these items were scored: a label change's items mostly were not.)
    // A whole read streams the rewards (10M items: tens of millions of rows); a few items' are held first.
    const few = seqs ? [...modelPairRewardsBySeq(db, projectId, seqs)] : null;
    const rewards = few ?? modelPairRewardsBySeq(db, projectId);
    const gold = !few || few.length ? (goldOf(db, projectId, 'pairwise').get('pairwise') ?? new Map()) : new Map();
    for (const g of gold.values()) if (g.seq < n && (!slots || slots.has(g.seq)) && !resolvedChoice.has(g.seq)) resolvedChoice.set(g.seq, g.choice);
    const sum = new Float64Array(size);
    const unsure = new Float64Array(size);
    const models = new Uint8Array(size);
    const wrong = new PostingLists();
    const pairCodes = people.consensus.pairwise;
    for (const [seq, model, rewardA, rewardB] of rewards) {
      if (seq >= n) continue;
      const at = slots ? slots.get(seq)! : seq;
      const p = sigmoid(rewardA - rewardB);
      sum[at] = sum[at]! + p;
      unsure[at] = unsure[at]! + 1 - Math.abs(2 * p - 1);
      models[at] = models[at]! + 1;
      const pick = p > 0.5 ? 'A' : p < 0.5 ? 'B' : null;
      const resolved = resolvedChoice.get(seq);
      const reference = resolved !== undefined ? resolved : pairCodes.codes[at] ? pairCodes.names[pairCodes.codes[at]! - 1]! : null;
      if (pick && (reference === 'A' || reference === 'B') && pick !== reference) wrong.add(model, seq);
    }
    const score = new Float32Array(size).fill(Number.NaN);
    const uncertainty = new Float32Array(size).fill(Number.NaN);
    for (let at = 0; at < size; at++)
      if (models[at]) {
        score[at] = sum[at]! / models[at]!;
        uncertainty[at] = unsure[at]! / models[at]!;
      }
    return {
      marks,
      adjudicated,
      labels: people.labels,
      score,
      uncertainty,
      labeledAny: people.labeledAny,
      rubricSplit,
      consensus: people.consensus,
      people: people.byPerson,
      sets: { annotator: people.annotator, tag: people.tag, severity: people.severity, outcome: people.outcome, split: people.split, wrong: wrong.done(), week: people.week, prelabel: people.prelabel },
    };
  }).deferred();
}

/** The first n of a review column: the review's own (never written after its read) when it holds them all, else a copy with zeros after. */
function firstOf<T extends Float32Array | Uint8Array>(column: T, reviewN: number, n: number, make: (k: number) => T): T {
  if (reviewN >= n) return column.subarray(0, n) as T;
  const out = make(n);
  out.set(column.subarray(0, reviewN));
  return out;
}

/** The facets' view of both parts (the review's, read at fewer items, counts none of the later ones). */
export function joinLabelParts(people: PeoplePart, review: ReviewPart, n: number): LabelPart {
  const { marks: _marks, rubricSplit, ...rest } = people;
  // Written in place with the people's rubric bit (here and by withPeople): a copy.
  const disputed = new Uint8Array(n);
  disputed.set(review.disputed.subarray(0, Math.min(n, review.n)));
  for (let s = 0; s < n; s++) if (rubricSplit[s]) disputed[s]! |= RUBRIC_BIT;
  // The others are the review's own (at 10M items 50 MB not copied).
  const dispute = firstOf(review.dispute, review.n, n, (k) => new Float32Array(k));
  const modelDisagrees = firstOf(review.modelDisagrees, review.n, n, (k) => new Uint8Array(k));
  return { ...rest, asOf: review.asOf, dispute, disputed, modelDisagrees };
}

/** The facets' view after the people's part changed at `changed` alone (the review's as joined before): updated in place there. */
export function withPeople(joined: LabelPart, people: PeoplePart, review: ReviewPart, changed: number[]): LabelPart {
  const { marks: _marks, rubricSplit, ...rest } = people;
  const { disputed } = joined;
  for (const s of changed) disputed[s] = ((s < review.n ? review.disputed[s]! : 0) & ~RUBRIC_BIT) | (rubricSplit[s] ? RUBRIC_BIT : 0);
  return { ...rest, asOf: joined.asOf, dispute: joined.dispute, disputed, modelDisagrees: joined.modelDisagrees };
}

/** Both parts at once (a CLI run, a test, a task worker). */
export function buildItemFacts(db: Db, project: { id: number; name: string }): ItemFacts {
  const items = readItemPart(db, project.id);
  return { projectId: project.id, ...items, ...joinLabelParts(readPeoplePart(db, project.id, items.n), readReviewPart(db, project, items.n), items.n) };
}
