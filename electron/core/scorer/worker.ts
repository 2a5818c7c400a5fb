// worker_threads entry: runs one score job and reports back. Cancellation arrives through a shared
// flag, because session.run blocks this thread's event loop while a batch runs.
import { parentPort, workerData } from 'node:worker_threads';
import { toErrorShape } from '../base/errors';
import { runScoreJob } from './scoreJob';
import type { ScoreJobOptions } from './types';
import type { WorkerInput, WorkerMessage } from './workerProtocol';

async function main(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('worker.ts must run in a worker thread');
  const { options, cancelFlag } = workerData as WorkerInput;
  const flag = new Int32Array(cancelFlag);
  const post = (message: WorkerMessage) => port.postMessage(message);
  try {
    const result = await runScoreJob(options satisfies ScoreJobOptions, {
      onProgress: (progress) => post({ type: 'progress', progress }),
      isCancelled: () => Atomics.load(flag, 0) !== 0,
    });
    post({ type: 'done', result });
  } catch (error) {
    post({ type: 'error', error: toErrorShape(error) });
  }
}

void main();
