// Format names as docs/formats.md lists them; the CLI, the import preview and the export dialog use these.

/** Agent traces from where teams keep them (issue 21, section 5): one descriptor each, electron/core/formats/trajectories/traces/. */
export const TRACE_FORMATS = ['anthropic-messages', 'claude-code', 'inspect-ai', 'otel-genai', 'langfuse', 'langsmith', 'codex-cli', 'mcp'] as const;
export type TraceFormat = (typeof TRACE_FORMATS)[number];

/** Agent trajectories (docs/formats.md, "Trajectories"; the model: shared/trajectory.ts): read and written. */
export const TRAJECTORY_FORMATS = ['openai-tools', 'swe-agent', 'openhands', 'tau-bench', 'arbiter-trajectory', ...TRACE_FORMATS] as const;
export type TrajectoryFormat = (typeof TRAJECTORY_FORMATS)[number];

/** GUI and web agents' trajectories with a screenshot per step (docs/formats.md, "GUI and web agents"): read only. */
export const GUI_TRAJECTORY_FORMATS = ['mind2web', 'online-mind2web'] as const;
export type GuiTrajectoryFormat = (typeof GUI_TRAJECTORY_FORMATS)[number];

/** What agent-reward trainers read, made from labeled trajectories (docs/formats.md, "Trajectory exports"): export only. */
export const TURN_EXPORT_FORMATS = ['trl-stepwise-turns', 'trl-stepwise-turns-chat', 'trl-tools', 'corrections-sft', 'corrections-dpo', 'turn-labels'] as const;
export type TurnExportFormat = (typeof TURN_EXPORT_FORMATS)[number];

/**
 * Vision-language and text-to-image preference benchmarks (docs/formats.md, "Images"): read and written,
 * their images with them (files beside the output, Parquet bytes, data URLs).
 */
export const VISION_BENCH_FORMATS = ['vl-rewardbench', 'multimodal-rewardbench', 'pickapic', 'openai-vision', 'mm-rlhf'] as const;
export type VisionBenchFormat = (typeof VISION_BENCH_FORMATS)[number];
/** Vision preference datasets Arbiter reads (their labels too) but does not write. */
export const VISION_READ_FORMATS = ['vlfeedback', 'rlaif-v'] as const;

/**
 * TRL vision preference (docs/formats.md, "TRL vision"): message lists with {"type": "image"} placeholders and
 * an `images` column. trl-vision writes JSON Lines with the images as files beside it (a `.parquet`
 * output: Parquet); trl-vision-parquet writes Parquet with the `Image` feature. Both read as trl-vision.
 */
export const TRL_VISION_FORMATS = ['trl-vision', 'trl-vision-parquet'] as const;
export type TrlVisionFormat = (typeof TRL_VISION_FORMATS)[number];

/**
 * Exports that write content as it is stored (chat messages with their typed parts), or in a vision shape,
 * so images go with it; every other export writes text only and refuses items with images (or drops them).
 */
export const IMAGE_EXPORT_FORMATS: readonly string[] = ['arbiter', 'labels', 'scores', 'consensus', 'trl-chat', 'trl-chat-implicit', 'trl-unpaired', ...TRAJECTORY_FORMATS, ...VISION_BENCH_FORMATS, ...TRL_VISION_FORMATS];

export const IMPORT_FORMATS = [
  'arbiter',
  'trl',
  'trl-implicit',
  'trl-chat',
  'trl-chat-implicit',
  'trl-unpaired',
  'trl-stepwise',
  'trl-vision',
  'hh-rlhf',
  'rewardbench',
  'prm800k',
  'math-shepherd',
  'processbench',
  'ultrafeedback',
  'ultrafeedback-binarized',
  'helpsteer2',
  'helpsteer2-preference',
  'helpsteer3',
  'rar',
  ...TRAJECTORY_FORMATS,
  ...GUI_TRAJECTORY_FORMATS,
  ...VISION_BENCH_FORMATS,
  ...VISION_READ_FORMATS,
] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

export const EXPORT_FORMATS = [
  'trl',
  'trl-implicit',
  'trl-chat',
  'trl-chat-implicit',
  'trl-unpaired',
  'trl-stepwise',
  ...TRL_VISION_FORMATS,
  'openrlhf',
  'labels',
  'arbiter',
  'hh-rlhf',
  'rewardbench',
  'prm800k',
  'math-shepherd',
  'processbench',
  'ultrafeedback',
  'ultrafeedback-binarized',
  'helpsteer2',
  'helpsteer2-preference',
  'helpsteer3',
  'prometheus',
  'critique',
  'consensus',
  'scores',
  ...TRAJECTORY_FORMATS,
  ...TURN_EXPORT_FORMATS,
  ...VISION_BENCH_FORMATS,
] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/**
 * Which pairs a ranking gives in a pairwise export (docs/formats.md, "Rankings give pairs"):
 * every pair of responses in different rank groups, the best group against the worst, or each group
 * against the next. Tied responses never form a pair.
 */
export const RANKING_PAIRS = ['all', 'best-worst', 'adjacent'] as const;
export type RankingPairs = (typeof RANKING_PAIRS)[number];

export const FORMAT_TITLES: Record<string, string> = {
  arbiter: 'Arbiter items',
  labels: 'Arbiter labels (lossless)',
  trl: 'TRL preference · standard, explicit prompt',
  'trl-implicit': 'TRL preference · standard, implicit prompt',
  'trl-chat': 'TRL preference · conversational, explicit prompt',
  'trl-chat-implicit': 'TRL preference · conversational, implicit prompt',
  'trl-unpaired': 'TRL unpaired preference (KTO)',
  'trl-stepwise': 'TRL stepwise supervision (PRM)',
  'trl-vision': 'TRL vision preference · images column + {"type": "image"} placeholders (JSON Lines, images beside it)',
  'trl-vision-parquet': 'TRL vision preference · Parquet with the Hugging Face Image feature',
  openrlhf: 'OpenRLHF reward data (prompt / chosen / rejected / margin)',
  'hh-rlhf': 'Anthropic HH-RLHF',
  rewardbench: 'RewardBench',
  prm800k: 'PRM800K labeling sessions',
  'math-shepherd': 'Math-Shepherd (ки step tags, +/− labels)',
  processbench: 'ProcessBench (first wrong step)',
  ultrafeedback: 'UltraFeedback, raw (ratings per aspect, critiques)',
  'ultrafeedback-binarized': 'UltraFeedback, binarized (chosen / rejected with scores)',
  helpsteer2: 'HelpSteer2 ratings rows (one per response)',
  'helpsteer2-preference': 'HelpSteer2 preference rows (strength −3…+3)',
  helpsteer3: 'HelpSteer3 preference (per-annotator preferences)',
  rar: 'Rubrics-as-Rewards (per-prompt weighted criteria)',
  prometheus: 'Prometheus Feedback-Collection (critique + 1–5 score)',
  consensus: 'Consensus: every annotator’s label, soft labels, Dawid–Skene, the hard label',
  critique: 'Critiques (prompt, response, critique, verdict)',
  scores: 'Model scores (one line per scored response)',
  'openai-tools': 'OpenAI / TRL tool-calling chats (messages with tool_calls, tools)',
  'swe-agent': 'SWE-agent trajectories (.traj)',
  openhands: 'OpenHands events (evaluation output, or an event list)',
  'tau-bench': 'τ-bench results (task_id, reward, traj)',
  'arbiter-trajectory': 'Arbiter trajectories (task, runs, turns with ids)',
  'trl-stepwise-turns': 'TRL stepwise over agent turns (PRM; prompt as text)',
  'trl-stepwise-turns-chat': 'TRL stepwise over agent turns (PRM; prompt as messages)',
  'trl-tools': 'TRL tool-calling preference (DPO: prompt / chosen / rejected with tool_calls, tools)',
  'corrections-sft': 'Corrected agent turns as SFT (prompt + corrected turn)',
  'corrections-dpo': 'Corrected agent turns as preference pairs (chosen = corrected, rejected = original)',
  'turn-labels': 'Per-turn labels with the taxonomy (rating, tags, severity, tool verdicts, attribution, outcome)',
  mind2web: 'Mind2Web / Multimodal-Mind2Web (a row per action step: screenshot, operation, target box; a task per item)',
  'online-mind2web': 'Online-Mind2Web results (task, action_history, a screenshot per step)',
  'vl-rewardbench': 'VL-RewardBench (an image question, responses, human_ranking; images beside the file)',
  'multimodal-rewardbench': 'Multimodal RewardBench (Text, Image, Output1, Output2, Better; images beside the file)',
  pickapic: 'Pick-a-Pic (a caption, two generated images jpg_0 / jpg_1, label_0 / label_1)',
  'openai-vision': 'OpenAI vision chat pairs (prompt / chosen / rejected with image_url data URLs)',
  'mm-rlhf': 'MM-RLHF pairs (prompt, image, chosen, rejected with their critiques; images beside the file)',
  vlfeedback: 'VLFeedback (an image question, four completions rated per aspect)',
  'rlaif-v': 'RLAIF-V (image, question, chosen, rejected)',
};
