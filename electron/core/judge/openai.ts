// The optional server engine: an OpenAI-compatible chat endpoint (vLLM, llama.cpp's server, Ollama) the
// user set for the project, never a default. The answer is constrained by the same JSON schema, sent as
// `response_format: {type: 'json_schema'}` (strict: false: strict servers refuse keywords such as maxLength,
// and what a server ignores, zod refuses); the reply is bounded in bytes and time, and its text goes
// through the same zod check as a local answer. The key is sent only to the address it was set with.
import type { JudgeEngine, JudgeReply, JudgeRequest } from './engine';

/** The most bytes of one reply read from the server. */
export const SERVER_REPLY_MAX = 1 << 20;

export interface ServerEngineOptions {
  baseUrl: string;
  apiKey: string;
  model: string;
  parallel: number;
}

async function readBounded(response: Response, max: number): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > max) {
      await reader.cancel();
      throw new Error(`the server's reply is larger than ${max} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The chat completions address under a base URL (".../v1" or the server's root). */
export function completionsUrl(baseUrl: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  return /\/v\d+$/.test(base) ? `${base}/chat/completions` : `${base}/v1/chat/completions`;
}

export function openServerEngine(options: ServerEngineOptions): JudgeEngine {
  const url = completionsUrl(options.baseUrl);
  return {
    kind: 'openai',
    name: options.model,
    hash: `${new URL(url).host}/${options.model}`,
    parallel: Math.max(1, options.parallel),
    async answer(request: JudgeRequest): Promise<JudgeReply> {
      const timeout = AbortSignal.timeout(request.timeoutMs);
      const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
      const body = {
        model: options.model,
        messages: [...(request.system ? [{ role: 'system', content: request.system }] : []), { role: 'user', content: request.user }],
        temperature: request.sampling.temperature,
        top_p: request.sampling.topP,
        seed: request.sampling.seed,
        max_tokens: request.maxTokens,
        response_format: { type: 'json_schema', json_schema: { name: 'judgement', strict: false, schema: request.schema } },
      };
      let response: Response;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}) },
          body: JSON.stringify(body),
          signal,
          redirect: 'error',
        });
      } catch (error) {
        if (signal.aborted) return { text: '', tokens: 0, stopped: request.signal?.aborted ? 'cancelled' : 'timeout' };
        throw new Error(`the server at ${new URL(url).host} did not answer: ${(error as Error).message}`);
      }
      const text = await readBounded(response, SERVER_REPLY_MAX);
      if (!response.ok) throw new Error(`the server answered HTTP ${response.status}`);
      let reply: { choices?: { message?: { content?: unknown }; finish_reason?: unknown }[]; usage?: { completion_tokens?: unknown } };
      try {
        reply = JSON.parse(text) as typeof reply;
      } catch {
        throw new Error('the server answered with something that is not JSON');
      }
      const choice = reply.choices?.[0];
      const content = choice?.message?.content;
      if (typeof content !== 'string') throw new Error('the server answered without a message');
      const tokens = typeof reply.usage?.completion_tokens === 'number' ? reply.usage.completion_tokens : 0;
      return { text: content, tokens, stopped: choice?.finish_reason === 'length' ? 'maxTokens' : null };
    },
    async close() {},
  };
}
