// onnxruntime sessions: start one on the best provider that works (falling back to CPU and saying
// why), and run a padded batch.
import type * as ort from 'onnxruntime-node';
import { onnxRuntime } from '../base/native';
import type { PaddedBatch } from './batching';
import { availableProviders, providerOrder } from './providers';
import type { ProviderName, ProviderReport, ProviderRequest } from './types';

export interface OpenSessionOptions {
  threads?: number;
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0]!.trim().slice(0, 300);
}

function sessionOptions(provider: ProviderName, options: OpenSessionOptions): ort.InferenceSession.SessionOptions {
  return {
    executionProviders: [provider],
    graphOptimizationLevel: 'all',
    // Errors come back to us as exceptions and are reported in our own words; ORT's log adds noise.
    logSeverityLevel: 4,
    ...(options.threads ? { intraOpNumThreads: options.threads } : {}),
  };
}

/**
 * onnxruntime logs a failed provider start as an error on stderr; Arbiter reports it in its own
 * words instead. ARBITER_ORT_LOG=verbose|info|warning|error brings the native log back for debugging.
 * (Read once, when the first session starts.)
 */
function quietOrtLog(): void {
  const wanted = process.env.ARBITER_ORT_LOG;
  onnxRuntime().env.logLevel = wanted === 'verbose' || wanted === 'info' || wanted === 'warning' || wanted === 'error' ? wanted : 'fatal';
}

/**
 * Starts a session on the first provider of the request's order that starts. A model that does not
 * load on CPU either is broken: that error is thrown, naming the file.
 */
export async function openSession(
  modelPath: string,
  request: ProviderRequest,
  options: OpenSessionOptions = {},
): Promise<{ session: ort.InferenceSession; report: ProviderReport }> {
  quietOrtLog();
  const statuses = new Map(availableProviders().map((s) => [s.name, s]));
  const skipped: ProviderReport['skipped'] = [];
  for (const name of providerOrder(request)) {
    const status = statuses.get(name);
    if (status && !status.available) {
      skipped.push({ name, reason: status.reason });
      continue;
    }
    try {
      const session = await onnxRuntime().InferenceSession.create(modelPath, sessionOptions(name, options));
      return { session, report: { requested: request, used: name, skipped } };
    } catch (error) {
      if (name === 'cpu') throw new Error(`${modelPath} could not be loaded by onnxruntime: ${firstLine(error)}`);
      skipped.push({ name, reason: `failed to start (${firstLine(error)}); fell back` });
    }
  }
  throw new Error('No execution provider could start');
}

/** Human-readable: "cpu (cuda: onnxruntime-node was installed without CUDA binaries …)". */
export function describeReport(report: ProviderReport): string {
  const why = report.skipped.map((s) => `${s.name}: ${s.reason}`).join('; ');
  return why ? `${report.used} (${why})` : report.used;
}

export interface OutputTensor {
  data: Float32Array | Float64Array;
  dims: number[];
}

function halfToFloat(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const frac = h & 0x3ff;
  if (exp === 0) return sign * 2 ** -14 * (frac / 1024);
  if (exp === 31) return frac ? NaN : sign * Infinity;
  return sign * 2 ** (exp - 15) * (1 + frac / 1024);
}

/** Runs a padded batch of tokens; `extra` adds other inputs (an image model's pixel values). */
export async function runBatch(session: ort.InferenceSession, batch: PaddedBatch, outputName: string, extra: Record<string, ort.Tensor> = {}): Promise<OutputTensor> {
  const feeds: Record<string, ort.Tensor> = { ...extra };
  for (const [name, feed] of Object.entries(batch.feeds)) {
    feeds[name] = new (onnxRuntime().Tensor)(feed.dtype, feed.data, [batch.rows, batch.width]);
  }
  const results = await session.run(feeds, [outputName]);
  const out = results[outputName];
  if (!out) throw new Error(`The model did not return output "${outputName}"`);
  const dims = [...out.dims];
  if (out.type === 'float32' || out.type === 'float64') return { data: out.data as Float32Array | Float64Array, dims };
  if (out.type === 'float16') return { data: Float32Array.from(out.data as Uint16Array, halfToFloat), dims };
  throw new Error(`Output "${outputName}" is ${out.type}; a reward must be a float tensor`);
}
