// Telling the vision benchmarks apart from their first records (../import/detect.ts asks this before
// the text formats: RLAIF-V's question / chosen / rejected would otherwise read as TRL with no prompt).
// Each rule needs a field the text formats never have.
import type { ImportFormat } from '../../../../shared/formatNames';
import { isPlainObject } from '../validate';

interface Guess {
  format: ImportFormat;
  why: string;
}

const isList = Array.isArray;

/** Whether a message list holds an OpenAI image_url (or input_image) part. */
function holdsImageUrl(value: unknown): boolean {
  if (!isList(value)) return false;
  return value.some((m) => isPlainObject(m) && isList(m.content) && m.content.some((p) => isPlainObject(p) && (p.type === 'image_url' || p.type === 'input_image')));
}

export function classifyVision(record: Record<string, unknown>): Guess | null {
  if ('Output1' in record && 'Output2' in record && ('Text' in record || 'Image' in record))
    return { format: 'multimodal-rewardbench', why: '"Text", "Image", "Output1", "Output2" and "Better" (Multimodal RewardBench)' };
  if (typeof record.query === 'string' && isList(record.response) && ('human_ranking' in record || 'image' in record || 'image_path' in record))
    return { format: 'vl-rewardbench', why: '"query", a "response" list, "human_ranking" and an image (VL-RewardBench)' };
  if (typeof record.caption === 'string' && ('jpg_0' in record || 'image_0_url' in record) && ('label_0' in record || 'jpg_1' in record))
    return { format: 'pickapic', why: '"caption", two images "jpg_0"/"jpg_1" and "label_0"/"label_1" (Pick-a-Pic)' };
  if (typeof record.prompt === 'string' && 'completions' in record && ('img_path' in record || 'image' in record))
    return { format: 'vlfeedback', why: '"prompt", an image ("img_path") and "completions" rated per aspect (VLFeedback)' };
  // Before TRL vision, which has prompt / chosen / rejected and an image too: the critiques tell MM-RLHF apart.
  if (typeof record.prompt === 'string' && 'chosen' in record && 'rejected' in record && ('chosen_reason' in record || 'rejected_reason' in record) && ('image' in record || 'video' in record))
    return { format: 'mm-rlhf', why: '"prompt", "chosen", "rejected", their critiques "chosen_reason" / "rejected_reason" and an "image" or a "video" (MM-RLHF)' };
  if (typeof record.question === 'string' && 'chosen' in record && 'rejected' in record && ('image' in record || 'image_path' in record))
    return { format: 'rlaif-v', why: '"image", "question", "chosen" and "rejected" (RLAIF-V)' };
  if ('chosen' in record && 'rejected' in record && isList(record.prompt) && holdsImageUrl(record.prompt))
    return { format: 'openai-vision', why: 'message-list "prompt", "chosen", "rejected" with OpenAI "image_url" parts' };
  return null;
}
