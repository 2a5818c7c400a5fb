// How scorer facts read in the UI: short hashes, input modes, durations and rates in words.
import type { InputMode, ModelKind, ProviderReport, Side } from '../../../../shared/scoring';

export const INPUT_MODE: Record<InputMode, string> = {
  chat_template: 'chat template',
  text_pair: 'text pair',
  plain: 'plain text',
  image: 'image (+ the prompt as text)',
  video: 'video frames (+ the prompt as text)',
};

export const KIND: Record<ModelKind, { word: string; hint: string }> = {
  outcome: { word: 'outcome', hint: 'one reward per response' },
  process: { word: 'process', hint: 'a score per step of a chain' },
};

export const TRUNCATION: Record<Side, string> = {
  left: 'left — drops the start, keeps the end',
  right: 'right — drops the end, keeps the start',
};

export function shortHash(hash: string): string {
  return hash.slice(0, 10);
}

export function seconds(s: number | null | undefined): string {
  if (s === null || s === undefined || !Number.isFinite(s)) return '—';
  if (s < 1) return '< 1 s';
  if (s < 90) return `${Math.round(s)} s`;
  const m = Math.floor(s / 60);
  const r = Math.round(s % 60);
  if (m < 60) return `${m} min ${r.toString().padStart(2, '0')} s`;
  return `${Math.floor(m / 60)} h ${(m % 60).toString().padStart(2, '0')} min`;
}

export function rate(n: number): string {
  if (!Number.isFinite(n) || n <= 0) return '—';
  if (n >= 10_000) return `${Math.round(n / 1000).toLocaleString()}k`;
  if (n >= 100) return Math.round(n).toLocaleString();
  return n.toFixed(1);
}

export { plural } from '../../../../shared/plural';

/** "cpu" or "cpu (cuda skipped: …)" — which provider ran and why the ones before it did not. */
export function providerWords(report: ProviderReport): string {
  if (!report.skipped.length) return report.used;
  return `${report.used} (${report.skipped.map((s) => `${s.name} skipped: ${s.reason}`).join('; ')})`;
}
