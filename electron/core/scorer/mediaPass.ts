// The score job's pass over a project with a model that reads one medium per response (an image model, a
// video model): each pending response's stored file and its prompt's tokens, gathered in batches. While a
// batch runs, the next batch's files are decoded into one pixel buffer — sharp works on libvips' threads
// and ffmpeg in child processes, while onnxruntime-node's session.run holds this one, so the two overlap. A
// file that cannot be decoded makes its response unscorable with the reason; the job goes on.
// imageJob.ts and videoJob.ts give only how their medium is found, decoded and run.
import { existsSync } from 'node:fs';
import type { ItemRecord } from '../../../shared/domain';
import type { Sequence } from './batching';
import { encodePromptText } from './imageModel';
import { outcomeScores, type ExampleScore } from './readout';
import type { OutputTensor } from './session';
import type { TextTokenizer } from './tokenize';
import type { ModelSpec } from './types';

export interface MediaRow {
  hash: string;
  itemId: number;
  responseIndex: number;
  file: string;
  prompt: Sequence;
  /** How the summary names it, should it get no score. */
  where: string;
}

export interface MediaPassHooks {
  /** The rows still to score (from pass 1); each is deleted from it when taken. */
  pending: Set<string>;
  hashOf(item: ItemRecord, responseIndex: number): string;
  where(item: ItemRecord, responseIndex: number): string;
  /** A response that gets no score and is not written (it is tried again next job). */
  skip(reason: string, where: string): void;
  /** A batch's scores (reward null with noScore: written, with its reason). */
  scored(rows: MediaRow[], scores: ExampleScore[], promptTokens: number): void;
  truncated(): void;
  isCancelled(): boolean;
}

/** What one medium gives the pass: where a response's file is, how it is decoded, how a batch runs. */
export interface Medium<Target extends { sha256: string }, Row extends MediaRow> {
  /** The floats one row takes in the batch's pixel buffer. */
  stride: number;
  /** The response's one file, or why it has none the model can read. */
  target(item: ItemRecord, responseIndex: number): Target | { unscorable: string };
  /** The stored file of a target, and what is said when it is not there. */
  file(target: Target): string;
  missing(file: string): string;
  row(base: MediaRow, target: Target): Row;
  /** Decodes a row into `pixels` at `offset`; resolves to null, or the reason it could not. */
  decode(row: Row, pixels: Float32Array, offset: number): Promise<string | null>;
  run(pixels: Float32Array, prompts: Sequence[]): Promise<OutputTensor>;
}

/** Scores every pending response of the items through `medium`; returns whether it was cancelled. */
export async function scoreMediaPass<Target extends { sha256: string }, Row extends MediaRow>(
  items: Iterable<ItemRecord>,
  spec: ModelSpec,
  tok: TextTokenizer,
  batchSize: number,
  hooks: MediaPassHooks,
  medium: Medium<Target, Row>,
): Promise<boolean> {
  const { stride } = medium;
  const prepare = async (rows: Row[]) => {
    const pixels = new Float32Array(rows.length * stride);
    const results = await Promise.all(rows.map((row, k) => medium.decode(row, pixels, k * stride)));
    const kept: Row[] = [];
    results.forEach((reason, k) => {
      if (reason !== null) {
        hooks.skip(reason, rows[k]!.where);
        return;
      }
      if (kept.length !== k) pixels.copyWithin(kept.length * stride, k * stride, (k + 1) * stride);
      kept.push(rows[k]!);
    });
    return { rows: kept, pixels };
  };
  const run = async ({ rows, pixels }: { rows: Row[]; pixels: Float32Array }) => {
    if (!rows.length) return;
    const out = await medium.run(pixels, rows.map((r) => r.prompt));
    hooks.scored(rows, outcomeScores(spec, out, rows.length), rows.reduce((n, r) => n + r.prompt.ids.length, 0));
  };

  let gathering: Row[] = [];
  let decoding: ReturnType<typeof prepare> | null = null;
  // Starts decoding the gathered rows, then runs the batch decoded before (the two overlap).
  const advance = async () => {
    const next = gathering.length ? prepare(gathering) : null;
    gathering = [];
    if (decoding) await run(await decoding);
    decoding = next;
  };
  const cancelled = async () => {
    if (decoding) await decoding;
    return true;
  };

  for (const item of items) {
    // The prompt's tokens depend on the item only: encoded once, for its first response to score.
    let itemPrompt: ReturnType<typeof encodePromptText> | undefined;
    for (const responseIndex of item.responses.keys()) {
      const hash = hooks.hashOf(item, responseIndex);
      if (!hooks.pending.delete(hash)) continue;
      const where = hooks.where(item, responseIndex);
      const target = medium.target(item, responseIndex);
      if ('unscorable' in target) {
        hooks.skip(target.unscorable, where);
        continue;
      }
      const file = medium.file(target);
      if (!existsSync(file)) {
        hooks.skip(medium.missing(file), where);
        continue;
      }
      const prompt = (itemPrompt ??= encodePromptText(spec, tok, item.prompt));
      if (prompt.truncated) hooks.truncated();
      gathering.push(medium.row({ hash, itemId: item.id, responseIndex, file, prompt, where }, target));
      if (gathering.length >= batchSize) {
        if (hooks.isCancelled()) return cancelled();
        await advance();
      }
    }
  }
  if (hooks.isCancelled()) return cancelled();
  await advance();
  await advance();
  return false;
}
