// Rubrics-as-Rewards (per-prompt weighted criteria): its descriptor (../registry.ts says what one holds and how to add a format).
import type { FormatDescriptor } from '../descriptor';
import { parseRar } from './rar';

const isList = Array.isArray;

export const descriptor: FormatDescriptor = {
  name: 'rar',
  family: 'ratings',
  title: "Rubrics-as-Rewards (per-prompt weighted criteria)",
  detect: {
    rank: 450,
    why: (record) =>
      typeof record.question === 'string' && isList(record.rubric) ? '"question" with a "rubric" list of weighted criteria (Rubrics as Rewards)' : null,
  },
  parse: parseRar,
  carries: 'text',
  doc: {
    source: "Scale AI Rubrics as Rewards",
    keeps: "question, reference answer, weighted criteria",
    loses: "rubric_list, rubric_count (repeats)",
  },
};
