// The local engine: a GGUF model run through node-llama-cpp's prebuilt llama.cpp binaries. Nothing is
// compiled or downloaded (build: 'never'; the package's postinstall is denied in package.json). CPU by
// default; ARBITER_JUDGE_GPU=auto|cuda|vulkan|metal opts in to a GPU build the platform packages ship
// (docs/models.md). One context holds `parallel` sequences, so that many answers are decoded in one
// batch; the chat template is the one in the GGUF (node-llama-cpp resolves it from tokenizer.chat_template).
import { createHash } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';
import { basename } from 'node:path';
import type { Llama, LlamaContext, LlamaContextSequence, LlamaGrammar, LlamaModel } from 'node-llama-cpp';
import type { JudgeEngine, JudgeReply, JudgeRequest } from './engine';

type GpuChoice = false | 'auto' | 'cuda' | 'vulkan' | 'metal';

/** The GPU the environment asks for; CPU when it says nothing (tests always run on CPU). */
export function gpuChoice(env: NodeJS.ProcessEnv = process.env): GpuChoice {
  const value = (env.ARBITER_JUDGE_GPU ?? '').trim().toLowerCase();
  return value === 'auto' || value === 'cuda' || value === 'vulkan' || value === 'metal' ? value : false;
}

const llamas = new Map<string, Promise<Llama>>();

/** The llama.cpp binding, loaded once per GPU choice, from the prebuilt binaries only. */
export function loadLlama(gpu: GpuChoice = gpuChoice()): Promise<Llama> {
  const key = String(gpu);
  let llama = llamas.get(key);
  if (!llama) {
    llama = import('node-llama-cpp').then(({ getLlama, LlamaLogLevel }) => getLlama({ gpu, build: 'never', logLevel: LlamaLogLevel.error, progressLogs: false }));
    llama.catch(() => llamas.delete(key));
    llamas.set(key, llama);
  }
  return llama;
}

const hashes = new Map<string, { size: number; mtimeMs: number; hash: string }>();

/** The file's sha256, remembered per (path, size, mtime) so a multi-gigabyte model is hashed once. */
export async function fileSha256(path: string): Promise<string> {
  const stat = statSync(path);
  const known = hashes.get(path);
  if (known && known.size === stat.size && known.mtimeMs === stat.mtimeMs) return known.hash;
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  const hex = hash.digest('hex');
  hashes.set(path, { size: stat.size, mtimeMs: stat.mtimeMs, hash: hex });
  return hex;
}

export interface LlamaEngineOptions {
  modelPath: string;
  parallel: number;
  /** Tokens per sequence (prompt + answer). */
  contextSize?: number;
  threads?: number;
}

/** Tokens the chat template may add around the system and user messages. */
const CHAT_TEMPLATE_ROOM = 64;

class SequencePool {
  private readonly waiting: ((sequence: LlamaContextSequence) => void)[] = [];
  constructor(private readonly free: LlamaContextSequence[]) {}
  async take(): Promise<LlamaContextSequence> {
    const sequence = this.free.pop();
    if (sequence) return sequence;
    return new Promise((resolve) => this.waiting.push(resolve));
  }
  give(sequence: LlamaContextSequence): void {
    const next = this.waiting.shift();
    if (next) next(sequence);
    else this.free.push(sequence);
  }
}

export async function openLlamaEngine(options: LlamaEngineOptions): Promise<JudgeEngine> {
  const [llama, hash, nlc] = await Promise.all([loadLlama(), fileSha256(options.modelPath), import('node-llama-cpp')]);
  const model: LlamaModel = await llama.loadModel({ modelPath: options.modelPath });
  const parallel = Math.max(1, options.parallel);
  const perSequence = Math.min(options.contextSize ?? 8192, model.trainContextSize);
  const context: LlamaContext = await model.createContext({ sequences: parallel, contextSize: perSequence * parallel, threads: options.threads });
  const pool = new SequencePool(Array.from({ length: parallel }, () => context.getSequence()));
  const grammars = new Map<string, Promise<LlamaGrammar>>();
  const grammarFor = (schema: object): Promise<LlamaGrammar> => {
    const key = JSON.stringify(schema);
    let grammar = grammars.get(key);
    if (!grammar) {
      grammar = llama.createGrammarForJsonSchema(schema as Parameters<Llama['createGrammarForJsonSchema']>[0]) as Promise<LlamaGrammar>;
      grammars.set(key, grammar);
    }
    return grammar;
  };

  return {
    kind: 'llama',
    name: basename(options.modelPath),
    hash,
    parallel,
    async answer(request: JudgeRequest): Promise<JudgeReply> {
      const grammar = await grammarFor(request.schema);
      const sequence = await pool.take();
      const timeout = AbortSignal.timeout(request.timeoutMs);
      const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
      let tokens = 0;
      try {
        await sequence.clearHistory();
        const session = new nlc.LlamaChatSession({ contextSequence: sequence, systemPrompt: request.system, autoDisposeSequence: false });
        try {
          // The prompt and the answer must fit the sequence: no context shift may drop part of the item.
          const room = perSequence - model.tokenize(`${request.system}\n${request.user}`, true).length - CHAT_TEMPLATE_ROOM;
          if (room < 32) throw new Error(`the item is too long for the judge's context (${perSequence} tokens)`);
          const meta = await session.promptWithMeta(request.user, {
            grammar,
            maxTokens: Math.min(request.maxTokens, room),
            temperature: request.sampling.temperature,
            topK: request.sampling.topK,
            topP: request.sampling.topP,
            seed: request.sampling.seed,
            signal,
            stopOnAbortSignal: true,
            onToken: (chunk) => {
              tokens += chunk.length;
            },
          });
          const stopped = meta.stopReason === 'maxTokens' ? 'maxTokens' : meta.stopReason === 'abort' ? (request.signal?.aborted ? 'cancelled' : 'timeout') : null;
          return { text: meta.responseText, tokens, stopped };
        } finally {
          session.dispose({ disposeSequence: false });
        }
      } finally {
        pool.give(sequence);
      }
    },
    async close() {
      await context.dispose();
      await model.dispose();
    },
  };
}
