// Loads a model folder into a running session with a resolved spec, after proving on two tiny
// inputs that the tokenizer and the graph belong together. Used by inspection and by score jobs.
import type * as ort from 'onnxruntime-node';
import { ArbiterError, invalidInput } from '../base/errors';
import { padBatch } from './batching';
import { probeImageModel } from './imageModel';
import { probeVideoModel } from './videoModel';
import { encodeExample, type ScoringInput } from './inputs';
import { hashModelFolder, readModelFolder, type ModelFolder } from './modelFolder';
import { resolveModel } from './resolveSpec';
import { openSession, runBatch, type OutputTensor } from './session';
import type { ModelDescription, ModelSpec, ProviderReport, ProviderRequest } from './types';

export interface LoadedModel {
  folder: ModelFolder;
  session: ort.InferenceSession;
  report: ProviderReport;
  spec: ModelSpec;
  description: Omit<ModelDescription, 'hash'>;
}

const PROBE: ScoringInput = { prompt: 'What is 2 + 2?', response: 'Add the numbers.\n2 + 2 = 4, so the answer is 4.', steps: null, segmentation: 'lines' };

function checkShape(spec: ModelSpec, out: OutputTensor, width: number): void {
  const shown = `[${out.dims.join(', ')}]`;
  if (spec.kind === 'outcome') {
    const perRow = out.dims.length > 1 ? out.dims[1]! : 1;
    if (out.dims[0] !== 1 || out.dims.length > 2) throw new Error(`For one input, output "${spec.output.name}" has shape ${shown}; expected [1] or [1, classes]`);
    if (spec.output.index >= perRow) throw new Error(`Output "${spec.output.name}" has ${perRow} values per response; index ${spec.output.index} does not exist`);
    return;
  }
  if (out.dims.length !== 3 || out.dims[0] !== 1 || out.dims[1] !== width) {
    throw new Error(`For one input of ${width} tokens, output "${spec.output.name}" has shape ${shown}; a process model must return [1, ${width}, classes]`);
  }
  const classes = out.dims[2]!;
  const score = spec.process!.score;
  const needed = score.type === 'class_probability' ? score.classIndex : Math.max(score.positiveId, score.negativeId);
  if (needed >= classes) throw new Error(`The output has ${classes} values per token; the step score needs index ${needed}`);
}

async function probe(loaded: Omit<LoadedModel, 'description'>): Promise<void> {
  const { spec, session, folder } = loaded;
  const example = encodeExample(spec, folder.tokenizer, PROBE);
  const run = async (ids: number[], typeIds: number[]) => {
    const batch = padBatch([{ ids, typeIds }], spec.inputs, spec.padTokenId, spec.paddingSide);
    checkShape(spec, await runBatch(session, batch, spec.output.name), batch.width);
  };
  const attempt = (ids: number[], typeIds: number[]) =>
    run(ids, typeIds).then(
      () => null,
      (error: unknown) => (error instanceof Error ? error.message : String(error)).split('\n')[0]!,
    );
  const maxId = folder.tokenizer.maxTokenId;
  const mismatch = (why: string) =>
    new Error(`model.onnx rejects token id ${maxId}, which tokenizer.json can produce: the tokenizer does not belong to this model (onnxruntime: ${why})`);
  const exampleError = await attempt(example.ids, example.typeIds);
  if (exampleError !== null) {
    // If the pad token alone runs but the largest id does not, the vocabularies differ: say that.
    const lowError = await attempt([spec.padTokenId], [0]);
    const highError = lowError === null ? await attempt([maxId], [0]) : null;
    if (highError !== null) throw mismatch(highError);
    throw new Error(`model.onnx failed on a tokenized example: ${exampleError}`);
  }
  const highError = await attempt([maxId], [0]);
  if (highError !== null) throw mismatch(highError);
}

/**
 * Reads, opens and checks a folder; every failure is an ArbiterError (invalid_input) whose message
 * says what is missing or mismatched. The caller owns the session (release it when done).
 */
export async function loadModel(dir: string, provider: ProviderRequest, threads?: number): Promise<LoadedModel> {
  try {
    const folder = readModelFolder(dir);
    const { session, report } = await openSession(folder.modelPath, provider, threads ? { threads } : {});
    try {
      const { spec, description } = resolveModel(folder, session);
      if (spec.image?.video) await probeVideoModel(session, spec, folder.tokenizer, (out) => checkShape(spec, out, 1));
      else if (spec.image) await probeImageModel(session, spec, folder.tokenizer, (out) => checkShape(spec, out, 1));
      else await probe({ folder, session, report, spec });
      return { folder, session, report, spec, description };
    } catch (error) {
      await session.release();
      throw error;
    }
  } catch (error) {
    if (error instanceof ArbiterError) throw error;
    throw invalidInput(error instanceof Error ? error.message : String(error));
  }
}

/** What Arbiter finds in a folder, or an Error saying what is missing or mismatched. */
export async function inspectModelFolder(dir: string): Promise<ModelDescription> {
  const loaded = await loadModel(dir, 'cpu');
  await loaded.session.release();
  return { ...loaded.description, hash: await hashModelFolder(loaded.folder.dir) };
}
