// PRM800K labeling sessions: its descriptor (../registry.ts says what one holds and how to add a format).
import type { FormatDescriptor } from '../descriptor';
import { isPlainObject } from '../validate';
import { encodePrm800kChain } from './chainEncoders';
import { parsePrm800k } from './prm800k';

export const descriptor: FormatDescriptor = {
  name: 'prm800k',
  family: 'steps',
  title: "PRM800K labeling sessions",
  detect: {
    rank: 600,
    why: (record) =>
      isPlainObject(record.question) && 'problem' in record.question && (isPlainObject(record.label) || 'labeler' in record)
      ? 'a "question" with a "problem" and a "label" with rated "steps" (a PRM800K labeling session)'
      : null,
  },
  parse: parsePrm800k,
  write: (passes) => passes.steps(encodePrm800kChain),
  carries: 'text',
  doc: {
    source: "OpenAI PRM800K",
    keeps: "a session written back as it was; ratings −1/0/+1",
    loses: "alternative completions of a person’s own session",
  },
};
