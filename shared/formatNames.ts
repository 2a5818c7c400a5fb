// Format names as FORMATS.md lists them; the CLI, the import preview and the export dialog use these.

export const IMPORT_FORMATS = [
  'arbiter',
  'trl',
  'trl-implicit',
  'trl-chat',
  'trl-chat-implicit',
  'hh-rlhf',
  'rewardbench',
] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

export const EXPORT_FORMATS = [
  'trl',
  'trl-implicit',
  'trl-chat',
  'trl-chat-implicit',
  'openrlhf',
  'labels',
  'arbiter',
  'hh-rlhf',
  'rewardbench',
  'scores',
] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const FORMAT_TITLES: Record<string, string> = {
  arbiter: 'Arbiter items',
  labels: 'Arbiter labels (lossless)',
  trl: 'TRL preference · standard, explicit prompt',
  'trl-implicit': 'TRL preference · standard, implicit prompt',
  'trl-chat': 'TRL preference · conversational, explicit prompt',
  'trl-chat-implicit': 'TRL preference · conversational, implicit prompt',
  openrlhf: 'OpenRLHF reward data (prompt / chosen / rejected / margin)',
  'hh-rlhf': 'Anthropic HH-RLHF',
  rewardbench: 'RewardBench',
  scores: 'Model scores (one line per scored response)',
};
