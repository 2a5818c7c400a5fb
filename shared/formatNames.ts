// Format names as docs/formats.md lists them; the CLI, the import preview and the export dialog use these.
// Which formats there are, and their titles, come from the format registry (./formatCatalog.ts).
import { FORMAT_CATALOG } from './formatCatalog';

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

type CatalogFormat = (typeof FORMAT_CATALOG)[number];
export type ImportFormat = Extract<CatalogFormat, { reads: true }>['name'];
export type ExportFormat = Extract<CatalogFormat, { writes: true }>['name'];

/**
 * What Arbiter imports, in the registry's order (./formatCatalog.ts, generated from it), Arbiter's own items
 * first: the format a file of no known format is told to take (`--format arbiter`) heads the list.
 */
export const IMPORT_FORMATS = FORMAT_CATALOG.filter((f) => f.reads)
  .map((f) => f.name)
  .sort((a, b) => Number(b === 'arbiter') - Number(a === 'arbiter')) as [ImportFormat, ...ImportFormat[]];

/** What Arbiter exports, in the registry's order. */
export const EXPORT_FORMATS = FORMAT_CATALOG.filter((f) => f.writes).map((f) => f.name) as [ExportFormat, ...ExportFormat[]];

/**
 * Exports that write content as it is stored (chat messages with their typed parts), or in a vision shape,
 * so images go with it; every other export writes text only and refuses items with images (or drops them).
 */
export const IMAGE_EXPORT_FORMATS: readonly string[] = FORMAT_CATALOG.filter((f) => f.writes && f.carries === 'content').map((f) => f.name);

/**
 * Which pairs a ranking gives in a pairwise export (docs/formats.md, "Rankings give pairs"):
 * every pair of responses in different rank groups, the best group against the worst, or each group
 * against the next. Tied responses never form a pair.
 */
export const RANKING_PAIRS = ['all', 'best-worst', 'adjacent'] as const;
export type RankingPairs = (typeof RANKING_PAIRS)[number];

/** Each format's title, as its descriptor gives it. */
export const FORMAT_TITLES: Record<string, string> = Object.fromEntries(FORMAT_CATALOG.map((f) => [f.name, f.title]));
