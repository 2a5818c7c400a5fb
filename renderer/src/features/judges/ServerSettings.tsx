// The project's optional OpenAI-compatible server (vLLM, llama.cpp's server, Ollama): there is no
// default, and nothing is sent anywhere until an address is set here. The key is never shown again.
import { useState } from 'react';
import { api, errorMessage } from '../../api';

const field = 'h-8 rounded-md border border-line-strong bg-surface px-2 text-[13px]';

interface Props {
  project: string;
  server: { baseUrl: string; model: string; hasKey: boolean } | null;
  onChanged(server: { baseUrl: string; model: string; hasKey: boolean } | null): void;
}

export function ServerSettings({ project, server, onChanged }: Props) {
  const [baseUrl, setBaseUrl] = useState(server?.baseUrl ?? '');
  const [model, setModel] = useState(server?.model ?? '');
  const [apiKey, setApiKey] = useState('');
  const [note, setNote] = useState<string | null>(null);
  const set = async (clear: boolean) => {
    try {
      await api.setJudgeEngine({ project, engine: clear ? null : { baseUrl, model, apiKey } });
      onChanged(clear ? null : await api.getJudgeEngine({ project }));
      setNote(clear ? 'Forgotten: nothing will be sent.' : 'Set for this project.');
      if (clear) setBaseUrl('');
      setApiKey('');
    } catch (e) {
      setNote(errorMessage(e));
    }
  };
  return (
    <details className="rounded-md border border-line px-3 py-2" data-testid="judge-server">
      <summary className="cursor-pointer text-[13px] text-muted">Server (optional) · {server ? `${server.model} at ${server.baseUrl}` : 'none set'}</summary>
      <div className="mt-2 flex flex-wrap items-end gap-3 text-[13px]">
        <label className="flex flex-col gap-1">
          <span className="text-[12px] text-muted">Address</span>
          <input className={`${field} w-72`} value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} placeholder="http://gpu-box:8000/v1" data-testid="judge-server-url" />
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-[12px] text-muted">Model</span>
          <input className={`${field} w-48`} value={model} onChange={(e) => setModel(e.target.value)} />
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-[12px] text-muted">Key {server?.hasKey ? '(set; type to replace)' : ''}</span>
          <input className={`${field} w-40`} type="password" value={apiKey} onChange={(e) => setApiKey(e.target.value)} autoComplete="off" />
        </label>
        <button className="h-8 rounded-md border border-line-strong px-3 hover:bg-surface-2 disabled:opacity-50" disabled={!baseUrl || !model} onClick={() => void set(false)}>
          Set
        </button>
        {server && (
          <button className="h-8 rounded-md px-2 text-muted hover:text-fg" onClick={() => void set(true)}>
            Forget
          </button>
        )}
      </div>
      <div className="mt-1 text-[12px] text-faint">{note ?? 'Never a default: nothing is sent anywhere until you set an address. Answers are checked like a local judge’s.'}</div>
    </details>
  );
}
