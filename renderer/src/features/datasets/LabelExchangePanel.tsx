// Label exchange between machines that never talk: send "my labels" (the labels format, only this
// annotator's revisions, with their uuids) and merge teammates' files. A merge is idempotent and
// order-independent; items are matched by content; revisions for items this project lacks are reported.
import { useRef, useState } from 'react';
import type { LabelsMerged } from '../../../../shared/api';
import { api, downloadExport, errorMessage } from '../../api';
import { uploadFile } from './upload';

export function LabelExchangePanel({ project, annotator, onMerged }: { project: string; annotator: string; onMerged(): void }) {
  const picker = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState<null | 'export' | 'merge'>(null);
  const [merged, setMerged] = useState<LabelsMerged | null>(null);
  const [exported, setExported] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  const exportMine = async () => {
    setBusy('export');
    setError(null);
    try {
      const summary = await api.exportProject({ project, format: 'labels', annotator });
      setExported(summary.written);
      await downloadExport(project, summary.out);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(null);
    }
  };

  const merge = async (file: File) => {
    setBusy('merge');
    setError(null);
    setMerged(null);
    try {
      const uploadId = await uploadFile(file, () => undefined).done;
      setMerged(await api.mergeLabelsUpload({ uploadId, project }));
      onMerged();
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(null);
      if (picker.current) picker.current.value = '';
    }
  };

  return (
    <section className="flex flex-col gap-3 rounded-md border border-line bg-surface p-4" data-testid="label-exchange">
      <h2 className="text-[14px] font-semibold">Team labels</h2>
      <p className="text-[13px] text-muted">
        Send your labels to the lead or a teammate as a file, and merge theirs here. Items are matched by their content, so each machine may have
        imported the data in its own order; merging the same file twice adds nothing.
      </p>
      <div className="flex flex-wrap items-center gap-2 text-[13px]">
        <button
          onClick={() => void exportMine()}
          disabled={busy !== null || !annotator}
          className="h-8 rounded-md border border-line-strong bg-surface px-3 font-medium hover:bg-surface-2 disabled:opacity-50"
          data-testid="export-my-labels"
        >
          {busy === 'export' ? 'Exporting…' : `Export ${annotator}’s labels`}
        </button>
        <button
          onClick={() => picker.current?.click()}
          disabled={busy !== null}
          className="h-8 rounded-md border border-line-strong bg-surface px-3 font-medium hover:bg-surface-2 disabled:opacity-50"
          data-testid="merge-labels"
        >
          {busy === 'merge' ? 'Merging…' : 'Merge a labels file…'}
        </button>
        <input
          ref={picker}
          type="file"
          accept=".jsonl,.ndjson,.json,.txt"
          hidden
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (file) void merge(file);
          }}
          data-testid="merge-labels-input"
        />
      </div>
      {exported !== null && <div className="text-[13px] text-muted">Wrote {exported.toLocaleString()} label revision{exported === 1 ? '' : 's'} by {annotator}.</div>}
      {merged && (
        <div className="rounded-md border border-line bg-bg px-3 py-2 text-[13px]" data-testid="merge-summary">
          <b className="font-semibold text-ok">
            Merged {merged.added.toLocaleString()} new revision{merged.added === 1 ? '' : 's'}
          </b>{' '}
          from <span className="font-mono text-[12px]">{merged.file}</span>; {merged.duplicates.toLocaleString()} were here already.
          {merged.unmatched > 0 && (
            <div className="mt-1 text-muted" data-testid="merge-unmatched">
              {merged.unmatched.toLocaleString()} revision{merged.unmatched === 1 ? ' is' : 's are'} for items this project does not have (import those items, then
              merge the file again): {merged.unmatchedItems.map((u) => `${u.item} (line ${u.line})`).join(', ')}
              {merged.unmatched > merged.unmatchedItems.length ? ', …' : ''}.
            </div>
          )}
          {merged.reusedIds > 0 && (
            <div className="mt-1 text-bad" data-testid="merge-reused-ids">
              {merged.reusedIds.toLocaleString()} line{merged.reusedIds === 1 ? ' reuses' : 's reuse'} a revision id this project holds for a different label, so{' '}
              {merged.reusedIds === 1 ? 'it was' : 'they were'} not merged: line{merged.reusedIdLines.length === 1 ? '' : 's'} {merged.reusedIdLines.map((r) => r.line).join(', ')}
              {merged.reusedIds > merged.reusedIdLines.length ? ', …' : ''}. Ask whoever made the file to export it again from Arbiter.
            </div>
          )}
        </div>
      )}
      {error && (
        <div className="rounded-md border border-bad/50 bg-bad-soft px-3 py-2 text-[13px]" role="alert">
          {error}
        </div>
      )}
    </section>
  );
}
