// Native packages loaded on first use, not at start-up: onnxruntime-node (scoring) and sharp (images)
// cost ~70 ms of CPU and ~200 ms of a busy machine's wall time to load, which `arbiter stats`, `import`
// and the other commands that never score nor decode an image would pay on every run (docs/benchmarks.md).
// Types come from `import type`; values from here.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type * as Ort from 'onnxruntime-node';
import type Sharp from 'sharp';
import { currentModuleFile } from './workers';

let ort: typeof Ort | undefined;
let sharp: typeof Sharp | undefined;

/** This file: its module URL where there is one (sources, the ES module bundle; a worker started from
 * eval code has a global __filename of '[worker eval]'), else the CommonJS bundle's file. */
const here = (): string => (typeof import.meta.url === 'string' && import.meta.url.startsWith('file:') ? fileURLToPath(import.meta.url) : currentModuleFile());
const load = <T>(name: string): T => createRequire(here())(name) as T;

/** onnxruntime-node, loaded the first time it is asked for. */
export const onnxRuntime = (): typeof Ort => (ort ??= load<typeof Ort>('onnxruntime-node'));

/** sharp's function, loaded the first time it is asked for. */
export const sharpModule = (): typeof Sharp => (sharp ??= load<typeof Sharp>('sharp'));
