// Builds an API client from the contract for either transport. The renderer picks one at start-up:
// Electron's preload bridge when present, otherwise HTTP to the browser host with its launch token.
import { API_NAMES, type ApiErrorShape, type ApiName, type ArbiterApi } from './api';

export class ApiError extends Error {
  constructor(
    readonly code: ApiErrorShape['code'],
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export type Invoke = (name: ApiName, input: unknown) => Promise<unknown>;

export function createClient(invoke: Invoke): ArbiterApi {
  const client = {} as Record<ApiName, (input: unknown) => Promise<unknown>>;
  for (const name of API_NAMES) client[name] = (input: unknown) => invoke(name, input ?? {});
  return client as unknown as ArbiterApi;
}

/** The HTTP transport: POST /api/<name> with the per-launch token. */
export function httpInvoke(baseUrl: string, token: string, fetchImpl: typeof fetch = fetch): Invoke {
  return async (name, input) => {
    const response = await fetchImpl(`${baseUrl}/api/${name}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-arbiter-token': token },
      body: JSON.stringify(input),
    });
    const body = (await response.json().catch(() => null)) as { ok: boolean; result?: unknown; error?: ApiErrorShape } | null;
    if (!body) throw new ApiError('internal', `The host answered ${response.status} without a readable body.`);
    if (!body.ok) throw new ApiError(body.error?.code ?? 'internal', body.error?.message ?? 'Unknown error', body.error?.details);
    return body.result;
  };
}

/** Electron IPC results arrive as {ok, result|error} envelopes so errors keep their code. */
export function unwrapEnvelope(envelope: unknown): unknown {
  const body = envelope as { ok: boolean; result?: unknown; error?: ApiErrorShape };
  if (!body.ok) throw new ApiError(body.error?.code ?? 'internal', body.error?.message ?? 'Unknown error', body.error?.details);
  return body.result;
}
