// The `consensus` export: one line per pair people judged, with every annotator's label, the vote
// fractions (soft labels), Dawid–Skene's posterior (votes weighted by each annotator's estimated
// reliability), the hard label, and the lead's adjudication where there is one (which then is the hard
// label). The hard label is one of the labels people gave on the item, or `split` where their votes split
// evenly (dawidSkene.ts labelsFrom). For training on soft targets, for filtering by agreement, or for
// auditing who said what.
import { dawidSkene } from '../../review/dawidSkene';
import { majorityVote, TIE } from '../../review/majority';
import { ratingsFromTriples } from '../../review/ratings';
import { Index } from '../../review/collect';
import type { Db } from '../../store/db';
import type { ExportFilter } from '../../store/exportGate';
import { exportGate } from '../../store/exportGate';
import { iterateItems } from '../../store/items';
import { adjudicatedChoices, humanAnnotators, humanLabels } from '../../store/review';
import type { RecordWriter } from '../jsonl';
import type { ExportSummary } from '../../../../shared/domain';

const CHOICES = ['A', 'B', 'tie', 'both_bad'] as const;
const PAGE = 1000;
const round = (x: number) => Math.round(x * 1e4) / 1e4;

export interface ConsensusPass {
  projectId: number;
  writer: RecordWriter;
  skipped: ExportSummary['skipped'];
  filter?: ExportFilter;
  checkCancelled(): void;
  onPage(read: number): void;
}

export async function writeConsensus(db: Db, pass: ConsensusPass): Promise<void> {
  // One read of every current pairwise label: the consensus needs all of them (each annotator's
  // reliability comes from every item they labeled), then the items stream out in file order.
  const items = new Index<number>();
  const people = new Index<number>();
  const unit: number[] = [];
  const rater: number[] = [];
  const value: number[] = [];
  const byItem = new Map<number, { annotatorId: number; choice: string; strength: number | null }[]>();
  for (const row of humanLabels(db, pass.projectId, 'pairwise')) {
    const code = CHOICES.indexOf(row.choice as (typeof CHOICES)[number]);
    if (code < 0) continue;
    unit.push(items.of(row.itemId));
    rater.push(people.of(row.annotatorId));
    value.push(code);
    const list = byItem.get(row.itemId) ?? [];
    list.push({ annotatorId: row.annotatorId, choice: row.choice!, strength: row.strength });
    byItem.set(row.itemId, list);
  }
  const ratings = ratingsFromTriples(items.size, people.size, unit, rater, value);
  const majority = majorityVote(ratings, CHOICES.length);
  const ds = dawidSkene(ratings, { categories: CHOICES.length });
  const who = humanAnnotators(db);
  const adjudicated = adjudicatedChoices(db, pass.projectId);
  const gate = exportGate(db, pass.projectId, pass.filter ?? {}, ['pairwise']);
  const fractions = (soft: Float64Array, u: number) => Object.fromEntries(CHOICES.map((c, k) => [c, round(soft[u * CHOICES.length + k]!)]));
  const hard = (label: number) => (label >= 0 ? CHOICES[label]! : label === TIE ? 'split' : null);

  let read = 0;
  let page: { id: number; seq: number; line: () => Record<string, unknown> }[] = [];
  const flush = async () => {
    pass.checkCancelled();
    const gated = gate(page[0]!.seq, page[page.length - 1]!.seq);
    for (const entry of page) {
      const left = gated.get(entry.id);
      if (left) {
        pass.skipped[left]++;
        continue;
      }
      const pending = pass.writer.write(entry.line());
      if (pending) await pending;
    }
    read += page.length;
    page = [];
    pass.onPage(read);
  };
  for (const item of iterateItems(db, pass.projectId, PAGE, pass.filter?.items)) {
    const u = items.find(item.id);
    if (u === undefined || item.responses.length !== 2) {
      pass.skipped[item.responses.length !== 2 ? 'not_pairwise' : 'unlabeled']++;
      continue;
    }
    page.push({
      id: item.id,
      seq: item.seq,
      line: () => {
        const gold = adjudicated.get(item.id) ?? null;
        return {
          id: item.externalId ?? item.uid,
          item_uid: item.uid,
          prompt: item.prompt,
          responses: item.responses.map((r) => r.content),
          labels: byItem.get(item.id)!.map((l) => ({ annotator: who.get(l.annotatorId)?.name, annotator_uuid: who.get(l.annotatorId)?.uuid, choice: l.choice, strength: l.strength })),
          soft: fractions(majority.soft, u),
          majority: hard(majority.label[u]!),
          dawid_skene: fractions(ds.soft, u),
          adjudicated: gold,
          label: gold ?? hard(ds.label[u]!),
        };
      },
    });
    if (page.length >= PAGE) await flush();
  }
  if (page.length) await flush();
}
