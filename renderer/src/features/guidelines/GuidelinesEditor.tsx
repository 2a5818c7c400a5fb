// The guidelines editor: markdown on the left, the live preview on the right (as the drawer shows it),
// Ctrl+S or the button saves a new revision. The save names the revision the editor opened; when a
// teammate saved meanwhile the host refuses it, the text typed here stays, and the newer one can be
// loaded beside it. Ctrl+Z undoes typing (the text box's own undo).
import { useCallback, useEffect, useRef, useState } from 'react';
import { GUIDELINES_MAX, type Guidelines } from '../../../../shared/api';
import { ApiError, api, errorMessage } from '../../api';
import { Kbd } from '../../components/Kbd';
import { Markdown } from '../../components/Markdown';
import { useShell } from '../../context';

export function GuidelinesEditor({ project, onDirty }: { project: string; onDirty?(dirty: boolean): void }) {
  const { annotator } = useShell();
  const [doc, setDoc] = useState<Guidelines | null>(null);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [conflict, setConflict] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [savedNote, setSavedNote] = useState<string | null>(null);

  const load = useCallback(() => {
    setError(null);
    return api
      .getGuidelines({ project })
      .then((g) => {
        setDoc(g);
        setText(g.text);
        setConflict(null);
      })
      .catch((e: unknown) => setError(errorMessage(e)));
  }, [project]);
  useEffect(() => {
    void load();
  }, [load]);

  const dirty = doc !== null && text !== doc.text;
  useEffect(() => onDirty?.(dirty), [dirty, onDirty]);

  const save = useCallback(async () => {
    if (!doc || saving || !dirty) return;
    setSaving(true);
    setError(null);
    setSavedNote(null);
    try {
      const saved = await api.saveGuidelines({ project, text, baseRevision: doc.revision, annotator: annotator || undefined });
      setDoc(saved);
      setText((t) => (t === text ? saved.text : t));
      setSavedNote(saved.created ? `Saved as revision ${saved.revision}.` : 'No change to save.');
    } catch (e) {
      if (e instanceof ApiError && e.code === 'conflict') setConflict(e.message);
      else setError(errorMessage(e));
    } finally {
      setSaving(false);
    }
  }, [doc, saving, dirty, project, text, annotator]);

  // Ctrl+S saves from anywhere on the screen, not only from the text box.
  const saveRef = useRef(save);
  saveRef.current = save;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey || e.key.toLowerCase() !== 's') return;
      e.preventDefault();
      void saveRef.current();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const takeNewer = useCallback(async () => {
    const mine = text;
    await load();
    // The text typed here goes to the clipboard, so it can be pasted back where it belongs.
    void navigator.clipboard?.writeText(mine).catch(() => undefined);
    setSavedNote('The newer guidelines are loaded; your text was copied to the clipboard.');
  }, [text, load]);

  return (
    <section className="flex min-h-0 flex-1 flex-col gap-2" data-testid="guidelines-editor">
      <div className="flex flex-wrap items-center gap-3 text-[12.5px]">
        <span className="text-muted">
          {doc === null ? 'Loading…' : doc.revision > 0 ? `Revision ${doc.revision}${doc.author ? ` by ${doc.author}` : ''}${doc.updatedAt ? ` · ${new Date(doc.updatedAt).toLocaleString()}` : ''}` : 'Not saved yet'}
        </span>
        {dirty && <span className="font-medium text-fg" data-testid="guidelines-dirty">Unsaved changes</span>}
        {savedNote && !dirty && <span className="text-ok" data-testid="guidelines-saved">{savedNote}</span>}
        <span className="ml-auto text-faint">Shown with <Kbd>g</Kbd> while labeling</span>
        <button
          onClick={() => void save()}
          disabled={!dirty || saving}
          className="flex h-8 items-center gap-1.5 rounded-md border border-accent bg-accent px-3 font-medium text-white disabled:opacity-45 dark:text-[#111] [&_kbd]:border-white/40 [&_kbd]:bg-white/15 [&_kbd]:text-white dark:[&_kbd]:border-black/30 dark:[&_kbd]:bg-black/10 dark:[&_kbd]:text-[#111]"
          data-testid="guidelines-save"
        >
          {saving ? 'Saving…' : 'Save guidelines'} <Kbd>Ctrl S</Kbd>
        </button>
      </div>
      {conflict && (
        <div className="rounded-md border border-bad/50 bg-bad-soft px-3 py-2 text-[13px]" role="alert" data-testid="guidelines-conflict">
          <b className="font-semibold text-bad">Not saved.</b> {conflict}{' '}
          <button className="ml-1 text-accent underline" onClick={() => void takeNewer()}>
            Load the newer guidelines
          </button>
        </div>
      )}
      {error && (
        <div className="rounded-md border border-bad/50 bg-bad-soft px-3 py-2 text-[13px]" role="alert">
          <b className="font-semibold text-bad">Not saved.</b> {error}
        </div>
      )}
      <div className="grid min-h-[360px] flex-1 gap-3 lg:grid-cols-2">
        <label className="flex min-h-0 flex-col">
          <span className="mb-1 text-[11.5px] font-semibold tracking-wide text-faint uppercase">Markdown</span>
          <textarea
            value={text}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape') e.currentTarget.blur();
            }}
            spellCheck
            maxLength={GUIDELINES_MAX}
            placeholder={'# Guidelines\n\nWhat a good response is, how to use each criterion, the hard cases…'}
            className="min-h-0 flex-1 resize-none rounded-md border border-line-strong bg-surface px-3 py-2 font-mono text-[13px] leading-[1.55] outline-none focus:border-accent"
            data-testid="guidelines-text"
            disabled={doc === null}
          />
        </label>
        <div className="flex min-h-0 flex-col">
          <span className="mb-1 text-[11.5px] font-semibold tracking-wide text-faint uppercase">Preview</span>
          <div className="min-h-0 flex-1 overflow-y-auto rounded-md border border-line bg-surface px-4 py-3" data-testid="guidelines-preview">
            {text.trim() ? <Markdown text={text} className="md-doc" /> : <p className="text-[13px] text-faint">The preview shows here as you type.</p>}
          </div>
        </div>
      </div>
    </section>
  );
}
