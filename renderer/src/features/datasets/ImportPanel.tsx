// Import a file: pick it (.jsonl, .jsonl.gz, a .json array, .parquet), see the detected format and the
// first records, override the format, choose all-or-nothing or skip-invalid, name the folder that holds
// the images the file names by path (an upload has no folder of its own), import. The file streams to
// the core in pieces as soon as it is picked; every bad line is listed by number and reason.
import { useEffect, useMemo, useRef, useState } from 'react';
import type { PreviewResult } from '../../../../shared/api';
import type { LineError } from '../../../../shared/domain';
import { FORMAT_TITLES, IMPORT_FORMATS, type ImportFormat } from '../../../../shared/formatNames';
import { importNotes } from '../../../../shared/importNotes';
import { IMPORT_FORMAT_TITLES, importedWords } from './datasetWords';
import { api, ApiError, errorMessage, subscribeEvents } from '../../api';
import { isPlainLines, uploadFile, type UploadHandle } from './upload';
import { TextWithImages } from './TextWithImages';
import { FolderImport } from './FolderImport';

const HEAD_BYTES = 256 * 1024;

type ImportResult = Awaited<ReturnType<typeof api.importUpload>>;

function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  if (n < 1024 ** 3) return `${(n / 1024 / 1024).toFixed(1)} MiB`;
  return `${(n / 1024 ** 3).toFixed(2)} GiB`;
}

function clip(text: string, n: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > n ? `${flat.slice(0, n - 1)}…` : flat;
}

function asLineErrors(details: unknown): LineError[] {
  if (!Array.isArray(details)) return [];
  return details.filter((d): d is LineError => typeof d === 'object' && d !== null && typeof (d as LineError).line === 'number');
}

export function ImportPanel({ project, onImported }: { project: string; onImported(): void }) {
  const [file, setFile] = useState<File | null>(null);
  const [format, setFormat] = useState<'auto' | ImportFormat>('auto');
  const [skipInvalid, setSkipInvalid] = useState(false);
  const [imagesDir, setImagesDir] = useState('');
  const [preview, setPreview] = useState<PreviewResult | null>(null);
  const [previewError, setPreviewError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'preview' | 'import' | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [failure, setFailure] = useState<{ message: string; lines: LineError[] } | null>(null);
  const [linesRead, setLinesRead] = useState<number | null>(null);
  const [importJob, setImportJob] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const upload = useRef<UploadHandle | null>(null);
  const [uploadId, setUploadId] = useState<string | null>(null);
  const [sent, setSent] = useState(0);
  const [uploadError, setUploadError] = useState<string | null>(null);

  // The file streams to the core as soon as it is picked; the import starts from what arrived.
  useEffect(() => {
    if (!file) return;
    const handle = uploadFile(file, setSent);
    upload.current = handle;
    setUploadId(null);
    setSent(0);
    setUploadError(null);
    handle.done.then(
      (id) => {
        if (upload.current === handle) setUploadId(id);
      },
      (e: unknown) => {
        if (upload.current === handle && !(e instanceof Error && e.message === 'aborted')) setUploadError(errorMessage(e));
      },
    );
    return () => handle.abort();
  }, [file]);

  // Preview the head of the file whenever the file or the format override changes: JSON Lines at once
  // from its first bytes, other kinds (compressed, arrays, parquet) once they have arrived. Only those
  // wait for the upload: a JSON Lines preview is not read again when its upload completes.
  const uploadToPreview = file && !isPlainLines(file.name) ? uploadId : null;
  useEffect(() => {
    if (!file) return;
    const plain = isPlainLines(file.name);
    if (!plain && !uploadToPreview) return;
    let cancelled = false;
    setBusy('preview');
    setPreviewError(null);
    (async () => {
      if (!plain) return api.previewUpload({ uploadId: uploadToPreview!, format });
      let head = await file.slice(0, HEAD_BYTES).text();
      // Cut at the last full line so a line split by the cut does not look broken.
      if (file.size > HEAD_BYTES && head.lastIndexOf('\n') > 0) head = head.slice(0, head.lastIndexOf('\n') + 1);
      return api.previewImport({ fileName: file.name, head, format });
    })()
      .then((p) => {
        if (!cancelled) setPreview(p);
      })
      .catch((e) => {
        if (!cancelled) {
          setPreview(null);
          setPreviewError(errorMessage(e));
        }
      })
      .finally(() => {
        if (!cancelled) setBusy(null);
      });
    return () => {
      cancelled = true;
    };
  }, [file, format, uploadToPreview]);

  const rejectsUrl = useMemo(
    () => (result?.rejects ? URL.createObjectURL(new Blob([result.rejects], { type: 'application/x-ndjson' })) : null),
    [result],
  );
  useEffect(() => () => {
    if (rejectsUrl) URL.revokeObjectURL(rejectsUrl);
  }, [rejectsUrl]);

  const pick = (f: File | null) => {
    setFile(f);
    setPreview(null);
    setResult(null);
    setFailure(null);
    setFormat('auto');
  };

  const runImport = async () => {
    if (!file) return;
    setBusy('import');
    setResult(null);
    setFailure(null);
    setLinesRead(null);
    setImportJob(null);
    const unsubscribe = subscribeEvents((event) => {
      if (event.type === 'import' && event.project === project && typeof event.linesRead === 'number') setLinesRead(event.linesRead);
      // The import runs as a job on the host: its id lets Cancel stop it.
      const job = event.type === 'job' ? (event.job as { id?: string; kind?: string; project?: string; state?: string } | undefined) : undefined;
      if (job?.kind === 'import' && job.project === project && typeof job.id === 'string') setImportJob(job.state === 'running' ? job.id : null);
    });
    try {
      const id = await upload.current!.done;
      const folder = imagesDir.trim();
      const summary = await api.importUpload({ uploadId: id, project, format, skipInvalid, ...(folder ? { imagesDir: folder } : {}) });
      // The host has dropped the file it imported; a failed import keeps it, to try again (skip invalid).
      upload.current = null;
      setResult(summary);
      onImported();
    } catch (e) {
      const lines = e instanceof ApiError ? asLineErrors(e.details) : [];
      setFailure({ message: errorMessage(e), lines });
    } finally {
      unsubscribe();
      setImportJob(null);
      setBusy(null);
    }
  };

  const cancelImport = () => {
    if (importJob) api.cancelJob({ jobId: importJob }).catch(() => undefined);
  };

  const uploading = file !== null && uploadId === null && uploadError === null && !result && !failure && busy !== 'import';
  const detectedTitle = preview?.detected ? (FORMAT_TITLES[preview.detected] ?? preview.detected) : null;
  const baseName = file?.name.replace(/\.jsonl?$/i, '') ?? 'import';

  return (
    <section className="flex flex-col gap-3 rounded-md border border-line bg-surface p-4" data-testid="import-panel">
      <div className="flex items-baseline justify-between">
        <h2 className="text-[14px] font-semibold">Import a file</h2>
        <span className="text-[12px] text-faint">into “{project}”</span>
      </div>

      <div className="flex flex-wrap items-center gap-3">
        <input
          ref={inputRef}
          type="file"
          accept=".jsonl,.ndjson,.json,.gz,.parquet,.traj,.csv,application/x-ndjson,application/json,application/gzip,text/plain,text/csv"
          className="sr-only"
          // The button below is the one control people reach: the hidden input is no second, invisible tab stop.
          tabIndex={-1}
          aria-hidden
          id="import-file"
          onChange={(e) => pick(e.target.files?.[0] ?? null)}
          data-testid="import-file"
        />
        <button
          type="button"
          onClick={() => inputRef.current?.click()}
          className="flex h-8 items-center rounded-md border border-line-strong bg-surface px-3 text-[13px] font-medium hover:bg-surface-2"
          data-testid="import-choose"
        >
          Choose file…
        </button>
        {file ? (
          <span className="text-[13px]" data-testid="import-file-name">
            <span className="font-medium">{file.name}</span> <span className="text-faint">· {formatBytes(file.size)}</span>
            {uploading && file.size > 0 && (
              <span className="text-faint" data-testid="import-upload-progress">
                {' '}
                · reading {Math.floor((sent / file.size) * 100)}%
              </span>
            )}
          </span>
        ) : (
          <span className="text-[13px] text-faint">
            Any of{' '}
            <span className="underline decoration-dotted underline-offset-2" title={IMPORT_FORMAT_TITLES.join('\n')} data-testid="import-formats">
              {IMPORT_FORMAT_TITLES.length} formats
            </span>{' '}
            (TRL, HH-RLHF, RewardBench, UltraFeedback, HelpSteer, PRM800K, Math-Shepherd, ProcessBench, Rubrics-as-Rewards, agent trajectories from OpenAI tool calls, SWE-agent, OpenHands and τ-bench, web agents’ screenshots and actions from Mind2Web and Online-Mind2Web, Arbiter…), detected from the first records — .jsonl, .jsonl.gz, a .json array, .parquet, a .csv (VideoAlign pairs) or a .traj.
          </span>
        )}
      </div>

      {file && (
        <>
          <div className="rounded-md border border-line bg-bg px-3 py-2 text-[13px]" data-testid="import-detected">
            {uploadError ? (
              <span className="text-bad">The file could not be read in: {uploadError}</span>
            ) : busy === 'preview' || (!preview && !previewError) ? (
              <span className="text-muted">Reading the first records…</span>
            ) : previewError ? (
              <span className="text-bad">{previewError}</span>
            ) : preview ? (
              <>
                <div>
                  {preview.detected ? (
                    <>
                      Detected <b className="font-semibold">{detectedTitle}</b> <span className="font-mono text-[12px] text-faint">({preview.detected})</span>
                    </>
                  ) : (
                    <b className="font-semibold text-bad">Format not recognised</b>
                  )}
                  {format !== 'auto' && format !== preview.detected && (
                    <span className="text-muted">
                      {' '}
                      — reading as <b className="font-medium text-fg">{FORMAT_TITLES[format] ?? format}</b> (your choice)
                    </span>
                  )}
                </div>
                <div className="mt-0.5 text-muted" data-testid="import-reason">
                  {preview.reason}
                </div>
              </>
            ) : null}
          </div>

          <label className="flex flex-wrap items-center gap-2 text-[13px]" title="Where the images and videos are that the file names by relative path (an uploaded file has no folder of its own). Not needed for images inside the file.">
            <span className="text-muted">Images and videos folder (for paths in the file)</span>
            <input
              type="text"
              value={imagesDir}
              onChange={(e) => setImagesDir(e.target.value)}
              placeholder="a folder on this computer, such as /data/vlfeedback"
              spellCheck={false}
              className="h-8 min-w-64 flex-1 rounded-md border border-line-strong bg-surface px-2 font-mono text-[12px]"
              data-testid="import-images-dir"
            />
          </label>

          <div className="flex flex-wrap items-center gap-4 text-[13px]">
            <label className="flex items-center gap-2">
              <span className="text-muted">Format</span>
              <select
                value={format}
                onChange={(e) => setFormat(e.target.value as 'auto' | ImportFormat)}
                className="h-8 rounded-md border border-line-strong bg-surface px-2 text-[13px]"
                data-testid="import-format"
              >
                <option value="auto">Detect automatically{preview?.detected ? ` (${preview.detected})` : ''}</option>
                {IMPORT_FORMATS.map((f) => (
                  <option key={f} value={f}>
                    {FORMAT_TITLES[f] ?? f}
                  </option>
                ))}
              </select>
            </label>
            <label className="flex items-center gap-2" title="Import the valid lines and offer the rejected ones as a download">
              <input type="checkbox" checked={skipInvalid} onChange={(e) => setSkipInvalid(e.target.checked)} data-testid="import-skip-invalid" />
              Skip invalid lines
            </label>
            <button
              onClick={runImport}
              disabled={busy !== null || uploadError !== null || upload.current === null}
              className="ml-auto h-8 rounded-md bg-accent px-4 text-[13px] font-medium text-white disabled:opacity-50 dark:text-[#111]"
              data-testid="import-button"
            >
              {busy === 'import' ? (linesRead ? `Importing… ${linesRead.toLocaleString()} lines` : 'Importing…') : 'Import'}
            </button>
            {busy === 'import' && importJob && (
              <button onClick={cancelImport} className="h-8 rounded-md border border-line px-3 text-[13px]" data-testid="import-cancel">
                Cancel
              </button>
            )}
          </div>

          {preview && preview.records.length > 0 && (
            <div className="overflow-hidden rounded-md border border-line" data-testid="import-preview">
              <div className="border-b border-line bg-surface-2 px-3 py-1.5 text-[12px] text-muted">
                First {preview.records.length} record{preview.records.length === 1 ? '' : 's'} of {preview.linesRead.toLocaleString()} line
                {preview.linesRead === 1 ? '' : 's'} read
              </div>
              <table className="w-full table-fixed text-[12.5px]">
                <thead className="text-left text-[11px] tracking-wide text-faint uppercase">
                  <tr className="border-b border-line">
                    <th className="w-14 px-3 py-1.5 font-semibold">Line</th>
                    <th className="px-3 py-1.5 font-semibold">Prompt</th>
                    <th className="px-3 py-1.5 font-semibold">Response A</th>
                    <th className="px-3 py-1.5 font-semibold">Response B</th>
                    <th className="w-20 px-3 py-1.5 font-semibold">File says</th>
                  </tr>
                </thead>
                <tbody>
                  {preview.records.slice(0, 6).map((r) => (
                    <tr key={r.line} className="border-b border-line align-top last:border-b-0">
                      <td className="px-3 py-1.5 tabular-nums text-faint">{r.line}</td>
                      <td className="px-3 py-1.5">
                        <TextWithImages text={r.prompt} show={(t) => clip(t, 140)} />
                      </td>
                      <td className="px-3 py-1.5 text-muted">
                        <TextWithImages text={r.responses[0] ?? ''} show={(t) => clip(t, 110)} />
                      </td>
                      <td className="px-3 py-1.5 text-muted">
                        <TextWithImages text={r.responses[1] ?? ''} show={(t) => clip(t, 110)} />
                        {r.responses.length > 2 && <span className="text-faint"> (+{r.responses.length - 2} more)</span>}
                      </td>
                      <td className="px-3 py-1.5">{r.choice ?? <span className="text-faint">—</span>}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}

          {preview && preview.errors.length > 0 && !failure && (
            <LineErrors
              title={`${preview.errors.length} problem${preview.errors.length === 1 ? '' : 's'} in the first lines`}
              hint={skipInvalid ? 'These lines will be skipped and offered as a download.' : 'Import stops on any invalid line unless you tick “Skip invalid lines”.'}
              lines={preview.errors}
              file={file.name}
              tone="warn"
            />
          )}
        </>
      )}

      {failure && (
        <div className="flex flex-col gap-2" data-testid="import-failure" role="alert">
          <div className="rounded-md border border-bad/50 bg-bad-soft px-3 py-2 text-[13px]">
            <b className="font-semibold text-bad">Nothing was imported.</b>{' '}
            {failure.lines.length > 0 ? (
              <>
                {failure.lines.length} line{failure.lines.length === 1 ? '' : 's'} of {file?.name} {failure.lines.length === 1 ? 'is' : 'are'} invalid.{' '}
                <span className="text-muted">Fix {failure.lines.length === 1 ? 'it' : 'them'}, or tick “Skip invalid lines” to import the rest and download the rejects.</span>
              </>
            ) : (
              failure.message
            )}
          </div>
          {failure.lines.length > 0 && (
            <LineErrors title={`${failure.lines.length} invalid line${failure.lines.length === 1 ? '' : 's'}`} lines={failure.lines} file={file?.name ?? ''} tone="bad" />
          )}
        </div>
      )}

      {result && (
        <div className="flex flex-col gap-2" data-testid="import-result">
          <div className="rounded-md border border-ok/40 bg-surface-2 px-3 py-2 text-[13px]">
            <b className="font-semibold text-ok">Imported {result.items.toLocaleString()} new item{result.items === 1 ? '' : 's'}</b> from {result.file} as{' '}
            <span className="font-mono text-[12px]">{result.format}</span>: {importedWords(result)}.
            {importNotes(result).map((note) => (
              <div key={note} className="mt-1 text-muted" data-testid="import-note">
                {note}
              </div>
            ))}
          </div>
          {result.errors.length > 0 && <LineErrors title={`${result.errors.length} line${result.errors.length === 1 ? '' : 's'} skipped`} lines={result.errors} file={result.file} tone="warn" />}
          {rejectsUrl && (
            <a href={rejectsUrl} download={`${baseName}.rejects.jsonl`} className="self-start text-[13px] font-medium text-accent underline" data-testid="rejects-download">
              Download the {result.rejected.toLocaleString()} rejected line{result.rejected === 1 ? '' : 's'} ({baseName}.rejects.jsonl)
            </a>
          )}
        </div>
      )}
      <FolderImport project={project} onImported={onImported} />
    </section>
  );
}

function LineErrors({ title, hint, lines, file, tone }: { title: string; hint?: string; lines: LineError[]; file: string; tone: 'bad' | 'warn' }) {
  return (
    <div className={`overflow-hidden rounded-md border ${tone === 'bad' ? 'border-bad/50' : 'border-line-strong'}`} data-testid="line-errors">
      <div className="border-b border-line bg-surface-2 px-3 py-1.5 text-[12px]">
        <b className={`font-semibold ${tone === 'bad' ? 'text-bad' : ''}`}>{title}</b>
        {hint && <span className="text-muted"> — {hint}</span>}
      </div>
      <ol className="max-h-64 overflow-auto py-1 font-mono text-[12px]">
        {lines.map((e, i) => (
          <li key={`${e.line}-${i}`} className="flex gap-3 px-3 py-0.5" data-testid="line-error" data-line={e.line}>
            <span className="shrink-0 text-faint">
              {file}:{e.line}
            </span>
            <span className="min-w-0 break-words">{e.reason}</span>
          </li>
        ))}
      </ol>
    </div>
  );
}
