// The dashboard's table of annotators: per person their labels, agreement with the others and with the
// consensus, position and length bias, pace and reliability. A name, a count of labels and an agreement
// open the items behind them in the explorer.
import type { AnnotatorFigures } from '../../../../shared/api';
import { MIN_LABELS } from '../../../../shared/api';
import { DrillLink, drillQuery } from '../../components/DrillLink';
import { pct } from './charts';
import { cell } from './FigureCell';
import { durationWords } from './reviewWords';

export function PeopleTable({ project, people }: { project: string; people: AnnotatorFigures[] }) {
  if (!people.length) return null;
  return (
    <section className="overflow-x-auto rounded-md border border-line bg-surface" data-testid="people-table">
      <h3 className="border-b border-line px-4 py-2 text-[14px] font-semibold">Annotators</h3>
      <table className="w-full border-collapse text-[13px] tabular-nums">
        <thead>
          <tr className="border-b border-line text-left text-[11px] text-faint">
            <th className="px-4 py-1 font-medium">Annotator</th>
            <th className="px-2 py-1 text-right font-medium">Labels</th>
            <th className="px-2 py-1 font-medium">With others</th>
            <th className="px-2 py-1 font-medium">With consensus</th>
            <th className="px-2 py-1 font-medium">Left picks</th>
            <th className="px-2 py-1 font-medium">Longer picks</th>
            <th className="px-2 py-1 font-medium" title={`Labels per hour of time spent on them (the time each label records), shown from ${MIN_LABELS} timed labels`}>
              Labels / hour
            </th>
            <th className="px-2 py-1 font-medium">Median time</th>
            <th className="px-4 py-1 font-medium" title="Dawid–Skene’s estimate of the share of this person’s labels that are right">Reliability</th>
          </tr>
        </thead>
        <tbody>
          {people.map((p) => (
            <tr key={p.name} className="border-b border-line last:border-b-0">
              <td className="px-4 py-1 font-medium">
                <DrillLink project={project} query={drillQuery(['annotator', [p.name]])} title={`The items ${p.name} judged`}>
                  {p.name}
                </DrillLink>
              </td>
              <td className="px-2 py-1 text-right">
                <DrillLink project={project} query={drillQuery(['annotator', [p.name]], ['labeled.pairwise', ['anyone']])} title={`The pairs ${p.name} labeled`}>
                  {p.labels.toLocaleString()}
                </DrillLink>
              </td>
              <td className="px-2 py-1">
                <DrillLink project={project} query={drillQuery(['annotator', [p.name]], ['disagree', ['pairwise']])} title={`The pairs ${p.name} labeled where people split`}>
                  {cell(p.withOthers, pct)}
                </DrillLink>
              </td>
              <td className="px-2 py-1">{cell(p.withConsensus, pct)}</td>
              <td className="px-2 py-1">{cell(p.leftPicks, pct)}</td>
              <td className="px-2 py-1">{cell(p.longerPicks, pct)}</td>
              <td className="px-2 py-1">{cell(p.labelsPerHour, (v) => v.toFixed(0))}</td>
              <td className="px-2 py-1">{cell(p.medianTimeMs, (v) => durationWords(v))}</td>
              <td className="px-4 py-1">{cell(p.reliability, pct)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
