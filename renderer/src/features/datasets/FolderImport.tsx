// Import a dataset that is a folder rather than a file (a LeRobot dataset: meta/info.json, Parquet files
// and each camera's videos): a folder cannot be picked as one upload, so its full path on this computer is
// typed, as the images folder is. The host reads it where it is (api importFolder) and says what came in.
import { useState } from 'react';
import { api, errorMessage } from '../../api';
import { importedWords } from './datasetWords';

type Imported = Awaited<ReturnType<typeof api.importFolder>>;

export function FolderImport({ project, onImported }: { project: string; onImported(): void }) {
  const [path, setPath] = useState('');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Imported | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const run = async () => {
    if (!path.trim()) return;
    setBusy(true);
    setResult(null);
    setFailure(null);
    try {
      setResult(await api.importFolder({ project, path: path.trim() }));
      onImported();
    } catch (e) {
      setFailure(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="flex flex-col gap-2 border-t border-line pt-3">
      <form
        className="flex flex-wrap items-center gap-2 text-[13px]"
        onSubmit={(e) => {
          e.preventDefault();
          void run();
        }}
      >
        <span className="text-muted" title="A dataset kept as a folder: a LeRobot dataset (meta/info.json, data/…parquet, videos/…mp4). It is read where it is; nothing is written into it.">
          Or a dataset folder (LeRobot)
        </span>
        <input
          value={path}
          onChange={(e) => setPath(e.target.value)}
          placeholder="its full path, such as /data/so101_pick"
          spellCheck={false}
          className="h-8 min-w-[280px] flex-1 rounded-md border border-line bg-bg px-2 font-mono text-[12px]"
          data-testid="import-folder-path"
        />
        <button type="submit" disabled={busy || !path.trim()} className="h-8 rounded-md border border-line-strong bg-surface px-3 font-medium hover:bg-surface-2 disabled:opacity-50" data-testid="import-folder-button">
          {busy ? 'Importing…' : 'Import folder'}
        </button>
      </form>
      {failure && (
        <div className="rounded-md border border-bad/50 bg-bad-soft px-3 py-2 text-[13px]" role="alert" data-testid="import-folder-failure">
          {failure}
        </div>
      )}
      {result && (
        <div className="rounded-md border border-ok/40 bg-surface-2 px-3 py-2 text-[13px]" data-testid="import-folder-result">
          <b className="font-semibold text-ok">
            Imported {result.items.toLocaleString()} new item{result.items === 1 ? '' : 's'}
          </b>{' '}
          from {result.file} as <span className="font-mono text-[12px]">{result.format}</span>: {importedWords(result)}.
        </div>
      )}
    </div>
  );
}
