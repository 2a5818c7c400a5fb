// Critiques (prompt, response, critique, verdict): its descriptor (../registry.ts says what one holds and how to add a format).
import type { FormatDescriptor } from '../descriptor';

export const descriptor: FormatDescriptor = {
  name: 'critique',
  family: 'ratings',
  title: "Critiques (prompt, response, critique, verdict)",
  write: (passes) => passes.judged,
  carries: 'text',
  doc: {
    source: "Arbiter",
    keeps: "prompt, response, critique, verdict",
    loses: "ratings",
  },
};
