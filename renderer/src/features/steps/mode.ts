// What the step list's keys do now: move and rate, pick a tag, write a correction, or split a step.
export type Mode = 'keys' | 'tags' | 'correct' | 'split';
