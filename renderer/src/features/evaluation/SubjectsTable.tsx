// People, reward models, process models and judges side by side on one measure: accuracy against the
// reference with its interval and n, then the benchmarks' figures, calibration, and for judges position
// consistency and κ with people. A row is picked with j / k (or a click) to show its facets below.
import type { Measure, SubjectEvaluation } from '../../../../shared/api';
import { NumberCell, ShareCell } from './FigureCells';

const KIND_STYLE: Record<SubjectEvaluation['kind'], string> = {
  person: 'border-line-strong text-muted',
  'reward model': 'border-accent/50 text-accent',
  'process model': 'border-accent/50 text-accent',
  judge: 'border-tie/50 text-tie',
};

export function SubjectsTable({ subjects, measure, picked, onPick }: { subjects: SubjectEvaluation[]; measure: Measure; picked: number; onPick(i: number): void }) {
  const th = 'px-2 py-1 font-medium whitespace-nowrap';
  return (
    <section className="overflow-x-auto rounded-md border border-line bg-surface" data-testid="evaluation-table">
      <table className="w-full border-collapse text-[13px] tabular-nums">
        <thead>
          <tr className="border-b border-line text-left text-[11px] text-faint">
            <th className={`${th} pl-4`}>Who</th>
            <th className={th}>Accuracy</th>
            <th className={th} title="RewardBench v1: chosen strictly above rejected on gold pairs">RewardBench</th>
            <th className={th} title="RewardBench 2: 1 / (number tied at the top) when the gold's pick is top">Best-of-N</th>
            <th className={th} title="RM-Bench over style variants: hard / normal / easy">RM-Bench h / n / e</th>
            <th className={th} title="ProcessBench: harmonic mean of accuracy on erroneous and on correct chains">ProcessBench F1</th>
            <th className={th} title="Accuracy with ties (VideoAlign's calc_accuracy_with_ties)">With ties</th>
            <th className={th} title="Expected calibration error over ten bins; Brier score">ECE · Brier</th>
            <th className={th} title="Pairs run in both orders whose verdict did not flip">Consistency</th>
            <th className={`${th} pr-4`} title="Cohen's κ with each person, averaged">κ with people</th>
          </tr>
        </thead>
        <tbody>
          {subjects.map((s, i) => {
            const m = s.measures.find((x) => x.measure === measure);
            const b = s.benchmarks;
            return (
              <tr
                key={`${s.kind}:${s.subject}`}
                className={`cursor-pointer border-b border-line align-top last:border-b-0 ${i === picked ? 'bg-surface-2' : 'hover:bg-surface-2/60'}`}
                onClick={() => onPick(i)}
                aria-selected={i === picked}
                data-testid="evaluation-row"
                data-subject={s.subject}
              >
                <td className="py-1.5 pr-2 pl-4">
                  <div className="font-medium text-fg">{s.subject}</div>
                  <span className={`mt-0.5 inline-block rounded-full border px-1.5 text-[10px] leading-4 ${KIND_STYLE[s.kind]}`}>{s.kind}</span>
                </td>
                <td className="px-2 py-1.5">
                  <ShareCell figure={m?.accuracy} testId="evaluation-accuracy" />
                  {m && <div className="text-[10px] text-faint">vs {m.reference === 'gold' ? 'gold' : "people's consensus"}</div>}
                </td>
                <td className="px-2 py-1.5">
                  <NumberCell figure={b.rewardBench?.accuracy} />
                </td>
                <td className="px-2 py-1.5">
                  <NumberCell figure={b.bestOfN} />
                </td>
                <td className="px-2 py-1.5 whitespace-nowrap">
                  {b.rmBench ? (
                    <span>
                      {b.rmBench.hard.toFixed(2)} / {b.rmBench.normal.toFixed(2)} / {b.rmBench.easy.toFixed(2)}
                      <span className="ml-1 text-[11px] text-faint">n={b.rmBench.n}</span>
                    </span>
                  ) : (
                    <span className="text-faint">—</span>
                  )}
                </td>
                <td className="px-2 py-1.5 whitespace-nowrap">
                  {b.processBench ? (
                    <span title={`error ${b.processBench.errorAccuracy?.toFixed(1) ?? 'n/a'} (n ${b.processBench.errorN}), correct ${b.processBench.correctAccuracy?.toFixed(1) ?? 'n/a'} (n ${b.processBench.correctN})`}>
                      {b.processBench.f1 === null ? 'n/a' : b.processBench.f1.toFixed(1)}
                      <span className="ml-1 text-[11px] text-faint">n={b.processBench.errorN + b.processBench.correctN}</span>
                    </span>
                  ) : (
                    <span className="text-faint">—</span>
                  )}
                </td>
                <td className="px-2 py-1.5 whitespace-nowrap">
                  {b.accuracyWithTies ? (
                    <span title={`tie threshold ε = ${b.accuracyWithTies.epsilon.toPrecision(3)}; without ties ${b.accuracyWithTies.withoutTies?.toFixed(3) ?? 'n/a'}`}>
                      {b.accuracyWithTies.accuracy.toFixed(3)}
                      <span className="ml-1 text-[11px] text-faint">n={b.accuracyWithTies.n}</span>
                    </span>
                  ) : (
                    <span className="text-faint">—</span>
                  )}
                </td>
                <td className="px-2 py-1.5 whitespace-nowrap">
                  {s.calibration ? (
                    <span>
                      <NumberCell figure={s.calibration.ece} />
                      <span className="text-faint"> · </span>
                      {s.calibration.brier.value?.toFixed(3) ?? 'n/a'}
                    </span>
                  ) : (
                    <span className="text-faint">—</span>
                  )}
                </td>
                <td className="px-2 py-1.5">
                  <ShareCell figure={s.positionConsistency} />
                </td>
                <td className="px-2 py-1.5 pr-4">
                  <NumberCell figure={s.kappaWithPeople} digits={2} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
