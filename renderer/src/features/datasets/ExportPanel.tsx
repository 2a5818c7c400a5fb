// Export the project's labels as a dataset file the training libraries read as they are. The file goes
// to the app's exports folder; the browser then downloads it, the desktop app has already offered a save
// dialog. The page never learns a path.
import { useEffect, useState } from 'react';
import type { ExportedFile } from '../../../../shared/api';
import { FORMAT_TITLES, type ExportFormat } from '../../../../shared/formatNames';
import { api, downloadExport, errorMessage, transport } from '../../api';
import { useOverview } from '../../components/useOverview';
import { DEFAULT_EXPORT_CHOICES, ExportOptions, exportInput, type ExportChoices } from './ExportOptions';
import { defaultExportFormat, exportGroups } from './exportChoices';
import { inAppWords } from './datasetWords';

/** `scope`: export these items only (the items explorer's selection), through exportItems, with every option. */
export function ExportPanel({ project, version, scope }: { project: string; version: number; scope?: { ids: number[] } }) {
  const { overview } = useOverview(project, version);
  const [picked, setFormat] = useState<ExportFormat | null>(null);
  const format = picked ?? defaultExportFormat(overview);
  const [annotator, setAnnotator] = useState('');
  const [choices, setChoices] = useState<ExportChoices>(DEFAULT_EXPORT_CHOICES);
  const [annotators, setAnnotators] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [summary, setSummary] = useState<ExportedFile | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [downloadError, setDownloadError] = useState<string | null>(null);

  useEffect(() => {
    api
      .annotators({ project })
      .then((list) => setAnnotators([...new Set(list.filter((a) => a.kind === 'human').map((a) => a.name))]))
      .catch(() => setAnnotators([]));
  }, [project, version]);

  const download = (file: string) => {
    setDownloadError(null);
    downloadExport(project, file).catch((e: unknown) => setDownloadError(errorMessage(e)));
  };

  const run = async () => {
    setBusy(true);
    setError(null);
    setSummary(null);
    try {
      const options = { project, format, ...(annotator ? { annotator } : {}) };
      const input = exportInput(format, choices);
      const exported = scope
        ? await api.exportItems({ ...options, ids: scope.ids, ...input })
        : await api.exportProject({ ...options, ...input });
      setSummary(exported);
      download(exported.out);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  const skipped = summary
    ? (
        [
          ['unlabeled', summary.skipped.unlabeled],
          ['ties', summary.skipped.tie],
          ['both bad', summary.skipped.both_bad],
          ['conflicting labels', summary.skipped.conflict],
          ['not pairwise', summary.skipped.not_pairwise],
          ['not adjudicated', summary.skipped.not_adjudicated],
          ['below the agreement asked', summary.skipped.low_agreement],
        ] as const
      ).filter(([, n]) => n > 0)
    : [];

  return (
    <section className="flex flex-col gap-3 rounded-md border border-line bg-surface p-4" data-testid="export-panel">
      <h2 className="text-[14px] font-semibold">{scope ? `Export the ${scope.ids.length.toLocaleString()} selected item${scope.ids.length === 1 ? '' : 's'}` : 'Export'}</h2>
      <div className="flex flex-col gap-2 text-[13px]">
        <label className="flex flex-col gap-1">
          <span className="text-[12px] text-muted">Format</span>
          <select
            value={format}
            onChange={(e) => setFormat(e.target.value as ExportFormat)}
            className="h-8 rounded-md border border-line-strong bg-surface px-2"
            data-testid="export-format"
          >
            {exportGroups(overview).map((group) => (
              <optgroup key={group.label} label={group.label}>
                {group.formats.map((f) => (
                  <option key={f} value={f}>
                    {FORMAT_TITLES[f] ?? f}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1" title="Without a name: the majority of human labels decides; an even split is skipped as a conflict; where no one labeled an item, the preference the imported file carried is used">
          <span className="text-[12px] text-muted">Labels from</span>
          <select
            value={annotator}
            onChange={(e) => setAnnotator(e.target.value)}
            className="h-8 rounded-md border border-line-strong bg-surface px-2"
            data-testid="export-annotator"
          >
            <option value="">Majority of annotators, else the file’s label</option>
            {annotators.map((a) => (
              <option key={a} value={a}>
                {a} only
              </option>
            ))}
          </select>
        </label>
        <ExportOptions format={format} value={choices} onChange={setChoices} images={overview?.images ?? 0} />
        <button
          onClick={run}
          disabled={busy}
          className="mt-1 h-8 self-start rounded-md bg-accent px-4 font-medium text-white disabled:opacity-50 dark:text-[#111]"
          data-testid="export-button"
        >
          {busy ? 'Exporting…' : 'Export'}
        </button>
      </div>

      {error && (
        <div className="rounded-md border border-bad/50 bg-bad-soft px-3 py-2 text-[13px]" role="alert" data-testid="export-error">
          <b className="font-semibold text-bad">Export failed.</b> {inAppWords(error)}
        </div>
      )}

      {summary && (
        <div className="flex flex-col gap-1.5 rounded-md border border-line bg-bg px-3 py-2 text-[13px]" data-testid="export-summary">
          <div>
            <b className="font-semibold text-ok" data-testid="export-written">
              Wrote {summary.written.toLocaleString()} record{summary.written === 1 ? '' : 's'}
            </b>{' '}
            as <span className="font-mono text-[12px]">{summary.format}</span>.
          </div>
          {skipped.length > 0 ? (
            <div className="text-muted" data-testid="export-skipped">
              Skipped: {skipped.map(([what, n]) => `${n.toLocaleString()} ${what}`).join(', ')}.
            </div>
          ) : (
            <div className="text-muted">Nothing skipped.</div>
          )}
          {summary.note && (
            <div className="text-muted" data-testid="export-note">
              {inAppWords(summary.note)}
            </div>
          )}
          <div className="break-all text-[12px] text-muted" data-testid="export-file">
            <span className="font-mono">{summary.out}</span>
            {summary.saved === true && ' — saved where you chose.'}
            {summary.saved === false && ' — not saved: the save dialog was closed. Export again to choose a place.'}
          </div>
          {downloadError && (
            <div className="text-bad" role="alert" data-testid="export-download-error">
              The file was written but not downloaded: {downloadError}
            </div>
          )}
          {transport.kind === 'http' && (
            <button
              onClick={() => download(summary.out)}
              className="mt-1 self-start rounded-md border border-line-strong bg-surface px-3 py-1 font-medium text-accent hover:bg-surface-2"
              data-testid="export-download"
            >
              ↓ Download again
            </button>
          )}
        </div>
      )}
    </section>
  );
}
