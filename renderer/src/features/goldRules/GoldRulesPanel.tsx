// The lead's gold rules per task (project settings `gold`, shared/goldRules.ts): the honeypot rate, the
// qualification set's size and pass mark, and the accuracy bar under which a person is flagged. Saved on
// change like the other settings; a team hub carries them to every desktop.
import { useEffect, useState } from 'react';
import type { GoldSummary } from '../../../../shared/api';
import { DEFAULT_GOLD_TASK_RULES, GOLD_QUEUE_TASKS, type GoldQueueTask, type GoldRules, type GoldTaskRules } from '../../../../shared/goldRules';
import { api, errorMessage } from '../../api';

const TASK_WORDS: Record<GoldQueueTask, string> = { pairwise: 'Pairs', ranking: 'Rankings', verdict: 'Verdicts', steps: 'Steps' };

type Percent = 'honeypotRate' | 'passMark' | 'bar';

function NumberCell({ value, max, onSave, label, testId }: { value: number; max: number; onSave(v: number): void; label: string; testId: string }) {
  const [text, setText] = useState(String(value));
  useEffect(() => setText(String(value)), [value]);
  const commit = () => {
    const n = Math.max(0, Math.min(max, Math.round(Number(text) || 0)));
    setText(String(n));
    if (n !== value) onSave(n);
  };
  return (
    <td className="py-0.5 pr-3">
      <input
        type="number"
        min={0}
        max={max}
        value={text}
        aria-label={label}
        onChange={(e) => setText(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => e.key === 'Enter' && commit()}
        className="h-7 w-16 rounded-md border border-line bg-surface-2 px-2 text-right text-fg tabular-nums"
        data-testid={testId}
      />
    </td>
  );
}

export function GoldRulesPanel({ project }: { project: string }) {
  const [rules, setRules] = useState<GoldRules | null>(null);
  const [summary, setSummary] = useState<GoldSummary | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    api.getProject({ project }).then((p) => live && setRules(p.settings.gold ?? {}), (e: unknown) => live && setError(errorMessage(e)));
    api.goldSummary({ project }).then((s) => live && setSummary(s), () => undefined);
    return () => {
      live = false;
    };
  }, [project]);

  const save = async (task: GoldQueueTask, change: Partial<GoldTaskRules>) => {
    if (!rules) return;
    const before = rules;
    const next: GoldRules = { ...rules, [task]: { ...DEFAULT_GOLD_TASK_RULES, ...rules[task], ...change } };
    setRules(next);
    setError(null);
    try {
      setRules((await api.updateProjectSettings({ project, settings: { gold: next } })).gold);
    } catch (e) {
      setRules(before);
      setError(errorMessage(e));
    }
  };

  const goldCount = (task: GoldQueueTask) => summary?.tasks.find((t) => t.task === task)?.total ?? 0;
  const pct = (task: GoldQueueTask, key: Percent, max: number, label: string) => (
    <NumberCell
      value={Math.round(((rules?.[task] ?? DEFAULT_GOLD_TASK_RULES)[key] ?? 0) * 100)}
      max={max}
      label={`${TASK_WORDS[task]}: ${label} (%)`}
      onSave={(v) => void save(task, { [key]: v / 100 })}
      testId={`gold-${task}-${key}`}
    />
  );
  return (
    <section className="flex flex-col gap-2 rounded-md border border-line bg-surface p-4" data-testid="gold-rules">
      <h2 className="text-[14px] font-semibold">Gold for people</h2>
      <p className="text-[12px] text-muted">
        Gold items (adjudicated, or the file’s labels marked as gold) measure each annotator. Honeypots mix gold into every queue at the rate you set, looking like any other item; a
        qualification set is labeled first, and an annotator who misses the pass mark is held until you let them retry (Review → Accuracy against gold).
      </p>
      {rules === null ? (
        !error && <div className="text-[13px] text-muted">Loading…</div>
      ) : (
        <table className="self-start text-[13px]">
          <thead className="text-left text-[12px] text-faint">
            <tr>
              <th className="pr-3 font-medium">Task</th>
              <th className="pr-3 text-right font-medium">Gold</th>
              <th className="pr-3 font-medium">Honeypots %</th>
              <th className="pr-3 font-medium">Qualification items</th>
              <th className="pr-3 font-medium">Pass mark %</th>
              <th className="pr-3 font-medium">Flag under %</th>
            </tr>
          </thead>
          <tbody>
            {GOLD_QUEUE_TASKS.map((task) => (
              <tr key={task} data-testid="gold-rules-row" data-task={task}>
                <td className="pr-3">{TASK_WORDS[task]}</td>
                <td className="pr-3 text-right tabular-nums text-muted">{goldCount(task).toLocaleString()}</td>
                {pct(task, 'honeypotRate', 50, 'honeypot rate')}
                <NumberCell
                  value={rules[task]?.qualification ?? 0}
                  max={200}
                  label={`${TASK_WORDS[task]}: qualification items`}
                  onSave={(v) => void save(task, { qualification: v })}
                  testId={`gold-${task}-qualification`}
                />
                {pct(task, 'passMark', 100, 'pass mark')}
                {pct(task, 'bar', 100, 'accuracy bar')}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {error && (
        <div className="text-[13px] text-bad" role="alert">
          {error}
        </div>
      )}
    </section>
  );
}
