// Streams a picked file to the core in pieces (never one string in memory): startUpload, then one
// uploadChunk per 4 MiB, each base64-encoded by the browser's own FileReader.
import { UPLOAD_CHUNK_BYTES } from '../../../../shared/api';
import { api } from '../../api';

function base64Of(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = reader.result as string;
      resolve(url.slice(url.indexOf(',') + 1));
    };
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'));
    reader.readAsDataURL(blob);
  });
}

export interface UploadHandle {
  /** Resolves with the upload's id once every byte is on the host's side. */
  done: Promise<string>;
  /** Stops sending and lets the host drop what it has. */
  abort(): void;
}

export function uploadFile(file: File, onProgress: (sent: number) => void): UploadHandle {
  let aborted = false;
  let id: string | null = null;
  const done = (async () => {
    const { uploadId } = await api.startUpload({ fileName: file.name, size: file.size });
    id = uploadId;
    for (let offset = 0; offset < file.size; offset += UPLOAD_CHUNK_BYTES) {
      if (aborted) throw new Error('aborted');
      const data = await base64Of(file.slice(offset, offset + UPLOAD_CHUNK_BYTES));
      const { received } = await api.uploadChunk({ uploadId, offset, data });
      onProgress(received);
    }
    onProgress(file.size);
    return uploadId;
  })();
  return {
    done,
    abort() {
      aborted = true;
      if (id) void api.discardUpload({ uploadId: id }).catch(() => undefined);
    },
  };
}

/** Files whose first bytes are already their first records: previewed at once, before the upload ends. */
export function isPlainLines(fileName: string): boolean {
  return /\.(jsonl|ndjson|txt)$/i.test(fileName);
}
