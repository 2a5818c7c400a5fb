// How the review screens say things: choices in source-order terms (A is the file's first response, never
// a screen side), figures with the number they rest on, and the reason a figure has no value.
import type { Figure, QueueReason, QueueRow, ReviewTask } from '../../../../shared/api';
import { plural } from '../../../../shared/plural';

export const TASK_TITLES: Record<ReviewTask, string> = { pairwise: 'Pairwise', ranking: 'Ranking', verdict: 'Verdict', steps: 'Steps' };

export const REASON_WORDS: Record<QueueReason, string> = {
  annotators: 'people disagree',
  model: 'model disagrees',
  uncertain: 'model unsure',
  judge: 'judge disagrees',
  sent: 'sent',
  moments: 'marks in time differ',
};

export const REASON_HELP: Record<QueueReason, string> = {
  annotators: 'The annotators who labeled the item chose differently.',
  model: 'The people’s consensus and the models’ mean pick different responses.',
  uncertain: 'The models’ mean P(A better) is near ½, or the models pick different responses.',
  judge: 'A local judge picks another response than the people (or the lead’s resolution), or changes its verdict when the responses swap places.',
  sent: 'A lead sent the item here from the items explorer’s selection (Send to review).',
  moments: 'People’s marks in time on the videos, or their first failures, do not match (same response and tag; ranges by temporal IoU ≥ 0.5, instants within 0.5 s).',
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
  // Steps: by response, its first error votes before its outcome votes, then most first ("turn 9" before "turn 10").
  const kind = (key: string) => (/: (turn \d+|step \d+|no error)$/.test(key) ? 0 : 1);
  const entries = Object.entries(votes).sort((a, b) =>
    task === 'steps'
      ? a[0].slice(0, 1).localeCompare(b[0].slice(0, 1)) || kind(a[0]) - kind(b[0]) || b[1] - a[1] || a[0].localeCompare(b[0], undefined, { numeric: true })
      : b[1] - a[1] || a[0].localeCompare(b[0]),
  );
  const name = (key: string) => (key === 'both_bad' ? 'both bad' : task === 'ranking' ? `best ${key}` : key);
  return entries.map(([key, n]) => `${name(key)} ×${n}`).join(' · ') || '—';
}

export function percent(value: number, digits = 0): string {
  return `${(value * 100).toFixed(digits)}%`;
}

/** A figure's value as text, or "n/a" when it has none (its reason says why). */
/** A figure the host held back below its minimum n (electron/core/review/minimums.ts): "not enough data: 1 item (10 needed)". */
export const notEnough = (figure: Figure | null | undefined): boolean => figure?.value === null && (figure.reason ?? '').startsWith('not enough data');

export function figureText(figure: Figure | null | undefined, format: (v: number) => string = (v) => v.toFixed(2)): string {
  if (notEnough(figure)) return 'not enough data';
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

export { plural };

/** A queue row's trajectory in words: "trajectory, 12 turns". */
export function trajectoryWords(t: NonNullable<QueueRow['trajectory']>): string {
  return t.turns === null ? 'trajectory' : `trajectory, ${plural(t.turns, 'turn')}`;
}

/** What people split on: "split on the first error turn and the outcome". */
export function disputedWords(t: NonNullable<QueueRow['trajectory']>): string {
  const words = t.disputed.map((d) => (d === 'first_error' ? 'the first error turn' : 'the outcome'));
  return words.length ? `split on ${words.join(' and ')}` : '';
}

/** A step's name in a response: a trajectory's steps are its turns. */
export const stepWord = (trajectory: boolean) => (trajectory ? 'turn' : 'step');
