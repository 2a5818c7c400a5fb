// A judge kind's prompt template: system text and prompt with {{fields}}. Saving changed text makes the
// next version (older versions stay, and results name the version they were made with).
import { useEffect, useState } from 'react';
import type { JudgeTemplateView } from '../../../../shared/api';
import { api, errorMessage } from '../../api';

const FIELDS = '{{prompt}} {{response}} {{response_a}} {{response_b}} {{steps}} {{rubric}} {{reference}}';
const area = 'w-full resize-y rounded-md border border-line-strong bg-surface px-2 py-1 font-mono text-[12.5px] leading-[1.45] outline-none focus:border-accent';

export function TemplateEditor({ project, template, onSaved }: { project: string; template: JudgeTemplateView; onSaved(): void }) {
  const [system, setSystem] = useState(template.system);
  const [prompt, setPrompt] = useState(template.prompt);
  const [note, setNote] = useState<string | null>(null);
  useEffect(() => {
    setSystem(template.system);
    setPrompt(template.prompt);
  }, [template]);
  const changed = system !== template.system || prompt !== template.prompt;
  const save = async () => {
    try {
      const saved = await api.saveJudgeTemplate({ project, kind: template.kind, system, prompt });
      setNote(saved.created ? `Saved as version ${saved.version}.` : `Unchanged: still version ${saved.version}.`);
      onSaved();
    } catch (e) {
      setNote(errorMessage(e));
    }
  };
  return (
    <details className="rounded-md border border-line px-3 py-2" data-testid="judge-template">
      <summary className="cursor-pointer text-[13px] text-muted">
        Prompt template · {template.version ? `version ${template.version} of ${template.versions}` : 'built-in'}
      </summary>
      <div className="mt-2 flex flex-col gap-2">
        <label className="flex flex-col gap-1 text-[12px] text-muted">
          System
          <textarea className={area} rows={2} value={system} onChange={(e) => setSystem(e.target.value)} data-testid="judge-template-system" />
        </label>
        <label className="flex flex-col gap-1 text-[12px] text-muted">
          Prompt
          <textarea className={area} rows={7} value={prompt} onChange={(e) => setPrompt(e.target.value)} data-testid="judge-template-prompt" />
        </label>
        <div className="flex items-center gap-3 text-[12px] text-faint">
          <button className="h-7 rounded-md border border-line-strong px-2.5 text-[12.5px] text-fg hover:bg-surface-2 disabled:opacity-50" disabled={!changed} onClick={() => void save()} data-testid="judge-template-save">
            Save as a new version
          </button>
          <span>Fields: {FIELDS}. The chat template comes from the model.</span>
        </div>
        {note && (
          <div className="text-[12px] text-muted" data-testid="judge-template-note">
            {note}
          </div>
        )}
      </div>
    </details>
  );
}
