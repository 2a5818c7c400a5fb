// VideoFeedback / VideoScore multi-aspect ratings (TIGER-Lab: the VideoFeedback dataset, whose five aspects
// the VideoScore model predicts; huggingface.co/datasets/TIGER-Lab/VideoFeedback README, dataset_info of the
// `annotated` and `real` configs): one row per generated video.
//   id                      the video's id ("1000189", "p000123"…)
//   images                  the file names of frames the dataset sampled from it (kept)
//   text prompt             the prompt the video was generated from
//   video link              where the video is: a path relative to the file, or the dataset's http URL
//   visual quality, temporal consistency, dynamic degree, text-to-video alignment, factual consistency
//                           the raters' scores, whole numbers 1 (bad) to 4 (good)
//   conversations           the training dialogue the dataset built from the scores (kept)
// Read: the prompt is the item's text, the video its one response; the five scores the `source` annotator's
// ratings under the rubric "videofeedback" (shared/rubricTemplates.ts VIDEO_FEEDBACK_RUBRIC), as HelpSteer2's
// attributes are. The row's other fields are kept in their places (recordSkeleton.ts). Written: one row per
// rated response that holds a video, the scores from the deciding ratings (null where nobody rated one),
// the stored video copied beside the file (VideosBesideWriter names it in "video link"), an URL as it came.
import type { ItemRecord } from '../../../../shared/domain';
import { responseLetter } from '../../../../shared/letters';
import type { RatingValue } from '../../../../shared/rubric';
import { VIDEO_FEEDBACK_RUBRIC, VIDEOFEEDBACK_ASPECTS } from '../../../../shared/rubricTemplates';
import { videosOf } from '../../../../shared/videos';
import { promptText } from '../content';
import { fill, keptRecord, skeleton } from '../recordSkeleton';
import { ratingsJudgement, wholeNumber } from '../ratings/ratingJudgements';
import { RecordError, type ParsedRecord } from '../types';
import { externalIdOf } from '../validate';

type Json = Record<string, unknown>;

export const VF_COLUMNS = Object.keys(VIDEOFEEDBACK_ASPECTS) as (keyof typeof VIDEOFEEDBACK_ASPECTS)[];
/** The criteria keys the format reads and writes. */
export const VF_KEYS: ReadonlySet<string> = new Set(Object.values(VIDEOFEEDBACK_ASPECTS));
/** Where a row's own shape is kept (its fields in order, the stored ones as null). */
export const VF_METADATA = 'videofeedback';
const STORED = ['id', 'text prompt', 'video link', ...VF_COLUMNS];

const describe = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v);

function text(record: Json, field: string, what: string): string {
  const value = record[field];
  if (typeof value === 'string' && value.trim() !== '') return value;
  throw new RecordError(`${field}: ${value === undefined ? 'missing' : typeof value === 'string' ? 'empty' : `expected text, got ${describe(value)}`} (${what})`);
}

export function parseVideoFeedback(record: Json): ParsedRecord {
  const prompt = text(record, 'text prompt', 'the prompt the video was generated from');
  const link = text(record, 'video link', 'the video’s path relative to the file, or its URL').trim();
  const id = record.id;
  if (id !== undefined && id !== null && typeof id !== 'string' && typeof id !== 'number') throw new RecordError(`id: expected text or a number, got ${describe(id)}`);
  const values: Record<string, RatingValue> = {};
  for (const column of VF_COLUMNS) {
    const value = record[column];
    if (value === undefined || value === null || value === '') continue;
    // Said by its type: a deeply nested list or an object's own toString is not quoted back.
    if (typeof value !== 'number' && typeof value !== 'string') throw new RecordError(`${column}: expected a whole number from 1 to 4, got ${describe(value)}`);
    const n = wholeNumber(value, 1, 4);
    if (typeof n === 'string') throw new RecordError(`${column}: ${n}`);
    values[VIDEOFEEDBACK_ASPECTS[column]] = n;
  }
  const judgement = ratingsJudgement(VIDEO_FEEDBACK_RUBRIC, { A: values });
  return {
    draft: {
      externalId: externalIdOf(id),
      prompt,
      responses: [{ content: [{ role: 'assistant', content: [{ type: 'video', video: link }] }], model: null, steps: null }],
      reference: null,
      metadata: { [VF_METADATA]: skeleton(record, STORED) },
    },
    preference: null,
    judgements: judgement ? [judgement] : [],
  };
}

/** The rows of an item: one per response that holds a video and that the deciding ratings rated. */
export function encodeVideoFeedback(item: ItemRecord, ratings: Record<string, Record<string, RatingValue>>): Json[] {
  const kept = keptRecord(item, VF_METADATA);
  const prompt = promptText(item.prompt).text;
  const rows: Json[] = [];
  item.responses.forEach((response, i) => {
    const values = ratings[responseLetter(i)];
    if (!values || !VF_COLUMNS.some((c) => values[VIDEOFEEDBACK_ASPECTS[c]] !== undefined)) return;
    const video = videosOf(response.content)[0];
    if (!video) return;
    // A stored video is a part VideosBesideWriter turns into its path beside the file; an URL stays an URL.
    const link = video.video ? video : video.origin.kind === 'url' ? video.origin.url : 'path' in video.origin ? (video.origin.path ?? null) : null;
    const row: Json = {
      id: item.externalId ?? (item.responses.length > 1 ? `${item.uid}-${responseLetter(i)}` : item.uid),
      'text prompt': prompt,
      'video link': link,
    };
    for (const column of VF_COLUMNS) row[column] = values[VIDEOFEEDBACK_ASPECTS[column]] ?? null;
    rows.push(fill(item.responses.length === 1 ? kept : null, row));
  });
  return rows;
}
