// The people's side of the items explorer's facts (./itemFacts.ts): one pass per task over the current
// human judgements, an item's rows together (seq order). Per item: who judged it in which task, the
// consensus the export rule gives (majorityOfVotes: the most votes, null when the top values tie, said
// "split"), the pairs of people whose judgements differ (the κ drill-down), error tags, severities,
// outcomes, and rubric criteria people rated differently.
import { LABEL_TASKS } from '../../../shared/itemFacets';
import { readLabelBody } from '../../../shared/labelBodies';
import type { Db } from '../store/db';
import { personHeads } from '../store/itemFacts';
import { PostingLists, type Coded, type Postings } from './postings';
import { majorityOfVotes } from './majority';

export const CONSENSUS_PARTS = ['pairwise', 'ranking', 'verdict', 'outcome'] as const;
export type Consensus = (typeof CONSENSUS_PARTS)[number];

export interface People {
  labels: Uint8Array;
  labeledAny: Uint8Array;
  consensus: Record<Consensus, Coded>;
  byPerson: Map<string, Map<string, Int32Array>>;
  annotator: Postings;
  tag: Postings;
  severity: Postings;
  outcome: Postings;
  /** Keyed by JSON.stringify of the two names, sorted. */
  split: Postings;
  /** The week (its Monday, YYYY-MM-DD, UTC) a person's current pairwise label was made. */
  week: Postings;
  /** Whether the model's pre-label was shown (shown / hidden) when a person made their current pairwise label. */
  prelabel: Postings;
  rubricSplit: number[];
}

/** The key of a pair of people in `split`. */
export const pairKey = (a: string, b: string) => JSON.stringify(a < b ? [a, b] : [b, a]);

class Coder {
  readonly codes: Uint8Array;
  readonly names: string[] = [];
  private readonly at = new Map<string, number>();
  constructor(n: number) {
    this.codes = new Uint8Array(n);
  }
  set(seq: number, value: string): void {
    let code = this.at.get(value);
    if (code === undefined) {
      if (this.names.length >= 255) return; // more than 255 distinct consensus values: the rest uncounted
      this.names.push(value);
      this.at.set(value, (code = this.names.length));
    }
    this.codes[seq] = code;
  }
}

interface Row {
  person: string;
  choice: string | null;
  ranking: string | null;
  body: string | null;
  createdAt: string | null;
}

const DAY_MS = 86_400_000;

/** The Monday (UTC) of the week a time falls in, as the review's agreement over time groups labels. */
export function weekOf(iso: string): string | null {
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) return null;
  const day = Math.floor(ms / DAY_MS);
  return new Date((day - ((day + 3) % 7)) * DAY_MS).toISOString().slice(0, 10);
}

const letter = (i: number) => String.fromCharCode(65 + i);

/**
 * The people's facts of the n visible items, or of `seqs` alone (ascending; a label change's items): then
 * the typed arrays hold one slot per seq given, in that order, and the seq lists hold the seqs themselves.
 */
export function readPeople(db: Db, projectId: number, n: number, seqs?: number[]): People {
  const slots = seqs ? new Map(seqs.map((seq, i) => [seq, i])) : null;
  const slot = (seq: number) => (slots ? slots.get(seq)! : seq);
  const size = seqs ? seqs.length : n;
  const labeledAny = new Uint8Array(size);
  const coders = Object.fromEntries(CONSENSUS_PARTS.map((c) => [c, new Coder(size)])) as Record<Consensus, Coder>;
  const byPerson = new Map<string, Map<string, PostingLists>>();
  const annotator = new PostingLists();
  const tag = new PostingLists();
  const severity = new PostingLists();
  const outcome = new PostingLists();
  const split = new PostingLists();
  const week = new PostingLists();
  const prelabel = new PostingLists();
  const rubricSplit: number[] = [];

  const vote = (coder: Coder, seq: number, votes: Record<string, number>) => {
    if (Object.keys(votes).length) coder.set(slot(seq), majorityOfVotes(votes) ?? 'split');
  };
  const group = (task: string, seq: number, rows: Row[]) => {
    labeledAny[slot(seq)]! |= 1 << LABEL_TASKS.indexOf(task as (typeof LABEL_TASKS)[number]);
    const judgement: (string | null)[] = [];
    const votes: Record<string, number> = {};
    const outcomes: Record<string, number> = {};
    const rubric = new Map<string, Set<string>>();
    for (const row of rows) {
      let lists = byPerson.get(row.person);
      if (!lists) byPerson.set(row.person, (lists = new Map()));
      let list = lists.get(task);
      if (!list) lists.set(task, (list = new PostingLists()));
      list.add('', seq);
      annotator.add(row.person, seq);
      if (task === 'pairwise') {
        const made = row.createdAt === null ? null : weekOf(row.createdAt);
        if (made) week.add(made, seq);
        // Read as the review's anchoring reads it (a flag in the body), without parsing the body.
        if (row.body?.includes('"prelabel_visible":true')) prelabel.add('shown', seq);
        else if (row.body?.includes('"prelabel_visible":false')) prelabel.add('hidden', seq);
      }
      if (task === 'pairwise' || task === 'verdict') {
        judgement.push(row.choice);
        if (row.choice !== null) votes[row.choice] = (votes[row.choice] ?? 0) + 1;
      } else if (task === 'ranking') {
        judgement.push(row.ranking);
        const groups = row.ranking ? (JSON.parse(row.ranking) as number[][]) : [];
        if (groups[0]?.length === 1) votes[letter(groups[0][0]!)] = (votes[letter(groups[0][0]!)] ?? 0) + 1;
      } else if (task === 'steps') {
        const body = readLabelBody(row.body ?? '{}');
        judgement.push(JSON.stringify([body.first_error ?? null, body.outcome ?? null]));
        for (const [key, value] of Object.entries(body.outcome ?? {})) {
          outcome.add(String(value), seq);
          const said = key === 'A' ? String(value) : `${key}: ${value}`;
          outcomes[said] = (outcomes[said] ?? 0) + 1;
        }
        for (const byStep of Object.values(body.step_tags ?? {})) for (const tags of Object.values(byStep)) for (const t of tags) tag.add(t, seq);
        for (const byStep of Object.values(body.step_severity ?? {})) for (const s of Object.values(byStep)) severity.add(String(s), seq);
      } else if (task === 'rubric') {
        const body = readLabelBody(row.body ?? '{}');
        judgement.push(JSON.stringify(body.ratings ?? {}));
        for (const [response, values] of Object.entries(body.ratings ?? {}))
          for (const [key, value] of Object.entries(values)) {
            if (value === null || value === undefined) continue;
            const at = `${response}/${key}`;
            rubric.set(at, (rubric.get(at) ?? new Set()).add(String(value)));
          }
      } else judgement.push(null); // a critique is text: nobody "splits" on it
    }
    if (task === 'pairwise' || task === 'ranking' || task === 'verdict') vote(coders[task], seq, votes);
    if (task === 'steps') vote(coders.outcome, seq, outcomes);
    if (task === 'rubric' && [...rubric.values()].some((values) => values.size > 1)) rubricSplit.push(seq);
    for (let i = 0; i < rows.length; i++)
      for (let j = i + 1; j < rows.length; j++)
        if (judgement[i] !== null && judgement[j] !== null && judgement[i] !== judgement[j]) split.add(pairKey(rows[i]!.person, rows[j]!.person), seq);
  };

  for (const task of LABEL_TASKS) {
    let current = -1;
    let rows: Row[] = [];
    for (const [seq, person, choice, ranking, body, createdAt] of personHeads(db, projectId, task, seqs)) {
      if (seq >= n) continue;
      if (seq !== current) {
        if (rows.length) group(task, current, rows);
        current = seq;
        rows = [];
      }
      rows.push({ person, choice, ranking, body, createdAt });
    }
    if (rows.length) group(task, current, rows);
  }

  const annotatorPostings = annotator.done();
  const labels = new Uint8Array(size);
  for (const held of annotatorPostings.values()) for (const seq of held) labels[slot(seq)] = Math.min(255, labels[slot(seq)]! + 1);
  return {
    labels,
    labeledAny,
    consensus: Object.fromEntries(CONSENSUS_PARTS.map((c) => [c, { codes: coders[c].codes, names: coders[c].names }])) as Record<Consensus, Coded>,
    byPerson: new Map([...byPerson].map(([person, tasks]) => [person, new Map([...tasks].map(([task, lists]) => [task, lists.done().get('')!]))])),
    annotator: annotatorPostings,
    tag: tag.done(),
    severity: severity.done(),
    outcome: outcome.done(),
    split: split.done(),
    week: week.done(),
    prelabel: prelabel.done(),
    rubricSplit,
  };
}
