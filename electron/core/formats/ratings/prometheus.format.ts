// Prometheus Feedback-Collection (critique + 1–5 score): its descriptor (../registry.ts says what one holds and how to add a format).
import type { FormatDescriptor } from '../descriptor';

export const descriptor: FormatDescriptor = {
  name: 'prometheus',
  family: 'ratings',
  title: "Prometheus Feedback-Collection (critique + 1–5 score)",
  write: (passes) => passes.judged,
  carries: 'text',
  doc: {
    source: "Prometheus Feedback Collection",
    keeps: "critique + 1–5 score, rubric",
    loses: "items with a critique or a rating only",
  },
};
