// What a judge engine does: one chat request in, the text of one JSON answer out, constrained by a JSON
// schema (a llama.cpp grammar, or an OpenAI-compatible server's response_format) and bounded in tokens
// and time. llama.ts and openai.ts implement it; run.ts checks every answer with zod before storing it.
import type { JsonSchema } from '../../../shared/judgeAnswers';

export interface Sampling {
  temperature: number;
  topK: number;
  topP: number;
  seed: number;
}

export interface JudgeRequest {
  system: string;
  user: string;
  schema: JsonSchema;
  sampling: Sampling;
  maxTokens: number;
  timeoutMs: number;
  /** Cancels the request (the run was cancelled). */
  signal?: AbortSignal;
}

export interface JudgeReply {
  text: string;
  /** Tokens generated. */
  tokens: number;
  /** Why the answer stopped early, when it did: 'maxTokens', 'timeout', 'cancelled'. */
  stopped: 'maxTokens' | 'timeout' | 'cancelled' | null;
}

export interface JudgeEngine {
  kind: 'llama' | 'openai';
  /** The model's name as the results show it (the file's name, or the server's model name). */
  name: string;
  /** The model file's sha256 (llama); the server's address and model (openai), as a server gives no hash. */
  hash: string;
  /** How many requests it serves at once (parallel context sequences, or requests in flight). */
  parallel: number;
  answer(request: JudgeRequest): Promise<JudgeReply>;
  close(): Promise<void>;
}
