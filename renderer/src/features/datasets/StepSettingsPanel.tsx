// How the project's responses are cut into steps, and the error tags offered on the step screen. Both
// are project settings; each change is saved at once, and the host's sentence is shown when it fails.
import { useEffect, useState } from 'react';
import type { ProjectSettings } from '../../../../shared/domain';
import { SEGMENTATION_METHODS, type SegmentationMethod } from '../../../../shared/segment';
import { TAG_PRESETS } from '../../../../shared/stepJudgement';
import { plural } from '../../../../shared/plural';
import { api, errorMessage } from '../../api';

const METHOD_TITLES: Record<SegmentationMethod, string> = {
  auto: 'Automatic',
  markers: '“Step N:” markers',
  numbered: 'Numbered lines',
  paragraphs: 'Paragraphs',
  lines: 'Lines',
};
const METHOD_NOTES: Record<SegmentationMethod, string> = {
  auto: 'Tries “Step N:” markers, then numbered lines, then paragraphs, then lines.',
  markers: 'A new step at each line that starts “Step N:”.',
  numbered: 'A new step at each line that starts “1.” or “1)”.',
  paragraphs: 'A new step after each blank line.',
  lines: 'A new step at every line break.',
};

export function StepSettingsPanel({ project }: { project: string }) {
  const [settings, setSettings] = useState<Pick<ProjectSettings, 'segmentation' | 'errorTags'> | null>(null);
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    api
      .getProject({ project })
      .then((p) => live && setSettings({ segmentation: p.settings.segmentation, errorTags: p.settings.errorTags }))
      .catch((e: unknown) => live && setError(errorMessage(e)));
    return () => {
      live = false;
    };
  }, [project]);

  const save = async (change: Partial<Pick<ProjectSettings, 'segmentation' | 'errorTags'>>) => {
    if (!settings) return false;
    const before = settings;
    setSettings({ ...settings, ...change });
    setSaving(true);
    setError(null);
    try {
      const saved = await api.updateProjectSettings({ project, settings: change });
      setSettings({ segmentation: saved.segmentation, errorTags: saved.errorTags });
      return true;
    } catch (e) {
      setSettings(before);
      setError(errorMessage(e));
      return false;
    } finally {
      setSaving(false);
    }
  };

  const addTag = async () => {
    const tag = draft.trim();
    if (!settings || !tag) return;
    if (settings.errorTags.includes(tag)) {
      setError(`“${tag}” is already a tag.`);
      return;
    }
    if (await save({ errorTags: [...settings.errorTags, tag] })) setDraft('');
  };

  /** Adds a preset's tags the list does not have yet (a project holds at most 50 tags). */
  const addPreset = async (name: string) => {
    const preset = TAG_PRESETS.find((p) => p.name === name);
    if (!settings || !preset) return;
    const missing = preset.tags.filter((t) => !settings.errorTags.includes(t));
    if (!missing.length) {
      setError(null);
      setNotice(`Every tag of “${preset.name}” is in the list already.`);
      return;
    }
    const room = 50 - settings.errorTags.length;
    if (missing.length > room) {
      setError(`“${preset.name}” adds ${plural(missing.length, 'tag')}, but the list has room for ${plural(room, 'more tag')} (50 at most): remove some first.`);
      return;
    }
    if (await save({ errorTags: [...settings.errorTags, ...missing] })) setNotice(`Added ${plural(missing.length, 'tag')} from “${preset.name}”.`);
  };

  return (
    <section className="flex flex-col gap-3 rounded-md border border-line bg-surface p-4" data-testid="step-settings">
      <h2 className="text-[14px] font-semibold">Step labels</h2>
      {settings === null ? (
        !error && <div className="text-[13px] text-muted">Loading…</div>
      ) : (
        <div className="grid gap-x-6 gap-y-3 text-[13px] md:grid-cols-[minmax(0,280px)_minmax(0,1fr)]">
          <label className="flex flex-col gap-1">
            <span className="text-[12px] text-muted">Cut responses into steps by</span>
            <select
              value={settings.segmentation}
              onChange={(e) => void save({ segmentation: e.target.value as SegmentationMethod })}
              className="h-8 rounded-md border border-line-strong bg-surface px-2"
              data-testid="segmentation-method"
            >
              {SEGMENTATION_METHODS.map((m) => (
                <option key={m} value={m}>
                  {METHOD_TITLES[m]}
                </option>
              ))}
            </select>
            <span className="text-[12px] text-muted" data-testid="segmentation-note">
              {METHOD_NOTES[settings.segmentation]} Responses whose file gave steps, and chains already rated, keep theirs.
            </span>
          </label>
          <div className="flex flex-col gap-1">
            <span className="text-[12px] text-muted" id="error-tags-label">
              Error tags
            </span>
            <ul className="flex flex-wrap gap-1.5" aria-labelledby="error-tags-label" data-testid="error-tags">
              {settings.errorTags.map((tag) => (
                <li key={tag} className="flex items-center gap-1 rounded-md border border-line bg-bg py-0.5 pl-2 pr-1" data-testid="error-tag" data-tag={tag}>
                  <span>{tag}</span>
                  <button
                    onClick={() => void save({ errorTags: settings.errorTags.filter((t) => t !== tag) })}
                    disabled={saving}
                    className="rounded px-1 text-muted hover:bg-surface-2 hover:text-bad disabled:opacity-50"
                    aria-label={`Remove the tag ${tag}`}
                    title={`Remove “${tag}”`}
                    data-testid="remove-tag"
                  >
                    ×
                  </button>
                </li>
              ))}
              {settings.errorTags.length === 0 && <li className="text-muted">No tags: the step screen offers none.</li>}
            </ul>
            <input
              value={draft}
              onChange={(e) => setDraft(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter') {
                  e.preventDefault();
                  void addTag();
                }
              }}
              placeholder="Add a tag, then Enter"
              aria-label="Add an error tag"
              maxLength={60}
              disabled={saving}
              className="mt-1 h-8 rounded-md border border-line-strong bg-surface px-2"
              data-testid="add-tag"
            />
            <div className="mt-1 flex flex-wrap items-center gap-1.5" data-testid="tag-presets">
              <span className="text-[12px] text-muted">Add a preset:</span>
              {TAG_PRESETS.map((preset) => (
                <button
                  key={preset.name}
                  onClick={() => void addPreset(preset.name)}
                  disabled={saving}
                  title={`${preset.note} ${preset.tags.join(', ')}`}
                  className="h-7 rounded-md border border-line-strong bg-surface px-2 text-[12px] hover:bg-surface-2 disabled:opacity-50"
                  data-testid="tag-preset"
                  data-preset={preset.name}
                >
                  {preset.name}
                </button>
              ))}
              {notice && (
                <span className="text-[12px] text-muted" role="status" data-testid="tag-preset-notice">
                  {notice}
                </span>
              )}
            </div>
          </div>
        </div>
      )}
      {error && (
        <div className="rounded-md border border-bad/50 bg-bad-soft px-3 py-2 text-[13px]" role="alert" data-testid="step-settings-error">
          <b className="font-semibold text-bad">Not saved.</b> {error}
        </div>
      )}
    </section>
  );
}
