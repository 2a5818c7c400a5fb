// The built-in prompt templates of each judge kind, and how a template's {{fields}} are filled from an
// item. A template is plain text with named fields (no code runs); the chat template that wraps the
// messages comes from the model (the GGUF's tokenizer.chat_template) or the server.
import type { JudgeKind } from '../../../shared/judgeAnswers';

export interface PromptTemplate {
  system: string;
  prompt: string;
}

export const DEFAULT_TEMPLATES: Record<JudgeKind, PromptTemplate> = {
  pairwise: {
    system: 'You are a careful, impartial judge of AI responses. Judge only what the responses say; the order they are shown in means nothing.',
    prompt:
      'Compare the two responses to the prompt below.\n\n[Prompt]\n{{prompt}}\n\n[Response A]\n{{response_a}}\n\n[Response B]\n{{response_b}}\n\n' +
      'Write a short critique first, then the verdict: "A", "B" or "tie", and its strength: 1 slightly, 2 clearly, 3 much better. Answer in JSON.',
  },
  rubric: {
    system: 'You are a fair evaluator. Grade the response strictly by the score rubric, one criterion at a time.',
    prompt:
      '[Instruction]\n{{prompt}}\n\n[Response to evaluate]\n{{response}}\n\n[Reference answer]\n{{reference}}\n\n[Score rubric]\n{{rubric}}\n\n' +
      'For each criterion write feedback that assesses the response, then its score on that criterion\'s scale. Answer in JSON.',
  },
  steps: {
    system: 'You verify solutions step by step. A step is correct when it follows from the problem and the steps before it.',
    prompt:
      '[Problem]\n{{prompt}}\n\n[Solution, numbered steps]\n{{steps}}\n\n' +
      'For each step in order give a one-sentence reason and whether it is correct. The first incorrect step is the first error. Answer in JSON.',
  },
  outcome: {
    system: 'You judge whether an agent accomplished the task it was given.',
    prompt: '[Task]\n{{prompt}}\n\n[What the agent did]\n{{response}}\n\nGive a short reason, then the outcome: success, partial or failure. Answer in JSON.',
  },
};

export const TEMPLATE_FIELDS = ['prompt', 'response', 'response_a', 'response_b', 'steps', 'rubric', 'reference'] as const;
export type TemplateFields = Partial<Record<(typeof TEMPLATE_FIELDS)[number], string>>;

/** Fills `{{field}}` with the item's text; an unknown field is left as written, a missing one is empty. */
export function fillTemplate(text: string, fields: TemplateFields): string {
  return text.replace(/\{\{\s*([a-z_]+)\s*\}\}/g, (whole, name: string) => ((TEMPLATE_FIELDS as readonly string[]).includes(name) ? (fields[name as keyof TemplateFields] ?? '') : whole));
}
