// A thin layer over @huggingface/tokenizers: tokens without specials (so Arbiter can truncate before
// the template adds [CLS]/[SEP]), the template applied afterwards (with token type ids), and chat
// templates rendered with @huggingface/jinja. The library itself has no truncation, hence the split.
import { Template } from '@huggingface/jinja';
import { Tokenizer } from '@huggingface/tokenizers';
import type { ChatMessage } from '../../../shared/domain';

type Json = Record<string, unknown>;

/** How many recently tokenized texts TextTokenizer.tokens remembers. */
const RECENT_TEXTS = 8;

/** tokenizer_config.json values are either strings or AddedToken objects ({content: "..."}). */
function tokenString(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && typeof (value as { content?: unknown }).content === 'string') {
    return (value as { content: string }).content;
  }
  return null;
}

function hasPairTemplate(postProcessor: unknown): boolean {
  if (!postProcessor || typeof postProcessor !== 'object') return false;
  const pp = postProcessor as { type?: string; pair?: unknown; processors?: unknown[] };
  if (pp.type === 'TemplateProcessing') return Array.isArray(pp.pair) && pp.pair.length > 0;
  if (pp.type === 'BertProcessing' || pp.type === 'RobertaProcessing') return true;
  if (pp.type === 'Sequence') return (pp.processors ?? []).some(hasPairTemplate);
  return false;
}

function pickChatTemplate(value: unknown): string | null {
  if (typeof value === 'string' && value.trim()) return value;
  // Several named templates: HF uses the one called "default".
  if (Array.isArray(value)) {
    const named = value as { name?: string; template?: string }[];
    return (named.find((t) => t.name === 'default') ?? named[0])?.template ?? null;
  }
  return null;
}

export class TextTokenizer {
  readonly hf: Tokenizer;
  readonly modelType: string;
  /** Highest token id the tokenizer can produce, plus one. */
  readonly vocabSize: number;
  readonly maxTokenId: number;
  readonly hasPairTemplate: boolean;
  readonly hasPostProcessor: boolean;
  readonly chatTemplate: Template | null;
  readonly specialTokens: string[];
  readonly unkId: number | null;
  private readonly config: Json;
  private readonly specialsSingle: number;
  private readonly specialsPair: number;
  private readonly recent = new Map<string, readonly string[]>();

  constructor(tokenizerJson: Json, tokenizerConfig: Json) {
    this.hf = new Tokenizer(tokenizerJson, tokenizerConfig);
    this.config = tokenizerConfig;
    this.modelType = String((tokenizerJson.model as { type?: string } | undefined)?.type ?? 'unknown');
    const ids = [...this.hf.get_vocab(true).values()];
    this.maxTokenId = ids.reduce((a, b) => Math.max(a, b), -1);
    this.vocabSize = this.maxTokenId + 1;
    this.hasPostProcessor = this.hf.post_processor !== null;
    this.hasPairTemplate = hasPairTemplate(tokenizerJson.post_processor);
    const template = pickChatTemplate(tokenizerConfig.chat_template);
    try {
      this.chatTemplate = template ? new Template(template) : null;
    } catch (error) {
      throw new Error(`The chat template in tokenizer_config.json does not parse: ${(error as Error).message}`);
    }
    this.specialTokens = [...this.hf.get_added_tokens_decoder().values()].filter((t) => t.special).map((t) => t.content);
    this.unkId = this.hf.model?.unk_token_id ?? null;
    this.specialsSingle = this.withSpecials(['\u0000a'], null).tokens.length - 1;
    this.specialsPair = this.hasPairTemplate ? this.withSpecials(['\u0000a'], ['\u0000b']).tokens.length - 2 : this.specialsSingle;
  }

  /**
   * Tokens of a text, without the template's special tokens. The last few texts are remembered (as
   * frozen arrays), so a prompt read as the first text of a pair is tokenized once for all of its
   * responses rather than once per response.
   */
  tokens(text: string): readonly string[] {
    const hit = this.recent.get(text);
    if (hit) return hit;
    const tokens = Object.freeze(this.hf.tokenize(text, { add_special_tokens: false }));
    if (this.recent.size >= RECENT_TEXTS) this.recent.delete(this.recent.keys().next().value!);
    this.recent.set(text, tokens);
    return tokens;
  }

  ids(tokens: readonly string[]): number[] {
    return tokens.map((t) => {
      const id = this.hf.token_to_id(t) ?? this.unkId;
      if (id === null || id === undefined) throw new Error(`The tokenizer produced "${t}", which is not in its vocabulary and it has no unknown token`);
      return id;
    });
  }

  /** Applies the single or pair template; type ids follow it (0 for A, 1 for B when it has none). */
  withSpecials(a: readonly string[], b: readonly string[] | null): { tokens: readonly string[]; typeIds: number[] } {
    const pp = this.hf.post_processor;
    if (!pp) return { tokens: [...a, ...(b ?? [])], typeIds: [...a.map(() => 0), ...(b ?? []).map(() => 1)] };
    // Post-processors build new arrays (ByteLevel hands A back as is); none writes into its inputs.
    const out = pp.post_process(a as string[], b as string[] | null, true);
    const tokens = out.tokens;
    const typeIds = out.token_type_ids ?? tokens.map(() => 0);
    return { tokens, typeIds };
  }

  specialsCount(pair: boolean): number {
    return pair ? this.specialsPair : this.specialsSingle;
  }

  /** A token's id: itself if in the vocabulary, else the last id its text encodes to (as Math-Shepherd's code does). */
  idOf(token: string): number | undefined {
    const direct = this.hf.token_to_id(token);
    if (direct !== undefined) return direct;
    const ids = this.ids(this.tokens(token));
    return ids.length ? ids[ids.length - 1] : undefined;
  }

  configToken(key: string): string | null {
    return tokenString(this.config[key]);
  }

  renderChat(messages: ChatMessage[]): string {
    if (!this.chatTemplate) throw new Error('This tokenizer has no chat template');
    const specials: Record<string, string> = {};
    for (const key of ['bos_token', 'eos_token', 'pad_token', 'unk_token', 'sep_token', 'cls_token']) {
      const value = this.configToken(key);
      if (value !== null) specials[key] = value;
    }
    try {
      return this.chatTemplate.render({ ...specials, messages, add_generation_prompt: false });
    } catch (error) {
      throw new Error(`The chat template failed to render: ${(error as Error).message}`);
    }
  }
}
