// Reads a model folder (as an ONNX export of a Hugging Face model lays it out) and hashes it.
// Nothing here touches onnxruntime: a folder that is missing files fails before a model is loaded.
import { createHash } from 'node:crypto';
import { createReadStream, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { parseManifest, type FileSignature, type Manifest } from '../base/modelManifest';
import { TextTokenizer } from './tokenize';

export const MODEL_FILE = 'model.onnx';
export const TOKENIZER_FILE = 'tokenizer.json';
export const TOKENIZER_CONFIG_FILE = 'tokenizer_config.json';
export const CONFIG_FILE = 'config.json';
export const MANIFEST_FILE = 'arbiter-model.json';
/** Image models: how an image becomes pixel values, as Hugging Face image processors write it. */
export const PREPROCESSOR_FILE = 'preprocessor_config.json';

type Json = Record<string, unknown>;

export interface ModelFolder {
  dir: string;
  modelPath: string;
  tokenizer: TextTokenizer;
  tokenizerJson: Json;
  tokenizerConfig: Json;
  config: Json;
  manifest: Manifest | null;
  /** preprocessor_config.json (image models), as the file holds it; null when there is none. */
  preprocessor: Json | null;
  /** The files that define the model's behaviour, with size and mtime, to notice later changes cheaply. */
  files: FileSignature[];
}

function readJsonObject(dir: string, name: string): Json {
  const text = readFileSync(join(dir, name), 'utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    // V8's message quotes the text around the fault: say where, not what the file holds.
    const position = /position (\d+)/.exec((error as Error).message)?.[1];
    throw new Error(`${name} in ${dir} is not valid JSON${position ? ` (at character ${position})` : ''}`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error(`${name} in ${dir} must hold a JSON object`);
  return value as Json;
}

/** model.onnx, its external weight files (large exports split them out), and the JSON files. */
function behaviourFiles(dir: string, names: string[]): string[] {
  const fixed = [MODEL_FILE, TOKENIZER_FILE, TOKENIZER_CONFIG_FILE, CONFIG_FILE, MANIFEST_FILE, PREPROCESSOR_FILE];
  const weights = names.filter((n) => /\.onnx[._]data$/.test(n)).sort();
  return [...fixed.filter((n) => names.includes(n)), ...weights];
}

export function fileSignatures(dir: string): FileSignature[] {
  const names = readdirSync(dir);
  return behaviourFiles(dir, names).map((name) => {
    const stat = statSync(join(dir, name));
    return { name, size: stat.size, mtimeMs: Math.trunc(stat.mtimeMs) };
  });
}

export function readModelFolder(dirInput: string): ModelFolder {
  const dir = resolve(dirInput);
  let names: string[];
  try {
    if (!statSync(dir).isDirectory()) throw new Error('not a folder');
    names = readdirSync(dir);
  } catch {
    throw new Error(`Arbiter cannot read the model folder ${dir}: it is missing or not a folder`);
  }
  const missing = [MODEL_FILE, TOKENIZER_FILE].filter((n) => !names.includes(n));
  if (missing.length) {
    // Only what is missing: the folder's other files are none of the caller's business (the API may be
    // asked about any folder, and its answer must not list it).
    throw new Error(
      `${dir} is not a model folder: ${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} missing. ` +
        'Arbiter reads an ONNX export of a Hugging Face model: model.onnx + tokenizer.json (+ tokenizer_config.json, config.json); see docs/models.md.',
    );
  }
  const tokenizerJson = readJsonObject(dir, TOKENIZER_FILE);
  const tokenizerConfig = names.includes(TOKENIZER_CONFIG_FILE) ? readJsonObject(dir, TOKENIZER_CONFIG_FILE) : {};
  const config = names.includes(CONFIG_FILE) ? readJsonObject(dir, CONFIG_FILE) : {};
  const manifest = names.includes(MANIFEST_FILE) ? parseManifest(readFileSync(join(dir, MANIFEST_FILE), 'utf8')) : null;
  const preprocessor = names.includes(PREPROCESSOR_FILE) ? readJsonObject(dir, PREPROCESSOR_FILE) : null;
  let tokenizer: TextTokenizer;
  try {
    tokenizer = new TextTokenizer(tokenizerJson, tokenizerConfig);
  } catch (error) {
    throw new Error(`tokenizer.json in ${dir} could not be loaded: ${(error as Error).message}`);
  }
  return { dir, modelPath: join(dir, MODEL_FILE), tokenizer, tokenizerJson, tokenizerConfig, config, manifest, preprocessor, files: fileSignatures(dir) };
}

/** sha256 over each behaviour file's name and bytes, streamed (model files can be gigabytes). */
export async function hashModelFolder(dir: string): Promise<string> {
  const total = createHash('sha256');
  for (const name of behaviourFiles(dir, readdirSync(dir))) {
    const fileHash = createHash('sha256');
    for await (const chunk of createReadStream(join(dir, name))) fileHash.update(chunk as Buffer);
    total.update(`${name}\0${fileHash.digest('hex')}\n`);
  }
  return total.digest('hex');
}

export function defaultModelName(folder: ModelFolder): string {
  if (folder.manifest?.name) return folder.manifest.name;
  const fromConfig = folder.config._name_or_path;
  if (typeof fromConfig === 'string' && fromConfig.trim()) return basename(fromConfig.trim());
  return basename(folder.dir);
}
