// Turns a model folder + the graph's inputs/outputs into a ModelSpec: what it infers, what the
// manifest says, and clear errors for what is neither inferable nor said.
import type * as ort from 'onnxruntime-node';
import { describePreprocess, parsePreprocessorConfig } from './imageInputs';
import { defaultModelName, PREPROCESSOR_FILE, type ModelFolder } from './modelFolder';
import type { GraphInput, ImageInputSpec, InputSource, ModelDescription, ModelKind, ModelSpec, ProcessSpec, Side, TensorInfo, VideoSampling } from './types';

const FILLABLE: InputSource[] = ['input_ids', 'attention_mask', 'token_type_ids', 'position_ids'];
const HF_DEFAULT_MAX = 1_000_000; // transformers writes a huge sentinel when a tokenizer has no limit

export interface ResolvedModel {
  spec: ModelSpec;
  description: Omit<ModelDescription, 'hash'>;
}

function tensorInfo(m: ort.InferenceSession.ValueMetadata): TensorInfo {
  return m.isTensor ? { name: m.name, type: m.type, shape: [...m.shape] } : { name: m.name, type: 'non-tensor', shape: [] };
}

const showShape = (t: TensorInfo) => `[${t.shape.join(', ')}]`;

/** The pixel input of an image model: Hugging Face image models call it pixel_values. */
export const PIXEL_INPUT = 'pixel_values';

function graphInputs(metadata: readonly ort.InferenceSession.ValueMetadata[], imageModel: boolean): GraphInput[] {
  const inputs = metadata
    .filter((m) => !(imageModel && m.name === PIXEL_INPUT))
    .map((m): GraphInput => {
      const info = tensorInfo(m);
      if (m.name === PIXEL_INPUT) {
        throw new Error(
          `model.onnx asks for input "${m.name}" (${info.type} ${showShape(info)}): an image. Put the ${PREPROCESSOR_FILE} the model was trained with ` +
            'beside model.onnx, so Arbiter knows how to make pixel values (see docs/models.md, "Image reward models").',
        );
      }
      if (!FILLABLE.includes(m.name as InputSource)) {
        throw new Error(
          `model.onnx asks for input "${m.name}" (${info.type} ${showShape(info)}), which ${imageModel ? "neither the image nor the prompt's tokens can fill" : 'a text tokenizer cannot fill'}. ` +
            `Arbiter fills ${imageModel ? `${PIXEL_INPUT}, ` : ''}${FILLABLE.join(', ')}; export the model without past key values or other extra inputs.`,
        );
      }
      if (info.type !== 'int64' && info.type !== 'int32') {
        throw new Error(`model.onnx input "${m.name}" is ${info.type}; token inputs must be int64 or int32`);
      }
      return { name: m.name, source: m.name as InputSource, dtype: info.type };
    });
  if (!imageModel && !inputs.some((i) => i.source === 'input_ids')) throw new Error('model.onnx has no "input_ids" input, so it does not read tokens');
  if (imageModel && inputs.length && !inputs.some((i) => i.source === 'input_ids')) {
    throw new Error(`model.onnx reads ${inputs.map((i) => `"${i.name}"`).join(', ')} but no "input_ids": an image model reads the image alone, or the image and the prompt's tokens`);
  }
  return inputs;
}

/**
 * The pixel input, checked against what preprocessor_config.json makes: float32 [batch, 3, height, width],
 * each fixed dimension equal to the config's. Every mismatch is a sentence naming the input.
 */
function imageInput(folder: ModelFolder, metadata: readonly ort.InferenceSession.ValueMetadata[]): { spec: ImageInputSpec; info: TensorInfo; warnings: string[] } {
  const found = metadata.find((m) => m.name === PIXEL_INPUT);
  if (!found) {
    const names = metadata.map((m) => `"${m.name}"`).join(', ');
    throw new Error(`${PREPROCESSOR_FILE} is in the folder, so this is an image model, but model.onnx has no "${PIXEL_INPUT}" input (it has ${names}): export it with its image input named ${PIXEL_INPUT}, as Hugging Face models name it`);
  }
  const info = tensorInfo(found);
  const name = `model.onnx input "${PIXEL_INPUT}"`;
  if (info.type !== 'float32') throw new Error(`${name} is ${info.type} ${showShape(info)}; Arbiter feeds float32 pixel values: export the model with float32 inputs`);
  // [batch, 3, H, W]: an image model; [batch, frames, 3, H, W]: a video model (a stack of sampled frames).
  const isVideo = info.shape.length === 5;
  const [channels, height, width] = info.shape.slice(isVideo ? 2 : 1);
  if ((info.shape.length !== 4 && !isVideo) || (typeof channels === 'number' && channels !== 3)) {
    throw new Error(`${name} has shape ${showShape(info)}; Arbiter feeds [batch, 3, height, width] (RGB, channels first, as Hugging Face image models read them), or [batch, frames, 3, height, width] for a video model`);
  }
  const video = videoSampling(folder, isVideo ? info.shape[1]! : null);
  let parsed;
  try {
    parsed = parsePreprocessorConfig(folder.preprocessor!);
  } catch (error) {
    throw new Error(`${(error as Error).message} (in ${folder.dir})`);
  }
  const wrong = (typeof height === 'number' && height !== parsed.height) || (typeof width === 'number' && width !== parsed.width);
  if (wrong) {
    const from = parsed.preprocess.crop ? 'crop_size' : 'size';
    throw new Error(`${name} takes ${String(height)} × ${String(width)} images (height × width), but ${PREPROCESSOR_FILE} makes ${parsed.height} × ${parsed.width} (${from}): the config does not belong to this model`);
  }
  return { spec: { input: PIXEL_INPUT, height: parsed.height, width: parsed.width, preprocess: parsed.preprocess, video }, info, warnings: parsed.warnings };
}

/** Frames a video model reads when neither the graph nor arbiter-model.json says (VideoScore reads 8). */
export const DEFAULT_VIDEO_FRAMES = 8;
/** Frames per second sampled when arbiter-model.json says no rate (VideoAlign samples at 2). */
export const DEFAULT_VIDEO_FPS = 2;

/**
 * A video model's sampling: the graph's fixed frame count, else arbiter-model.json's video.frames, else 8;
 * video.fps, else 2. `graphFrames` null: an image model, which must not have a "video" section.
 */
function videoSampling(folder: ModelFolder, graphFrames: number | string | null): VideoSampling | null {
  const said = folder.manifest?.video;
  if (graphFrames === null) {
    if (said) throw new Error(`arbiter-model.json has a "video" section, but model.onnx input "${PIXEL_INPUT}" is [batch, 3, height, width] (one image): a video model reads [batch, frames, 3, height, width]`);
    return null;
  }
  if (typeof graphFrames === 'number' && said?.frames !== undefined && said.frames !== graphFrames) {
    throw new Error(`arbiter-model.json video.frames is ${said.frames}, but model.onnx input "${PIXEL_INPUT}" takes ${graphFrames} frames`);
  }
  const frames = typeof graphFrames === 'number' ? graphFrames : (said?.frames ?? DEFAULT_VIDEO_FRAMES);
  if (frames < 1 || frames > 256) throw new Error(`model.onnx input "${PIXEL_INPUT}" takes ${frames} frames; Arbiter samples 1 to 256`);
  return { frames, fps: said?.fps ?? DEFAULT_VIDEO_FPS };
}

function pickOutput(folder: ModelFolder, outputs: TensorInfo[]): TensorInfo {
  const wanted = folder.manifest?.output?.name;
  const list = outputs.map((o) => `"${o.name}" ${showShape(o)}`).join(', ');
  if (wanted) {
    const found = outputs.find((o) => o.name === wanted);
    if (!found) throw new Error(`arbiter-model.json names output "${wanted}", but model.onnx has ${list}`);
    return found;
  }
  const logits = outputs.find((o) => o.name === 'logits');
  if (logits) return logits;
  if (outputs.length === 1) return outputs[0]!;
  throw new Error(`model.onnx has several outputs (${list}) and none is called "logits": say which is the reward in arbiter-model.json ("output": {"name": …})`);
}

function positiveInt(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : null;
}

function sideOf(value: unknown): Side | null {
  if (typeof value !== 'string') return null;
  const lower = value.toLowerCase();
  return lower === 'left' || lower === 'right' ? lower : null;
}

function processSpec(folder: ModelFolder, classes: number | null): ProcessSpec {
  const p = folder.manifest?.process;
  if (!p) {
    throw new Error(
      'The reward output has a score per token ([batch, sequence, N]), so this is a process reward model: say in arbiter-model.json ' +
        'which token ends a step and how a step score is read ("process": {"step_separator": …, "score": …}); see docs/models.md',
    );
  }
  const tok = folder.tokenizer;
  const idOf = (token: string, what: string) => {
    const id = tok.idOf(token);
    if (id === undefined) throw new Error(`The ${what} "${token}" from arbiter-model.json is not a token of tokenizer.json`);
    return id;
  };
  const checkClass = (index: number, what: string) => {
    if (classes !== null && index >= classes) throw new Error(`The ${what} is ${index}, but the output has only ${classes} classes per token`);
  };
  const separatorId = idOf(p.step_separator, 'step separator');
  let score: ProcessSpec['score'];
  if (p.score.type === 'class_probability') {
    checkClass(p.score.class_index, 'step score class index');
    score = { type: 'class_probability', classIndex: p.score.class_index };
  } else {
    const positiveId = idOf(p.score.positive_token, 'positive token');
    const negativeId = idOf(p.score.negative_token, 'negative token');
    checkClass(Math.max(positiveId, negativeId), 'positive/negative token id');
    score = { type: 'token_pair', positiveToken: p.score.positive_token, negativeToken: p.score.negative_token, positiveId, negativeId };
  }
  return {
    separatorToken: p.step_separator,
    separatorId,
    stepSuffix: p.step_suffix ?? p.step_separator,
    stepJoin: p.step_join ?? '',
    score,
    aggregate: p.aggregate ?? 'min',
  };
}

export function resolveModel(folder: ModelFolder, session: ort.InferenceSession): ResolvedModel {
  const { manifest, tokenizer: tok, tokenizerConfig: tc, config } = folder;
  const warnings: string[] = [];
  const imageModel = folder.preprocessor !== null;
  const inputs = graphInputs(session.inputMetadata, imageModel);
  const image = imageModel ? imageInput(folder, session.inputMetadata) : null;
  if (image) warnings.push(...image.warnings);
  const outputs = session.outputMetadata.map(tensorInfo);
  const output = pickOutput(folder, outputs);
  const rank = output.shape.length;
  if (rank < 1 || rank > 3) throw new Error(`Output "${output.name}" has shape ${showShape(output)}; expected [batch], [batch, classes] or [batch, sequence, classes]`);
  const lastDim = rank > 1 ? output.shape[rank - 1] : 1;
  const classes = typeof lastDim === 'number' ? lastDim : null;

  // Kind: the manifest, else the output's rank (a score per token means a process model).
  const inferredKind: ModelKind = rank === 3 ? 'process' : 'outcome';
  const kind = manifest?.kind ?? inferredKind;
  if (image && kind === 'process') throw new Error(`Output "${output.name}" ${showShape(output)} is per token, but an image model gives one reward per image: [batch] or [batch, classes]`);
  if (kind !== inferredKind) {
    throw new Error(`arbiter-model.json says "${kind}", but output "${output.name}" ${showShape(output)} is ${rank === 3 ? 'per token (a process model)' : 'per sequence (an outcome model)'}`);
  }
  const process = kind === 'process' ? processSpec(folder, classes) : null;

  let index = manifest?.output?.index ?? 0;
  if (kind === 'outcome') {
    if (manifest?.output?.index === undefined && classes !== null && classes > 1) {
      throw new Error(`Output "${output.name}" ${showShape(output)} has ${classes} values per response: say which one is the reward in arbiter-model.json ("output": {"index": …})`);
    }
    if (classes !== null && index >= classes) throw new Error(`arbiter-model.json output.index is ${index}, but "${output.name}" has ${classes} values per response`);
  } else index = 0;

  // Input mode: an image model reads images; else the manifest, else a chat template, else a pair template, else plain text.
  const chat = tok.chatTemplate !== null;
  if (image && manifest?.input?.mode) throw new Error(`arbiter-model.json input.mode "${manifest.input.mode}" is for text models; this model reads images ("${PIXEL_INPUT}", ${PREPROCESSOR_FILE})`);
  const inputMode = image ? (image.spec.video ? 'video' : 'image') : (manifest?.input?.mode ?? (chat ? 'chat_template' : tok.hasPairTemplate ? 'text_pair' : 'plain'));
  const modeSource = image
    ? `"${PIXEL_INPUT}" input${image.spec.video ? ` (${image.spec.video.frames} frames at ${image.spec.video.fps} fps, ${manifest?.video ? 'arbiter-model.json' : 'the graph and defaults'})` : ''} and ${PREPROCESSOR_FILE}${inputs.length ? "; the prompt's text as tokens" : ''}`
    : manifest?.input?.mode
    ? 'arbiter-model.json'
    : chat
      ? 'chat template in tokenizer_config.json'
      : tok.hasPairTemplate
        ? 'pair template in tokenizer.json'
        : 'no chat or pair template: prompt and response as one text';
  if (inputMode === 'chat_template' && !chat) throw new Error('arbiter-model.json asks for the chat template, but tokenizer_config.json has none');
  if (inputMode === 'text_pair' && !tok.hasPairTemplate) warnings.push('The tokenizer has no pair template: prompt and response are joined with no separator tokens');

  const fromConfig = positiveInt(tc.model_max_length);
  // CLIP-style configs keep the text tower's limit in text_config.
  const textConfig = (config.text_config && typeof config.text_config === 'object' ? config.text_config : {}) as Record<string, unknown>;
  const positions = positiveInt(config.max_position_embeddings) ?? positiveInt(textConfig.max_position_embeddings);
  let maxLength = manifest?.input?.max_length ?? (fromConfig !== null && fromConfig < HF_DEFAULT_MAX ? fromConfig : positions);
  const maxSource = manifest?.input?.max_length ? 'arbiter-model.json' : fromConfig !== null && fromConfig < HF_DEFAULT_MAX ? 'tokenizer_config.json model_max_length' : positions ? 'config.json max_position_embeddings' : 'default';
  if (maxLength === null) {
    maxLength = 512;
    warnings.push('No max length in tokenizer_config.json or config.json: using 512 (set input.max_length in arbiter-model.json)');
  }
  if (positions !== null && maxLength > positions) warnings.push(`max length ${maxLength} exceeds config.json max_position_embeddings ${positions}`);
  if (maxLength <= tok.specialsCount(inputMode === 'text_pair') + 1) throw new Error(`max length ${maxLength} leaves no room for text`);

  const truncationSide = manifest?.input?.truncation_side ?? sideOf(tc.truncation_side) ?? 'right';
  const truncSource = manifest?.input?.truncation_side ? 'arbiter-model.json' : sideOf(tc.truncation_side) ? 'tokenizer_config.json truncation_side' : 'default (as transformers)';
  const padding = folder.tokenizerJson.padding as { direction?: string; pad_id?: number } | null | undefined;
  const paddingSide = manifest?.input?.padding_side ?? sideOf(tc.padding_side) ?? sideOf(padding?.direction) ?? 'right';

  const padToken = tok.configToken('pad_token');
  const padFromToken = padToken !== null ? tok.hf.token_to_id(padToken) : undefined;
  const eosToken = tok.configToken('eos_token');
  let padTokenId =
    (typeof config.pad_token_id === 'number' ? config.pad_token_id : undefined) ??
    padFromToken ??
    (typeof padding?.pad_id === 'number' ? padding.pad_id : undefined) ??
    (eosToken !== null ? tok.hf.token_to_id(eosToken) : undefined);
  if (padTokenId === undefined) {
    padTokenId = 0;
    warnings.push('No pad token in config.json or tokenizer_config.json: padding with id 0 (masked out by attention_mask)');
  }

  const vocabLimit = positiveInt(config.vocab_size);
  if (vocabLimit !== null && tok.vocabSize > vocabLimit) {
    throw new Error(`tokenizer.json has ${tok.vocabSize} token ids but config.json says the model has vocab_size ${vocabLimit}: the tokenizer does not belong to this model`);
  }
  if (inputs.some((i) => i.source === 'token_type_ids') && inputMode !== 'text_pair') warnings.push('The graph reads token_type_ids: they are all 0 for a single text');

  const spec: ModelSpec = {
    kind,
    inputMode,
    maxLength,
    truncationSide,
    paddingSide,
    padTokenId,
    systemPrompt: manifest?.input?.system_prompt ?? null,
    plainTemplate: manifest?.input?.plain_template ?? '{prompt}\n{response}',
    output: { name: output.name, index },
    process,
    inputs,
    image: image?.spec ?? null,
  };
  const rule = process
    ? 'reward = log-odds of the ' + `${process.aggregate} step probability`
    : `reward = ${output.name}[batch, ${index}]`;
  const description: Omit<ModelDescription, 'hash'> = {
    dir: folder.dir,
    name: defaultModelName(folder),
    kind,
    inputMode,
    sources: { kind: manifest?.kind ? 'arbiter-model.json' : `output shape ${showShape(output)}`, inputMode: modeSource, maxLength: maxSource, truncationSide: truncSource },
    maxLength,
    truncationSide,
    paddingSide,
    reward: { output: output.name, index, rule },
    inputs: [
      ...(image ? [{ ...image.info, filledWith: 'pixel_values' as const }] : []),
      ...inputs.map((i) => ({ ...tensorInfo(session.inputMetadata.find((m) => m.name === i.name)!), filledWith: i.source })),
    ],
    outputs,
    tokenizer: {
      model: tok.modelType,
      vocabSize: tok.vocabSize,
      hasPairTemplate: tok.hasPairTemplate,
      hasChatTemplate: chat,
      padToken: tok.hf.id_to_token(padTokenId) ?? null,
      specialTokens: tok.specialTokens.slice(0, 50),
    },
    process: process
      ? {
          separator: process.separatorToken,
          separatorId: process.separatorId,
          rule:
            process.score.type === 'class_probability'
              ? `P(class ${process.score.classIndex}) at each "${process.separatorToken}"`
              : `P("${process.score.positiveToken}") against "${process.score.negativeToken}" at each "${process.separatorToken}"`,
          aggregate: process.aggregate,
        }
      : null,
    image: image ? { input: image.spec.input, shape: image.info.shape, preprocess: describePreprocess(image.spec.preprocess), readsPrompt: inputs.length > 0, video: image.spec.video ?? null } : null,
    hasManifest: manifest !== null,
    warnings,
  };
  return { spec, description };
}
