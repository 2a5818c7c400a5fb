// The datasets screen's items table: a page of rows from the walk (./store/itemList.ts), each with what
// the annotators and the models say about it, of every task (a pair's choice, a ranking, step judgements,
// a verdict: ./itemJudgementWords.ts), and the screen it opens on. "Model disagrees" keeps the pairs whose
// pre-label picks the other response than the annotator's own label or, where they have none, the label
// that decides the item on export (the majority of human labels, else the file's own preference).
import { ITEM_FILTERS, type ItemFilter, type ItemListRow, type ItemPage, type ListItemsRequest, type ProjectShapes } from '../../../shared/api';
import { contentText } from '../../../shared/choices';
import type { Choice, Content } from '../../../shared/domain';
import { decide } from '../formats/base/resolve';
import { judgementColumns, screenOf } from './itemJudgementWords';
import { itemRanker, itemVoter, type ItemVote } from '../scorer/itemVotes';
import { findAnnotator } from '../store/annotators';
import type { Db } from '../store/db';
import { judgementHeads, stepsStored } from '../store/itemJudgements';
import { walkItems, type ListRow } from '../store/itemList';
import { countItems, getItem } from '../store/items';
import { pairwiseHeads, progressCounts } from '../store/labels';

/** The filters of a pair's choice, offered where the project has pairs. */
const PAIR_FILTERS: ItemFilter[] = ['A', 'B', 'tie', 'both_bad', 'disagrees'];

/** The filters that fit a project of these shapes (not counted yet: every filter). */
export function filtersFor(shapes: ProjectShapes | undefined): ItemFilter[] {
  return !shapes || shapes.pairs > 0 ? [...ITEM_FILTERS] : ITEM_FILTERS.filter((f) => !PAIR_FILTERS.includes(f));
}


export function listItemsTable(db: Db, projectId: number, request: ListItemsRequest, shapes?: ProjectShapes): ItemPage {
  const me = request.annotator ? (findAnnotator(db, request.annotator)?.id ?? null) : null;
  const filters = filtersFor(shapes);
  const rows = tableRows(db, projectId, me);
  const total = countItems(db, projectId);
  // No model added: nothing can disagree, and there is no need to look.
  if (request.filter === 'disagrees' && !rows.voter) return { total, matching: 0, rows: [], next: null, scanned: total, filters };
  const walked = walkItems(db, projectId, { ...request, me }, request.filter === 'disagrees' ? rows.disagrees : undefined);
  return {
    total,
    matching: request.search?.trim() ? null : matchingCount(db, projectId, me, request.filter, total),
    rows: walked.rows.map(rows.describe),
    next: walked.next,
    scanned: walked.scanned,
    filters,
  };
}

/**
 * The table's columns of a row, of every task (prepared once per page): the people's consensus, the
 * models' vote and ranking, the annotator's own and everyone's judgements, the screen it opens on. The
 * items table and the items explorer (./items.ts) both describe their rows with it.
 */
export function tableRows(db: Db, projectId: number, me: number | null) {
  const heads = pairwiseHeads(db);
  const judgements = judgementHeads(db);
  const hasSteps = stepsStored(db);
  const ranker = itemRanker(db, projectId);
  const voter = itemVoter(db, projectId);
  const details = new Map<number, { consensus: ItemListRow['consensus']; model: ItemVote | null; decided: Choice | null }>();
  const detailsOf = (row: ListRow) => {
    let found = details.get(row.id);
    if (found) return found;
    const labels = heads(row.id);
    const item = voter ? getItem(db, projectId, row.id) : null;
    found = {
      consensus: consensusOf(decide(row.responses, labels.filter((l) => l.kind === 'human'))),
      model: item && voter ? voter(item) : null,
      decided: winnerOf(decide(row.responses, labels)),
    };
    details.set(row.id, found);
    return found;
  };
  const disagrees = (row: ListRow) => {
    const { model, decided } = detailsOf(row);
    const reference = row.my_choice ?? decided;
    return model !== null && (reference === 'A' || reference === 'B') && (model.vote === 'A' || model.vote === 'B') && model.vote !== reference;
  };
  const describe = (row: ListRow): ItemListRow => {
    const { consensus, model } = detailsOf(row);
    const ranking = ranker && row.responses >= 3 ? ranker(getItem(db, projectId, row.id)!) : null;
    return {
      id: row.id,
      seq: row.seq,
      externalId: row.external_id,
      prompt: previewText(row.prompt),
      responses: row.responses,
      labels: row.labels,
      myChoice: row.my_choice,
      sourceChoice: row.source_choice,
      consensus,
      model,
      adjudicated: row.adjudicated === 1,
      screen: screenOf(row.responses, row.responses === 1 && hasSteps(row.id)),
      ...judgementColumns(judgements(row.id, me)),
      modelRanking: ranking ? ranking.map((g) => g.map((i) => String.fromCharCode(65 + i)).join(' = ')).join(' > ') : null,
    };
  };
  return { describe, disagrees, voter };
}

/**
 * What the counters tell without a scan: the project's size and this annotator's done count, while their
 * only judgements are pairwise choices (an item judged in two tasks would count twice: then the walk counts).
 */
function matchingCount(db: Db, projectId: number, me: number | null, filter: ListItemsRequest['filter'], total: number): number | null {
  if (filter === 'all') return total;
  if (filter !== 'unlabeled' && filter !== 'labeled') return null;
  if ((['ranking', 'steps', 'verdict'] as const).some((task) => progressCounts(db, projectId, me, task).mine > 0)) return null;
  const mine = progressCounts(db, projectId, me).mine;
  return filter === 'labeled' ? mine : total - mine;
}

function winnerOf(decision: ReturnType<typeof decide>): Choice | null {
  if (decision.skip) return decision.skip === 'tie' || decision.skip === 'both_bad' ? decision.skip : null;
  return decision.winner === 0 ? 'A' : 'B';
}

function consensusOf(decision: ReturnType<typeof decide>): ItemListRow['consensus'] {
  return decision.skip === 'conflict' ? 'split' : winnerOf(decision);
}

/** The prompt column holds JSON, cut at 600 characters; show its text without breaking on the cut. */
function previewText(truncatedJson: string): string {
  try {
    return contentText(JSON.parse(truncatedJson) as Content).slice(0, 200);
  } catch {
    return truncatedJson.replace(/^"|\\n/g, ' ').slice(0, 200);
  }
}
