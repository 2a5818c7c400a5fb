// The evaluation tab of the review screen: people, reward models, process models and local judges on one
// table, measured on the same gold (or the people's consensus, said as such), each figure with its n and
// interval, the benchmarks' figures beside accuracy, and the picked row's facets and exports. Keys: j / k
// (↓ / ↑) pick a row; 1–6 the measure; R reads the figures again.
import { useCallback, useEffect, useState } from 'react';
import { MEASURES, type Evaluation, type Measure } from '../../../../shared/api';
import { api, errorMessage } from '../../api';
import { Kbd } from '../../components/Kbd';
import { useScreenKeys } from '../../components/useScreenKeys';
import { useShell } from '../../context';
import { NumberCell } from './FigureCells';
import { MEASURE_WORDS } from './evaluationWords';
import { SubjectDetail } from './SubjectDetail';
import { SubjectsTable } from './SubjectsTable';

export function EvaluationScreen({ project }: { project: string }) {
  const { keysEnabled } = useShell();
  const [evaluation, setEvaluation] = useState<Evaluation | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [picked, setPicked] = useState(0);
  const [chosen, setChosen] = useState<Measure | null>(null);
  const load = useCallback(() => {
    setError(null);
    api
      .evaluate({ project })
      .then(setEvaluation)
      .catch((e) => setError(errorMessage(e)));
  }, [project]);
  useEffect(load, [load]);
  const present = MEASURES.filter((m) => evaluation?.subjects.some((s) => s.measures.some((x) => x.measure === m)));
  const measure = chosen && present.includes(chosen) ? chosen : (present[0] ?? 'pairwise');
  const subjects = evaluation?.subjects ?? [];
  useScreenKeys((event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return false;
    if ((event.key === 'j' || event.key === 'ArrowDown') && subjects.length) setPicked((p) => Math.min(subjects.length - 1, p + 1));
    else if ((event.key === 'k' || event.key === 'ArrowUp') && subjects.length) setPicked((p) => Math.max(0, p - 1));
    else if (/^[1-6]$/.test(event.key) && present[Number(event.key) - 1]) setChosen(present[Number(event.key) - 1]!);
    else if (event.key === 'R') load();
    else return false;
    return true;
  }, keysEnabled);
  const reference = evaluation?.references.find((r) => r.measure === measure);
  const subject = subjects[Math.min(picked, subjects.length - 1)];
  return (
    <div className="min-h-0 flex-1 overflow-auto px-4 py-3" data-testid="evaluation-screen">
      {error && (
        <div className="mb-3 rounded border border-bad/40 bg-bad-soft px-3 py-2 text-[13px]" role="alert">
          {error}
        </div>
      )}
      {!evaluation && !error && <p className="text-[13px] text-muted">Reading the stored results…</p>}
      {evaluation && (
        <div className="mx-auto max-w-[1400px] space-y-3">
          <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
            <nav className="flex items-center gap-1" aria-label="Measure">
              {present.map((m, i) => (
                <button
                  key={m}
                  className={`flex items-center gap-1.5 rounded px-2 py-1 text-[13px] ${m === measure ? 'bg-surface-2 font-medium text-fg' : 'text-muted hover:text-fg'}`}
                  onClick={() => setChosen(m)}
                  aria-current={m === measure || undefined}
                  data-testid={`evaluation-measure-${m}`}
                >
                  {MEASURE_WORDS[m]} <Kbd>{String(i + 1)}</Kbd>
                </button>
              ))}
            </nav>
            <span className="text-[12px] text-muted" data-testid="evaluation-reference">
              {reference?.reference === 'gold' ? (
                <>
                  measured on the gold: <span className="text-fg">{reference.items.toLocaleString()}</span> items
                </>
              ) : (
                <>no gold for this measure: measured on the people’s consensus (each person on the others’)</>
              )}
            </span>
            <span className="ml-auto text-[12px] text-muted" title="Cohen's κ between every two people on the pairs both labeled, averaged">
              people with each other κ <NumberCell figure={evaluation.humanKappa} digits={2} testId="evaluation-human-kappa" />
            </span>
          </div>
          {subjects.length ? (
            <SubjectsTable subjects={subjects} measure={measure} picked={Math.min(picked, subjects.length - 1)} onPick={setPicked} />
          ) : (
            <p className="rounded-md border border-line bg-surface px-4 py-3 text-[13px] text-muted">Nobody has judged this project yet: no labels, scores or judge results are stored.</p>
          )}
          {subject && <SubjectDetail project={project} subject={subject} measure={measure} />}
          {evaluation.notes.length > 0 && (
            <ul className="space-y-0.5 text-[12px] text-faint" data-testid="evaluation-notes">
              {evaluation.notes.map((n) => (
                <li key={n}>{n}</li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
