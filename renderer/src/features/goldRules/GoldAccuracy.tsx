// Each annotator's accuracy against gold per task (the review report's `gold`, electron/core/review/
// goldAccuracy.ts): the share right with its 95% interval and n, their qualification, and a flag under the
// lead's bar listing the gold items they got wrong, each opening the item with every label side by side.
// A failed qualification holds the annotator's queue; the lead lets them retry from here (the figures
// follow once they label it again). GoldCell is the
// same figure as a cell of "Where the team stands".
import { useState } from 'react';
import type { GoldAccuracyReport, PersonGoldAccuracy, QualificationResult, TaskGoldAccuracy } from '../../../../shared/api';
import { DEFAULT_GOLD_TASK_RULES } from '../../../../shared/goldRules';
import { plural } from '../../../../shared/plural';
import { api, errorMessage } from '../../api';
import { useShell } from '../../context';
import { routeHash } from '../../route';

const pct = (x: number | null) => (x === null ? '—' : `${Math.round(x * 100)}%`);
const TASK_WORDS: Record<string, string> = { pairwise: 'pairs', ranking: 'rankings', verdict: 'verdicts', steps: 'steps' };

function accuracyText(p: PersonGoldAccuracy): string {
  const a = p.accuracy;
  return a.value === null ? (a.reason ?? '—') : `${pct(a.value)} [${pct(a.low)}–${pct(a.high)}]`;
}

function qualificationText(q: QualificationResult | null): string {
  if (!q) return '—';
  if (q.state === 'pending') return `${q.done} of ${q.total} labeled`;
  return `${q.state} ${pct(q.score)}`;
}

/** Lets a person who failed the qualification take it again: their labels of it from now on count. */
async function grantRetry(project: string, task: TaskGoldAccuracy['task'], name: string): Promise<void> {
  const { settings } = await api.getProject({ project });
  const rules = { ...DEFAULT_GOLD_TASK_RULES, ...settings.gold?.[task] };
  await api.updateProjectSettings({ project, settings: { gold: { ...settings.gold, [task]: { ...rules, retries: { ...rules.retries, [name]: new Date().toISOString() } } } } });
}

function PersonRow({ project, task, person }: { project: string; task: TaskGoldAccuracy; person: PersonGoldAccuracy }) {
  const [error, setError] = useState<string | null>(null);
  const [granted, setGranted] = useState(false);
  const q = person.qualification;
  return (
    <tr className="align-top" data-testid="gold-person" data-annotator={person.name} data-flagged={person.flagged ? 'yes' : 'no'}>
      <td className="py-1 pr-4">
        {person.name}
        {person.flagged && (
          <span className="ml-2 rounded-sm bg-bad-soft px-1 text-[11px] font-medium text-bad" data-testid="gold-flag" title={`Under the bar of ${pct(task.bar)}`}>
            under {pct(task.bar)}
          </span>
        )}
      </td>
      <td className="py-1 pr-4 text-right tabular-nums" data-testid="gold-accuracy">
        {accuracyText(person)}
      </td>
      <td className="py-1 pr-4 text-right tabular-nums text-muted">{person.accuracy.n}</td>
      <td className={`py-1 pr-4 tabular-nums ${q?.state === 'failed' ? 'text-bad' : q?.state === 'passed' ? 'text-ok' : 'text-muted'}`} data-testid="gold-qualification">
        {qualificationText(q)}
        {q?.state === 'failed' && granted && <span className="ml-2 text-muted" data-testid="gold-retry-granted">· retry granted</span>}
        {q?.state === 'failed' && !granted && (
          <button
            className="ml-2 rounded border border-line px-1.5 text-[12px] text-fg hover:bg-surface-2"
            onClick={() => grantRetry(project, task.task, person.name).then(() => setGranted(true), (e: unknown) => setError(errorMessage(e)))}
            data-testid="gold-retry"
          >
            Let retry
          </button>
        )}
        {error && <span className="ml-2 text-bad">{error}</span>}
      </td>
      <td className="py-1 text-[12px]" data-testid="gold-wrong">
        {person.flagged &&
          person.wrong.slice(0, 30).map((w, i) => (
            <span key={w.itemId}>
              {i > 0 && ', '}
              <a className="underline decoration-dotted underline-offset-2 hover:text-accent" href={routeHash({ name: 'review', project, itemId: w.itemId, task: task.task })} title="Open with every label side by side">
                {w.externalId ?? `#${w.itemId}`}
              </a>
            </span>
          ))}
        {person.flagged && person.wrong.length > 30 && <span className="text-faint"> and {person.wrong.length - 30} more</span>}
      </td>
    </tr>
  );
}

export function GoldAccuracyCard({ gold }: { gold: GoldAccuracyReport | undefined }) {
  const project = useShell().project ?? '';
  const tasks = gold?.tasks ?? [];
  if (!tasks.length) return null;
  return (
    <section className="rounded-md border border-line bg-surface p-4" data-testid="gold-accuracy-card" aria-labelledby="gold-accuracy-title">
      <h3 id="gold-accuracy-title" className="text-[13px] font-semibold">
        Accuracy against gold
      </h3>
      <p className="mb-2 text-[12px] text-muted">
        Each annotator’s share of gold items judged as gold says (95% interval, n gold items). Under the bar they are flagged with the items they missed.
      </p>
      {tasks.map((t) => (
        <div key={t.task} className="mb-2" data-testid="gold-task" data-task={t.task}>
          <div className="text-[12px] text-faint">
            {`${TASK_WORDS[t.task] ?? t.task}: ${plural(t.goldItems, 'gold item')} · bar ${pct(t.bar)}${t.honeypotRate > 0 ? ` · honeypots ${pct(t.honeypotRate)}` : ''}${t.qualification > 0 ? ` · qualification ${plural(t.qualification, 'item')}` : ''}`}
          </div>
          {t.people.length === 0 ? (
            <div className="text-[13px] text-muted">No annotator has labeled a gold item yet.</div>
          ) : (
            <table className="text-[13px]">
              <thead className="text-left text-[12px] text-faint">
                <tr>
                  <th className="pr-4 font-medium">Annotator</th>
                  <th className="pr-4 text-right font-medium">Accuracy</th>
                  <th className="pr-4 text-right font-medium">n</th>
                  <th className="pr-4 font-medium">Qualification</th>
                  <th className="font-medium">Gold items missed</th>
                </tr>
              </thead>
              <tbody>
                {t.people.map((p) => (
                  <PersonRow key={p.name} project={project} task={t} person={p} />
                ))}
              </tbody>
            </table>
          )}
        </div>
      ))}
    </section>
  );
}

/** A person's accuracy on gold for "Where the team stands": their first task with gold figures. */
export function GoldCell({ gold, name }: { gold: GoldAccuracyReport | undefined; name: string }) {
  const found = (gold?.tasks ?? []).map((t) => ({ t, p: t.people.find((p) => p.name === name) })).find((x) => x.p);
  if (!found?.p) return <td className="pl-4 text-right text-faint">—</td>;
  const { t, p } = found;
  const missed = p.wrong.map((w) => w.externalId ?? `#${w.itemId}`).slice(0, 10).join(', ');
  return (
    <td className={`pl-4 text-right tabular-nums ${p.flagged ? 'text-bad' : ''}`} data-testid="team-stands-gold" title={`${TASK_WORDS[t.task] ?? t.task}, n = ${p.accuracy.n}${p.flagged ? `; under the bar of ${pct(t.bar)}, missed ${missed}` : ''}`}>
      {p.accuracy.value === null ? '—' : `${pct(p.accuracy.value)} (n ${p.accuracy.n})`}
      {p.flagged && ' ⚑'}
    </td>
  );
}
