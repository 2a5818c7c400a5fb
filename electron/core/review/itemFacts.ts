// The items explorer's facts: per visible item (indexed by its seq: a project's visible items hold
// seqs 0…n−1), every value a facet counts, in typed arrays (one byte or four per item and fact) and, for
// the facets an item may hold several values of (annotators, tags, metadata), sorted seq lists per value.
// Read once per change of the project's labels, adjudications or items (the review watermark), from the
// same machinery as the dashboard: the disagreement queue and its consensus (./report.ts), the majority
// rule of every export (./majority.ts), the models' P(A better) as the review computes it (./pairwise.ts).
// At 10M items the arrays take ~35 bytes an item; queries and counts over them are linear passes.
import { DISAGREEMENTS, LABEL_TASKS, SHAPES } from '../../../shared/itemFacets';
import type { Db } from '../store/db';
import { adjudicationsBySeq, itemMetadataFields, itemShapes, modelPairRewardsBySeq, responseModels } from '../store/itemFacts';
import { visibleSeqOf } from '../store/items';
import { reviewWatermark } from '../store/review';
import { readPeople, type Consensus } from './itemFactsPeople';
import { PostingLists, type Coded, type Postings } from './postings';
import { buildReview } from './report';

export interface ItemFacts {
  projectId: number;
  /** The review watermark these were read at. */
  asOf: string;
  n: number;
  ids: Int32Array;
  responses: Uint8Array;
  length: Int32Array;
  /** An index into SHAPES. */
  shape: Uint8Array;
  images: Uint8Array;
  adjudicated: Uint8Array;
  /** People with a current judgement (any task). */
  labels: Uint8Array;
  /** The models' mean P(A better); NaN when unscored. */
  score: Float32Array;
  /** The review's largest dispute for the item (0 when not in its queue). */
  dispute: Float32Array;
  /** Bit i: people split in DISAGREEMENTS[i]. */
  disputed: Uint8Array;
  /** Bit i: a person judged it in LABEL_TASKS[i]. */
  labeledAny: Uint8Array;
  /** The review's reason "model": the models pick the other response than the consensus. */
  modelDisagrees: Uint8Array;
  consensus: Record<Consensus, Coded>;
  /** person → task → seqs they judged. */
  people: Map<string, Map<string, Int32Array>>;
  sets: { annotator: Postings; tag: Postings; severity: Postings; outcome: Postings; split: Postings; wrong: Postings };
  /** metadata field → value → seqs (the responses' model names as the field "model" besides the file's). */
  meta: Map<string, Postings>;
}

/** Metadata fields kept (the first met), and a value's longest text. */
const META_FIELDS = 64;
const META_VALUE_CHARS = 200;
const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

export function factsWatermark(db: Db, projectId: number): string {
  return reviewWatermark(db, projectId);
}

export function buildItemFacts(db: Db, project: { id: number; name: string }): ItemFacts {
  return db.transaction(() => readFacts(db, project)).deferred();
}

function readFacts(db: Db, project: { id: number; name: string }): ItemFacts {
  const asOf = reviewWatermark(db, project.id);
  const n = visibleSeqOf(db, project.id);
  const ids = new Int32Array(n);
  const responses = new Uint8Array(n);
  const length = new Int32Array(n);
  const shape = new Uint8Array(n);
  const images = new Uint8Array(n);
  for (const [seq, id, count, chars, image, steps, trajectory] of itemShapes(db, project.id)) {
    ids[seq] = id;
    responses[seq] = Math.min(count, 255);
    length[seq] = Math.min(chars, 2 ** 31 - 1);
    images[seq] = image;
    shape[seq] = SHAPES.indexOf(count === 2 ? 'pair' : count > 2 ? 'ranking' : trajectory ? 'trajectory' : steps ? 'chain' : 'single');
  }
  const adjudicated = new Uint8Array(n);
  const resolvedChoice = new Map<number, string | null>();
  for (const [seq, task, choice] of adjudicationsBySeq(db, project.id)) {
    adjudicated[seq] = 1;
    if (task === 'pairwise') resolvedChoice.set(seq, choice);
  }

  const people = readPeople(db, project.id, n);

  // The review's disagreement queue: who split on what, its dispute, and where the models and people part.
  const review = buildReview(db, project);
  const dispute = new Float32Array(n);
  const disputed = new Uint8Array(n);
  const modelDisagrees = new Uint8Array(n);
  const bit = (name: (typeof DISAGREEMENTS)[number]) => 1 << DISAGREEMENTS.indexOf(name);
  for (const row of Object.values(review.queues).flat()) {
    if (row.seq >= n) continue;
    dispute[row.seq] = Math.max(dispute[row.seq]!, row.dispute);
    if (row.reasons.includes('model')) modelDisagrees[row.seq] = 1;
    if (!row.reasons.includes('annotators')) continue;
    if (row.task === 'steps') for (const kind of row.trajectory?.disputed ?? ['first_error' as const]) disputed[row.seq]! |= bit(kind);
    else disputed[row.seq]! |= bit(row.task);
  }
  for (const seq of people.rubricSplit) disputed[seq]! |= bit('rubric');

  // The models: P(A better) per model, their mean; a model is wrong where it picks the other response
  // than the lead's resolution, else than the people's majority.
  const score = new Float32Array(n).fill(Number.NaN);
  const sum = new Float64Array(n);
  const models = new Uint8Array(n);
  const wrong = new PostingLists();
  const pairCodes = people.consensus.pairwise;
  for (const [seq, model, rewardA, rewardB] of modelPairRewardsBySeq(db, project.id)) {
    const p = sigmoid(rewardA - rewardB);
    sum[seq] = sum[seq]! + p;
    models[seq] = models[seq]! + 1;
    const pick = p > 0.5 ? 'A' : p < 0.5 ? 'B' : null;
    const resolved = resolvedChoice.get(seq);
    const reference = resolved !== undefined ? resolved : pairCodes.codes[seq] ? pairCodes.names[pairCodes.codes[seq]! - 1]! : null;
    if (pick && (reference === 'A' || reference === 'B') && pick !== reference) wrong.add(model, seq);
  }
  for (let seq = 0; seq < n; seq++) if (models[seq]) score[seq] = sum[seq]! / models[seq]!;

  const meta = new Map<string, PostingLists>();
  const metaOf = (field: string) => {
    let lists = meta.get(field);
    if (!lists && meta.size < META_FIELDS) meta.set(field, (lists = new PostingLists()));
    return lists;
  };
  for (const [seq, field, value] of itemMetadataFields(db, project.id)) metaOf(field)?.add(String(value).slice(0, META_VALUE_CHARS), seq);
  for (const [seq, model] of responseModels(db, project.id)) metaOf('model')?.add(model.slice(0, META_VALUE_CHARS), seq);

  return {
    projectId: project.id,
    asOf,
    n,
    ids,
    responses,
    length,
    shape,
    images,
    adjudicated,
    labels: people.labels,
    score,
    dispute,
    disputed,
    labeledAny: people.labeledAny,
    modelDisagrees,
    consensus: people.consensus,
    people: people.byPerson,
    sets: { annotator: people.annotator, tag: people.tag, severity: people.severity, outcome: people.outcome, split: people.split, wrong: wrong.done() },
    meta: new Map([...meta].map(([field, lists]) => [field, lists.done()])),
  };
}

export const taskBit = (task: string) => 1 << LABEL_TASKS.indexOf(task as (typeof LABEL_TASKS)[number]);
