// VideoGen-RewardBench / VideoAlign pair CSV (KwaiVGI/VideoAlign: datasets/train/README.md, example.csv,
// eval_videogen_rewardbench.py): one row per pair of generated videos for a prompt.
//   path_A, path_B        the two videos, relative to the CSV's folder (./videos/x_A.mp4)
//   A_model, B_model      which generator made each (the benchmark's CSV; the training CSV has none)
//   prompt                the text the videos were generated from
//   VQ, MQ, TA, Overall   who wins on visual quality, motion quality, text alignment and overall: A, B or same
//   fps_A, num_frames_A, fps_B, num_frames_B   what the videos are (kept; written from the probe when absent)
// Read: the prompt is the item's text, A and B its two responses (one video each, source order kept, since
// the criteria may disagree about which is better); the file's winners become the `source` annotator's
// labels through the rubric machinery: the rating sheet's per-criterion winners (`criterion_winner`) of the
// video-generation rubric (shared/rubricTemplates.ts VIDEO_GENERATION_RUBRIC: VQ visual_quality, MQ
// motion_quality, TA text_alignment, Overall overall), and Overall as the pairwise choice too (same → tie).
// Other columns are kept in the item's metadata. Written: the same columns from the deciding labels, each
// video copied byte for byte beside the CSV (`<stem>_images/<sha256>.<ext>`, as image exports do).
import type { Choice } from '../../../../shared/domain';
import { VIDEO_GENERATION_RUBRIC, VIDEOALIGN_AXES } from '../../../../shared/rubricTemplates';
import { isVideoPart, videosOf, type VideoRef } from '../../../../shared/videos';
import { RecordError, type ParsedRecord, type SourceJudgement } from '../types';

/** The winner columns, each a criterion of the video-generation rubric. */
export const ASPECTS = ['VQ', 'MQ', 'TA', 'Overall'] as const;
export type Aspect = (typeof ASPECTS)[number];
export const VIDEOALIGN_COLUMNS = ['path_A', 'path_B', 'A_model', 'B_model', 'prompt', 'VQ', 'MQ', 'TA', 'Overall', 'fps_A', 'num_frames_A', 'fps_B', 'num_frames_B'] as const;
/** The columns read into item and label; the rest go to the metadata. */
const READ = new Set<string>(['path_A', 'path_B', 'A_model', 'B_model', 'prompt', ...ASPECTS]);

export type Winner = 'A' | 'B' | 'tie';

/** A / B / same (any case) as a winner; '' as none. */
function winnerOf(value: unknown, column: string): Winner | null {
  if (value === undefined || value === null) return null;
  const text = scalarText(value, column).trim();
  if (text === '') return null;
  const lower = text.toLowerCase();
  if (lower === 'a') return 'A';
  if (lower === 'b') return 'B';
  if (lower === 'same' || lower === 'tie') return 'tie';
  throw new RecordError(`${column}: ${JSON.stringify(text.slice(0, 40))} is not a winner (A, B or same)`);
}

/**
 * A cell as text: a CSV cell is always text, but the same reader takes a JSON Lines file whose values may be
 * anything, and String() of an object can throw (a `toString` that is not a function): such a value is refused.
 */
function scalarText(value: unknown, column: string): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new RecordError(`${column}: expected text, got ${Array.isArray(value) ? 'a list' : typeof value === 'object' ? 'an object' : typeof value}`);
}

const text = (record: Record<string, unknown>, key: string) => (record[key] === undefined || record[key] === null ? '' : scalarText(record[key], key).trim());

export function parseVideoAlign(record: Record<string, unknown>): ParsedRecord {
  const prompt = text(record, 'prompt');
  if (!prompt) throw new RecordError('prompt: empty (the text the videos were generated from)');
  const side = (letter: 'A' | 'B') => {
    const path = text(record, `path_${letter}`);
    if (!path) throw new RecordError(`path_${letter}: empty (the path of video ${letter}, relative to the CSV)`);
    return { content: [{ role: 'assistant', content: [{ type: 'video', video: path }] }], model: text(record, `${letter}_model`) || null, steps: null };
  };
  const responses = [side('A'), side('B')];
  const winners: Record<string, Winner> = {};
  for (const aspect of ASPECTS) {
    const w = winnerOf(record[aspect], aspect);
    if (w) winners[VIDEOALIGN_AXES[aspect]] = w;
  }
  const metadata: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) if (!READ.has(key)) metadata[key] = value;
  const judgements: SourceJudgement[] = [];
  if (winners.overall) judgements.push({ task: 'pairwise', choice: winners.overall as Choice, body: {} });
  if (Object.keys(winners).length) judgements.push({ task: 'rubric', body: { ratings: {}, criterion_winner: winners }, rubric: { ...VIDEO_GENERATION_RUBRIC, inForce: true } });
  return { draft: { externalId: null, prompt, responses, reference: null, metadata }, preference: null, judgements };
}

/** The decided winners of an item, by column (VQ, MQ, TA, Overall). */
export type AlignWinners = Partial<Record<Aspect, Winner>>;

const SAME: Record<Winner, string> = { A: 'A', B: 'B', tie: 'same' };

/** One CSV row of an item and its winners, with the videos it names (copied beside the file by the writer). */
export function encodeVideoAlign(item: { prompt: unknown; responses: { content: unknown; model: string | null }[]; metadata: Record<string, unknown> }, winners: AlignWinners, pathOf: (ref: VideoRef) => string): Record<string, string> | null {
  if (item.responses.length !== 2) return null;
  const refs = item.responses.map((r) => videosOf(r.content as never).find((p) => isVideoPart(p) && p.video)?.video);
  if (!refs[0] || !refs[1]) return null;
  const prompt = typeof item.prompt === 'string' ? item.prompt : '';
  const m = item.metadata;
  const number = (key: string, fallback: number | null) =>
    typeof m[key] === 'number' || (typeof m[key] === 'string' && m[key] !== '') ? String(m[key]) : fallback === null ? '' : fallback.toFixed(1);
  const row: Record<string, string> = {
    path_A: pathOf(refs[0]),
    path_B: pathOf(refs[1]),
    A_model: item.responses[0]!.model ?? '',
    B_model: item.responses[1]!.model ?? '',
    prompt,
    VQ: winners.VQ ? SAME[winners.VQ] : '',
    MQ: winners.MQ ? SAME[winners.MQ] : '',
    TA: winners.TA ? SAME[winners.TA] : '',
    Overall: winners.Overall ? SAME[winners.Overall] : '',
    fps_A: number('fps_A', refs[0].fps),
    num_frames_A: number('num_frames_A', refs[0].frames),
    fps_B: number('fps_B', refs[1].fps),
    num_frames_B: number('num_frames_B', refs[1].frames),
  };
  for (const [key, value] of Object.entries(m)) if (!(key in row)) row[key] = value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  return row;
}

/** A CSV field: quoted when it holds a comma, a quote or a line break (RFC 4180). */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}
