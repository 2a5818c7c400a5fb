// The import worker: turns chunks of lines into prepared item rows (parse, validate, hash, stringify)
// while the importing thread writes the previous chunks to SQLite. Started by ./pool.ts; bundled as
// import-worker.mjs beside each bundle that imports.
import { parentPort, workerData } from 'node:worker_threads';
import { imageContext } from '../../images/resolve';
import { chunkLines, PARSERS, prepareLines } from './prepare';
import type { ImportWorkerData, ImportWorkerMessage, PrepareRequest } from './protocol';

const port = parentPort!;
const data = workerData as ImportWorkerData;
const parse = PARSERS[data.format];
const images = imageContext(data.images);
const send = (message: ImportWorkerMessage) => port.postMessage(message);

port.on('message', (request: PrepareRequest) => {
  try {
    send({ type: 'result', id: request.id, result: prepareLines(parse, chunkLines(request.chunk, request.first), request.validateOnly, images) });
  } catch (error) {
    send({ type: 'failed', id: request.id, message: error instanceof Error ? error.message : String(error) });
  }
});
send({ type: 'ready' });
