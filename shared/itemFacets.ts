// The facets of the items explorer: what each one means, its values, and the columns a page sorts by.
// One list for the parser (shared/itemQuery.ts), the engine (electron/core/review/itemFacts.ts), the page
// and `arbiter items --help`.
import { ALL_OUTCOMES } from './stepJudgement';

export const LABEL_TASKS = ['pairwise', 'ranking', 'steps', 'rubric', 'verdict', 'critique'] as const;
export const DISAGREEMENTS = ['pairwise', 'ranking', 'first_error', 'verdict', 'rubric', 'outcome'] as const;
export const SHAPES = ['pair', 'ranking', 'chain', 'trajectory', 'single'] as const;
export type Shape = (typeof SHAPES)[number];

export interface FacetSpec {
  name: string;
  /** enum: one value per item; set: any number of values per item; number: a range. */
  kind: 'enum' | 'set' | 'number';
  /** The values it knows beforehand (open: others come from the data). */
  values?: readonly string[];
  open?: boolean;
  /** A part after a dot: a task (labeled.ranking) or a metadata field (meta.category). */
  part?: { values?: readonly string[]; required: boolean; example: string };
  about: string;
}

export const FACETS: readonly FacetSpec[] = [
  { name: 'shape', kind: 'enum', values: SHAPES, about: 'pair (2 responses), ranking (3+), chain (1 response with steps), trajectory (an agent run), single (1 response)' },
  { name: 'images', kind: 'enum', values: ['yes', 'no'], about: 'the prompt or a response holds an image' },
  {
    name: 'labeled',
    kind: 'set',
    values: ['mine', 'anyone', 'nobody'],
    part: { values: LABEL_TASKS, required: false, example: 'ranking' },
    about: "label state per task (labeled.ranking=nobody); without a task, any task: mine (the annotator's own), anyone (a person's), nobody",
  },
  { name: 'disagree', kind: 'set', values: DISAGREEMENTS, about: "people split in this task (the review's disagreement queue): a pair's choice, a ranking, the first error, a verdict, a rubric criterion, a trajectory's outcome" },
  {
    name: 'consensus',
    kind: 'enum',
    open: true,
    part: { values: ['pairwise', 'ranking', 'verdict', 'outcome'], required: false, example: 'verdict' },
    about: "what the people's labels decide (their majority; split when the top values tie): a pair's choice (default), a ranking's best response, a verdict, an outcome",
  },
  { name: 'adjudicated', kind: 'enum', values: ['yes', 'no'], about: 'a lead resolved the item (any task)' },
  { name: 'annotator', kind: 'set', open: true, about: 'a person with a current judgement of the item (any task)' },
  { name: 'score', kind: 'number', about: "the models' mean P(A better) for a pair, 0 to 1" },
  { name: 'model_disagrees', kind: 'enum', values: ['yes', 'no'], about: "the models' pick is the other response than the people's consensus (or the lead's resolution)" },
  { name: 'uncertainty', kind: 'number', about: "pre-label uncertainty as the uncertain labeling order ranks it: the models' mean of 1 − |2·P(A better) − 1|, 1 when they cannot tell A from B" },
  { name: 'tag', kind: 'set', open: true, about: 'an error tag a person put on a step or turn' },
  { name: 'severity', kind: 'set', values: ['minor', 'major', 'critical'], about: "a tagged step's severity" },
  { name: 'outcome', kind: 'set', values: ALL_OUTCOMES, about: "a chain's or a trajectory's outcome as a person judged it" },
  { name: 'meta', kind: 'enum', open: true, part: { required: true, example: 'category' }, about: "a field of the file's metadata (meta.category=math, meta.source, a model's name)" },
  { name: 'length', kind: 'number', about: 'characters of the prompt and the responses' },
  { name: 'labels', kind: 'number', about: 'people with a current judgement of the item' },
  { name: 'split', kind: 'set', open: true, about: 'two people judged it differently in one task (split=alice,bob: both names); the κ of a pair, drilled down' },
  { name: 'week', kind: 'set', open: true, about: "the week (its Monday, YYYY-MM-DD, UTC) a person's current pairwise label was made: agreement over time, drilled down (week=2026-11-23)" },
  { name: 'prelabel', kind: 'set', values: ['shown', 'hidden'], about: "a person made their current pairwise label with the model's pre-label shown (assist) or hidden (blind): anchoring on the model, drilled down" },
  { name: 'wrong', kind: 'set', open: true, about: "a model's pick differs from the gold (the lead's resolution, else the file's label a lead marked gold), else from the people's consensus (wrong=MODEL)" },
];

/**
 * Columns a page sorts by, both ways; file order (seq) breaks ties. `relevance`: the search text's bm25
 * rank (descending: best first), the default when the query has search text; without any it is file order.
 */
export const SORT_COLUMNS = ['seq', 'external_id', 'length', 'labels', 'score', 'uncertainty', 'dispute', 'responses', 'relevance'] as const;
export type SortColumn = (typeof SORT_COLUMNS)[number];
