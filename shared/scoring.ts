// Serializable types of the scorer: they cross IPC, HTTP and worker_threads, so they live in shared/.

export type ModelKind = 'outcome' | 'process';
/**
 * How the input a model reads is built from a prompt and a response: text (chat template, text pair or
 * plain), or 'image': the response's image as pixel values (+ the prompt's text as tokens, CLIP-style).
 */
export type InputMode = 'chat_template' | 'text_pair' | 'plain' | 'image' | 'video';
/** Which end a too-long input loses: 'left' drops the start (keeps the end), 'right' drops the end. */
export type Side = 'left' | 'right';
export type ProviderName = 'cpu' | 'cuda' | 'dml' | 'coreml';
export type ProviderRequest = 'auto' | ProviderName;
/** What fills a graph input. */
export type InputSource = 'input_ids' | 'attention_mask' | 'token_type_ids' | 'position_ids';

export interface ProviderStatus {
  name: ProviderName;
  available: boolean;
  /** Why it cannot be used here, or what it still needs at session start. */
  reason: string;
}

/** Which provider a session actually runs on, and why the ones tried before it were skipped. */
export interface ProviderReport {
  requested: ProviderRequest;
  used: ProviderName;
  skipped: { name: ProviderName; reason: string }[];
}

export type StepScoreRule =
  | { type: 'class_probability'; classIndex: number }
  | { type: 'token_pair'; positiveToken: string; negativeToken: string; positiveId: number; negativeId: number };

export type StepAggregate = 'min' | 'last' | 'product' | 'mean';

export interface ProcessSpec {
  separatorToken: string;
  separatorId: number;
  /** Appended to every step's text (usually the separator itself, maybe with a space before it). */
  stepSuffix: string;
  /** Joins the suffixed steps into the response text. */
  stepJoin: string;
  score: StepScoreRule;
  /** How per-step probabilities become one reward for pairwise pre-labels. */
  aggregate: StepAggregate;
}

/**
 * How an image becomes pixel values, as a Hugging Face image processor does it (preprocessor_config.json,
 * CLIPImageProcessor's fields): RGB, resize, centre crop, rescale, normalise, channels first.
 */
export interface ImagePreprocess {
  /** do_resize: the shortest edge to `shortestEdge` (the other keeps the aspect ratio), or exactly height × width. */
  resize: { shortestEdge: number } | { height: number; width: number } | null;
  /** PIL's filter (resample 0 nearest, 1 lanczos, 2 bilinear, 3 bicubic, 4 box, 5 hamming). */
  resample: 'nearest' | 'bilinear' | 'bicubic' | 'lanczos' | 'box' | 'hamming';
  /** do_center_crop: crop_size (padded with black where the image is smaller). */
  crop: { height: number; width: number } | null;
  /** do_rescale: rescale_factor (1/255 for 8-bit images); null: pixel values stay 0..255. */
  rescale: number | null;
  /** do_normalize: (value − mean) / std per channel (R, G, B). */
  normalize: { mean: [number, number, number]; std: [number, number, number] } | null;
}

/** How a video model's frames are taken from a video (arbiter-model.json "video", else the defaults). */
export interface VideoSampling {
  frames: number;
  fps: number;
}

/** An image model's pixel input: the graph input it fills, the tensor's height and width, and how it is made. */
export interface ImageInputSpec {
  input: string;
  height: number;
  width: number;
  preprocess: ImagePreprocess;
  /**
   * Video models (pixel_values [batch, frames, 3, height, width]): `frames` frames sampled at `fps` frames
   * per second (lowered so they span a longer clip), each preprocessed as an image. Absent: an image model.
   */
  video?: VideoSampling | null;
}

export interface GraphInput {
  name: string;
  source: InputSource;
  dtype: 'int64' | 'int32';
}

/** Everything needed to turn items into model inputs and outputs into scores; resolved once per folder. */
export interface ModelSpec {
  kind: ModelKind;
  inputMode: InputMode;
  maxLength: number;
  truncationSide: Side;
  paddingSide: Side;
  padTokenId: number;
  systemPrompt: string | null;
  /** For plain mode: the text around prompt and response, with {prompt} and {response} placeholders. */
  plainTemplate: string;
  output: { name: string; index: number };
  process: ProcessSpec | null;
  /** Token inputs (an image model may have none: it then reads the image alone). */
  inputs: GraphInput[];
  /** Image models: the pixel input. Absent or null: a text model. */
  image?: ImageInputSpec | null;
}

export interface TensorInfo {
  name: string;
  type: string;
  shape: (number | string)[];
}

/** What inspecting a model folder found; shown to the user before the model is added. */
export interface ModelDescription {
  dir: string;
  name: string;
  hash: string;
  kind: ModelKind;
  inputMode: InputMode;
  /** Where each choice came from, e.g. "arbiter-model.json" or "chat template in tokenizer_config.json". */
  sources: { kind: string; inputMode: string; maxLength: string; truncationSide: string };
  maxLength: number;
  truncationSide: Side;
  paddingSide: Side;
  reward: { output: string; index: number; rule: string };
  inputs: (TensorInfo & { filledWith: InputSource | 'pixel_values' })[];
  outputs: TensorInfo[];
  tokenizer: {
    model: string;
    vocabSize: number;
    hasPairTemplate: boolean;
    hasChatTemplate: boolean;
    padToken: string | null;
    specialTokens: string[];
  };
  process: { separator: string; separatorId: number; rule: string; aggregate: StepAggregate } | null;
  /** Image models: the pixel input and its preprocessing, in words (from preprocessor_config.json). */
  image?: { input: string; shape: (number | string)[]; preprocess: string; readsPrompt: boolean; video?: VideoSampling | null } | null;
  hasManifest: boolean;
  warnings: string[];
}

export interface ModelInfo {
  id: number;
  name: string;
  hash: string;
  dir: string;
  kind: ModelKind;
  inputMode: InputMode;
  addedAt: string;
  scores: number;
  /** The provider its last score job ran on, and why others were skipped; null before any job. */
  lastProvider: ProviderReport | null;
}

export interface ScoreProgress {
  phase: 'preparing' | 'scoring' | 'done';
  model: string;
  modelIndex: number;
  modelCount: number;
  /** Responses scored so far for this model (cached ones not counted). */
  done: number;
  /** Responses this model has to score (cached ones not counted). */
  total: number;
  /** Responses skipped because their score was already cached. */
  cached: number;
  itemsPerSecond: number;
  tokensPerSecond: number;
  etaSeconds: number | null;
  provider: ProviderName | null;
}

export interface ModelRunSummary {
  modelId: number;
  name: string;
  hash: string;
  provider: ProviderReport;
  scored: number;
  cached: number;
  /** Responses longer than max length (cut on the configured side). */
  truncated: number;
  /** Responses that produced no usable score; why, in unscorableReasons. */
  unscorable: number;
  tokens: number;
  seconds: number;
  /** Why responses were unscorable: one entry per reason, with how many and which ones first. */
  unscorableReasons: UnscorableReason[];
}

export interface UnscorableReason {
  /** What kept them from a score and what to do, in a sentence ("the response has no steps: its text is empty"). */
  reason: string;
  count: number;
  /** The first few it happened to, as "item q-17, response A" (A / B: source order). */
  examples: string[];
  /**
   * Set when the model does not take such responses by design (images for a text model, text for an
   * image model): what they are, in a few words ("text responses (an image reward model scores generated
   * images)"). A note, not a problem to fix.
   */
  byDesign?: string;
}

export interface ScoreJobResult {
  project: string;
  cancelled: boolean;
  models: ModelRunSummary[];
}

export interface ScoreJobOptions {
  dbPath: string;
  project: string;
  /** Models already added (by id) and/or folders to add and score. */
  modelIds?: number[];
  dirs?: string[];
  provider?: ProviderRequest;
  batchSize?: number;
  /** onnxruntime intra-op threads; default: onnxruntime's own choice. */
  threads?: number;
}

export type Vote = 'A' | 'B' | 'tie';

export interface ModelPrelabel {
  modelId: number;
  name: string;
  kind: ModelKind;
  /** One per response in source order; null where that response has no score yet. */
  rewards: (number | null)[];
  /** P(A better) = sigmoid(reward A − reward B); null until both are scored. */
  pAB: number | null;
  vote: Vote | null;
  /** Process models: per response, per step P(step is good); a response or a step (cut by truncation) may be null. */
  steps?: ((number | null)[] | null)[];
  /**
   * Process models: per response, stepsKey (shared/segment.ts) of the steps the scores are for, so a
   * screen showing another cut (split or merged since) can tell and show none of them.
   */
  stepKeys?: (string | null)[];
  /** Process models: per response, the first step scoring below 0.5 (null: none). */
  firstError?: (number | null)[];
  provider: string | null;
}

export interface ItemPrelabels {
  models: ModelPrelabel[];
  ensemble: { mean: number; spread: number; vote: Vote; votes: Record<Vote, number>; models: number } | null;
}
