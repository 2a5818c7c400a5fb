// How the review screens say things: choices in source-order terms (A is the file's first response, never
// a screen side), figures with the number they rest on, and the reason a figure has no value.
import type { Figure, QueueReason, ReviewTask } from '../../../../shared/api';

export const TASK_TITLES: Record<ReviewTask, string> = { pairwise: 'Pairwise', ranking: 'Ranking', verdict: 'Verdict', steps: 'Steps' };

export const REASON_WORDS: Record<QueueReason, string> = {
  annotators: 'people disagree',
  model: 'model disagrees',
  uncertain: 'model unsure',
};

export const REASON_HELP: Record<QueueReason, string> = {
  annotators: 'The annotators who labeled the item chose differently.',
  model: 'The people’s consensus and the models’ mean pick different responses.',
  uncertain: 'The models’ mean P(A better) is near ½, or the models pick different responses.',
};

const STRENGTH: Record<number, string> = { 1: 'slightly', 2: 'clearly', 3: 'much' };

/** A pairwise choice in words: "A better, clearly", "Tie", "Both bad". */
export function choiceWords(choice: string | null, strength: number | null): string {
  if (choice === null) return '—';
  if (choice === 'tie') return 'Tie';
  if (choice === 'both_bad') return 'Both bad';
  if (choice === 'A' || choice === 'B') return strength ? `${choice} better, ${STRENGTH[strength] ?? 'clearly'}` : `${choice} better`;
  if (choice === 'good' || choice === 'bad') return choice === 'good' ? 'Good' : 'Bad';
  return choice;
}

export const letter = (i: number) => String.fromCharCode(65 + i);

/** A ranking as letters, best first: "B > A = C". */
export function rankingWords(ranking: number[][] | null): string {
  if (!ranking?.length) return '—';
  return ranking.map((group) => group.map(letter).join(' = ')).join(' > ');
}

/** The votes of a queue row, most first: "A ×1 · B ×1". */
export function votesWords(votes: Record<string, number>, task: ReviewTask): string {
  const entries = Object.entries(votes).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const name = (key: string) => (key === 'both_bad' ? 'both bad' : task === 'ranking' ? `best ${key}` : key);
  return entries.map(([key, n]) => `${name(key)} ×${n}`).join(' · ') || '—';
}

export function percent(value: number, digits = 0): string {
  return `${(value * 100).toFixed(digits)}%`;
}

/** A figure's value as text, or "n/a" when it has none (its reason says why). */
export function figureText(figure: Figure | null | undefined, format: (v: number) => string = (v) => v.toFixed(2)): string {
  if (!figure || figure.value === null) return 'n/a';
  return format(figure.value);
}

/** "Label time: 12 s", "4 min". */
export function durationWords(ms: number | null): string {
  if (ms === null) return '—';
  if (ms < 1000) return `${ms} ms`;
  const s = ms / 1000;
  if (s < 90) return `${s < 10 ? s.toFixed(1) : Math.round(s)} s`;
  const min = s / 60;
  if (min < 90) return `${Math.round(min)} min`;
  return `${(min / 60).toFixed(1)} h`;
}

/** A date and time, short and local: "12 Mar 14:05". */
export function whenWords(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleString(undefined, { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
}

export { plural } from '../../../../shared/plural';
