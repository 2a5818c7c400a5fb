// The vision benchmarks' readers, by format name, for the importer's table (../import/prepare.ts PARSERS).
// Their detection rules are in ./detect.ts; their writers in ./benchExport.ts.
import type { ImportFormat } from '../../../../shared/formatNames';
import { parseTrlChat } from '../pairs/trl';
import type { RecordParser } from '../types';
import { parseMmRlhf } from './mmRlhf';
import { parseMultimodalRewardbench } from './multimodalRewardbench';
import { parsePickapic } from './pickapic';
import { parseRlaifV } from './rlaifV';
import { parseVlfeedback } from './vlfeedback';
import { parseVlRewardbench } from './vlRewardbench';

export const VISION_BENCH_PARSERS = {
  'vl-rewardbench': parseVlRewardbench,
  'multimodal-rewardbench': parseMultimodalRewardbench,
  pickapic: parsePickapic,
  // TRL's conversational shape; its image_url parts are stored by images/resolve.ts like any image part.
  'openai-vision': parseTrlChat,
  vlfeedback: parseVlfeedback,
  'rlaif-v': parseRlaifV,
  'mm-rlhf': parseMmRlhf,
} satisfies Partial<Record<ImportFormat, RecordParser>>;
