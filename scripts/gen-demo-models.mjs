#!/usr/bin/env node
// Writes the tiny demo reward models under resources/models/ (two text models, an image model and a video
// model), laid out like an ONNX export of a
// Hugging Face model (model.onnx, tokenizer.json, tokenizer_config.json, config.json). Deterministic:
// fixed seeds, fixed word list, so running it twice writes the same bytes.
//
// They are toys: their "judgement" is a word list (careful reasoning words up, hedging words down)
// plus seeded noise. They exist so that the whole scoring path can be shown and tested offline. The
// outcome model is nonetheless a real transformer encoder (attention, LayerNorm, MLP), so that its
// cost per token, and what batching and padding do to it, look like a real reward model's.
//
//   node scripts/gen-demo-models.mjs [--out resources/models]
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildTokenModel, buildTransformerOutcomeModel, buildVocab, makeTransformerWeights, makeWeights, wordPieceTokenizerJson } from './lib/onnx-builder.mjs';
import { buildImageRewardModel, clipPreprocessorConfig, makeImageRewardWeights } from './lib/onnx-image-builder.mjs';
import { buildVideoRewardModel, makeVideoRewardWeights } from './lib/onnx-video-builder.mjs';

const WORDS = `
the a an and or but if then else so because since therefore thus hence of to in on at by for with from
as is are was were be been being it its this that these those there here what which who whom whose why
how when where not no yes all any each every some many much more most less least few one two three four
five six seven eight nine ten zero first second third last next step steps answer question solution
problem number numbers sum total product difference ratio equal equals greater larger smaller less than
add subtract multiply divide divided times plus minus half twice double square root prime even odd
digit digits decimal fraction percent value values result results check verify verified correct
correctly incorrect wrong right true false proof prove compare comparison example examples case cases
we you i he she they them our your my me us can could should would will must may might do does did done
have has had get gets got make makes made take takes use used using find found give gives given let
know known think see look note means mean since while until after before again also only just very
well good bad better best worse worst exactly approximately about around over under between into out up
down new old same different other another such own both either neither each per rate speed time hours
minutes seconds day days year years money cost price dollars cents total left remaining rest part parts
water light sky blue red green color sun earth air function return code python list string int loop
for while def print value variable array index error errors mistake guess maybe probably perhaps sorry
unsure cannot unclear assume assuming likely seems think believe definitely clearly obviously simply
because hence result final therefore thus explain explanation reason reasoning rule formula equation
solve solved solving calculate calculated calculation compute computed method way approach idea
`.split(/\s+/).filter(Boolean);

const GOOD = ['because', 'therefore', 'thus', 'hence', 'check', 'verify', 'verified', 'correct', 'compare', 'step', 'equals', 'exactly', 'calculate', 'solve', 'proof', 'prove', 'so'];
const BAD = ['guess', 'maybe', 'probably', 'perhaps', 'sorry', 'unsure', 'cannot', 'unclear', 'assume', 'likely', 'seems', 'believe', 'obviously', 'wrong', 'mistake'];

function lexicon(vocab) {
  const values = {};
  for (const w of GOOD) values[vocab.indexOf(w)] = 2.0;
  for (const w of BAD) values[vocab.indexOf(w)] = -2.0;
  return values;
}

const json = (value) => `${JSON.stringify(value, null, 2)}\n`;

function writeFolder(dir, files) {
  mkdirSync(dir, { recursive: true });
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
}

function bertTokenizerConfig(extra) {
  return {
    tokenizer_class: 'BertTokenizerFast',
    model_max_length: 512,
    padding_side: 'right',
    pad_token: '[PAD]',
    unk_token: '[UNK]',
    cls_token: '[CLS]',
    sep_token: '[SEP]',
    mask_token: '[MASK]',
    do_lower_case: true,
    ...extra,
  };
}

/**
 * The demo outcome model's shape: a small BERT-like encoder, 2 layers of width 256 (1.3 M weights,
 * stored as float16: 2.6 MB). Enough compute per token that, on CPU, inference costs about ten times
 * what tokenizing costs, as it does (by far) for any real reward model.
 */
const OUTCOME = { dim: 256, heads: 4, ffnDim: 512, layers: 2, maxPositions: 512, storage: 'float16' };

/** Outcome model: BERT-style pair input, inferred without a manifest (pair template → text pair). */
function outcomeFolder() {
  const vocab = buildVocab(WORDS);
  const weights = makeTransformerWeights({ seed: 20261121, vocabSize: vocab.length, ...OUTCOME, outputs: 1, typeVocab: 2, lexicon: lexicon(vocab) });
  return {
    'model.onnx': buildTransformerOutcomeModel(weights, { withTokenTypes: true }),
    'tokenizer.json': json(wordPieceTokenizerJson(vocab)),
    // truncation_side left: a long answer keeps its end, where a reward model looks for the conclusion.
    'tokenizer_config.json': json(bertTokenizerConfig({ truncation_side: 'left' })),
    'config.json': json({
      architectures: ['ArbiterDemoForSequenceClassification'],
      model_type: 'arbiter-demo',
      vocab_size: vocab.length,
      hidden_size: OUTCOME.dim,
      num_attention_heads: OUTCOME.heads,
      num_hidden_layers: OUTCOME.layers,
      intermediate_size: OUTCOME.ffnDim,
      hidden_act: 'gelu_new',
      torch_dtype: 'float16',
      type_vocab_size: 2,
      layer_norm_eps: 1e-5,
      num_labels: 1,
      id2label: { 0: 'LABEL_0' },
      pad_token_id: 0,
      max_position_embeddings: OUTCOME.maxPositions,
    }),
  };
}

const CHAT_TEMPLATE =
  "{% for message in messages %}<|im_start|>{{ message['role'] }}\n{{ message['content'] }}<|im_end|>\n{% endfor %}" +
  '{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}';

/** Process model, Qwen2.5-Math-PRM style: chat template, <extra_0> after each step, 2-class token logits. */
function processFolder() {
  const addedTokens = ['<|im_start|>', '<|im_end|>', '<extra_0>'];
  const vocab = buildVocab([...WORDS, 'system', 'user', 'assistant']);
  const weights = makeWeights({ seed: 7, vocabSize: vocab.length + addedTokens.length, dim: 32, hidden: 32, outputs: 2, lexicon: lexicon(vocab) });
  return {
    'model.onnx': buildTokenModel(weights, { window: 16 }),
    'tokenizer.json': json(wordPieceTokenizerJson(vocab, { addedTokens })),
    'tokenizer_config.json': json(bertTokenizerConfig({ chat_template: CHAT_TEMPLATE, additional_special_tokens: addedTokens })),
    'config.json': json({
      architectures: ['ArbiterDemoForProcessReward'],
      model_type: 'arbiter-demo',
      vocab_size: vocab.length + addedTokens.length,
      num_labels: 2,
      pad_token_id: 0,
      max_position_embeddings: 512,
    }),
    'arbiter-model.json': json({
      name: 'demo-process',
      kind: 'process',
      input: { mode: 'chat_template', max_length: 512, truncation_side: 'right', system_prompt: 'Please reason step by step.' },
      output: { name: 'logits' },
      process: { step_separator: '<extra_0>', step_suffix: '<extra_0>', step_join: '', score: { type: 'class_probability', class_index: 1 } },
    }),
  };
}

/** Words of text-to-image prompts (colours, things, styles) for the image model's tokenizer. */
const IMAGE_WORDS = `red green blue yellow orange purple pink white black grey gray brown gold silver colour color colorful bright dark light
apple apples sky sea ocean lake river grass tree trees forest flower flowers rose cat cats dog dogs bird horse car house city street
mountain mountains beach sunset sunrise night moon sun star stars cloud clouds rain snow fire water castle robot portrait face
photo photograph painting drawing sketch illustration render watercolor oil style detailed realistic cinematic close wide shot
standing sitting running flying under above near beside front behind table chair window room garden field road bridge`.split(/\s+/).filter(Boolean);

/**
 * Image model, CLIP-style: pixel_values [batch, 3, 224, 224] made by a CLIPImageProcessor
 * preprocessor_config.json, and the prompt's tokens; logits [batch, 1]. Its judgement: the prompt's
 * colour words against the image's mean colour (with none, mean redness), plus a small seeded
 * convolutional texture term (scripts/lib/onnx-image-builder.mjs).
 */
function imageFolder() {
  const vocab = buildVocab([...WORDS, ...IMAGE_WORDS]);
  const weights = makeImageRewardWeights({ seed: 20260315, vocab, size: 224 });
  return {
    'model.onnx': buildImageRewardModel(weights),
    'tokenizer.json': json(wordPieceTokenizerJson(vocab)),
    'tokenizer_config.json': json(bertTokenizerConfig({ model_max_length: 77 })),
    'config.json': json({
      architectures: ['ArbiterDemoImageReward'],
      model_type: 'arbiter-demo-image',
      vocab_size: vocab.length,
      pad_token_id: 0,
      text_config: { max_position_embeddings: 77, vocab_size: vocab.length },
      vision_config: { image_size: 224, num_channels: 3 },
    }),
    'preprocessor_config.json': json(clipPreprocessorConfig(224)),
  };
}

/** Words of text-to-video prompts (motion, pace, what a clip shows) for the video model's tokenizer. */
const VIDEO_WORDS = `video clip frame frames zoom zooming pan panning slowly steadily quickly moving motion still static
flicker noise smooth jerky evolving drifting sweeping spinning falling rising camera scene shot cells bars card hand set game life
colours colors vivid perfectly cube bowl pick place`.split(/\s+/).filter(Boolean);

/**
 * Video model, a frame stack: pixel_values [batch, 4, 3, 32, 32] (four frames sampled at 2 fps, each made
 * as preprocessor_config.json makes an image) and the prompt's tokens; logits [batch, 1]. Its judgement:
 * the prompt's colour words against the clip's mean colour (with none, mean redness) plus how much the
 * frames move (scripts/lib/onnx-video-builder.mjs). The demo's "Demo videos" pairs are scored with it on
 * first launch (electron/core/service/openApp.ts), their frames decoded by the packaged ffmpeg.
 */
function videoFolder() {
  const vocab = buildVocab([...WORDS, ...IMAGE_WORDS, ...VIDEO_WORDS]);
  const weights = makeVideoRewardWeights({ vocab, size: 32 });
  return {
    'model.onnx': buildVideoRewardModel(weights, { frames: 4 }),
    'tokenizer.json': json(wordPieceTokenizerJson(vocab)),
    'tokenizer_config.json': json(bertTokenizerConfig({ model_max_length: 77 })),
    'config.json': json({
      architectures: ['ArbiterDemoVideoReward'],
      model_type: 'arbiter-demo-video',
      vocab_size: vocab.length,
      pad_token_id: 0,
      text_config: { max_position_embeddings: 77, vocab_size: vocab.length },
      vision_config: { image_size: 32, num_channels: 3, num_frames: 4 },
    }),
    'preprocessor_config.json': json(clipPreprocessorConfig(32)),
  };
}

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outArg = process.argv.indexOf('--out');
const out = outArg > 0 ? resolve(process.argv[outArg + 1]) : join(root, 'resources', 'models');
writeFolder(join(out, 'demo-outcome'), outcomeFolder());
writeFolder(join(out, 'demo-process'), processFolder());
writeFolder(join(out, 'demo-image'), imageFolder());
writeFolder(join(out, 'demo-video'), videoFolder());
console.log(`wrote ${join(out, 'demo-outcome')}, ${join(out, 'demo-process')}, ${join(out, 'demo-image')} and ${join(out, 'demo-video')}`);
