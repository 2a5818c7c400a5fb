// Two dashboard cards whose figures open their items (components/DrillLink.tsx): agreement over time (a
// week's point → the items with a pair labeled that week that two or more people judged: week=…
// labels>=2) and anchoring on the model (the labels made with its pre-label shown or hidden:
// prelabel=shown / prelabel=hidden; a model's bars → both, on the items the models scored).
import type { ModelFigures, ReviewReport } from '../../../../shared/api';
import { DrillLink, drillQuery, openItems } from '../../components/DrillLink';
import { ChartCard, HBarChart, NoData, OverTimeChart, missingNotes, pct, type BarRow, type BarSeries } from './charts';
import { figureText, plural } from './reviewWords';

/** The items behind a week's agreement: a pair labeled that week, judged by two or more people. */
export const weekQuery = (week: string) => `${drillQuery(['week', [week]])} labels>=2`;

export function OverTimeCard({ project, weeks }: { project: string; weeks: ReviewReport['overTime'] }) {
  const n = weeks.reduce((s, w) => s + w.agreement.n, 0);
  return (
    <ChartCard
      testId="over-time"
      title="Agreement over time"
      n={`n = ${plural(n, 'pair')} of labels on the same item, ${plural(weeks.length, 'week')}`}
      sentence="Per week a label was made, the share of its pairings with the item’s other labels that made the same choice: a falling line may mean drifting guidelines or tiring annotators."
    >
      {weeks.length === 0 ? (
        <NoData>No item has two labels yet: agreement over time needs items labeled by two or more people.</NoData>
      ) : (
        <>
          <OverTimeChart weeks={weeks} onWeek={(week) => openItems(project, weekQuery(week))} />
          {/* The same drill-down by keyboard: the latest weeks as links. */}
          <div className="mt-1 flex flex-wrap items-baseline gap-x-2 text-[12px] text-muted" data-testid="over-time-weeks">
            <span className="text-faint">Items by week:</span>
            {weeks.slice(-8).map((w) => (
              <DrillLink key={w.week} project={project} query={weekQuery(w.week)} title={`Week of ${w.week}: ${figureText(w.agreement, pct)} of pairs agree`}>
                {w.week}
              </DrillLink>
            ))}
          </div>
        </>
      )}
    </ChartCard>
  );
}

export function AnchoringCard({ project, models }: { project: string; models: ModelFigures[] }) {
  const rows: BarRow[] = models.map((m) => ({ label: m.model, figures: { visible: m.anchoring.visible, hidden: m.anchoring.hidden } }));
  const series: BarSeries[] = [
    { key: 'visible', name: 'Pre-label shown (assist)', format: pct, interval: true },
    { key: 'hidden', name: 'Pre-label hidden (blind)', format: pct, interval: true },
  ];
  const n = Math.max(0, ...models.map((m) => m.anchoring.visible.n + m.anchoring.hidden.n));
  return (
    <ChartCard
      testId="anchoring"
      title="Anchoring on the model"
      n={`n = ${plural(n, 'label')} with the pre-label’s visibility recorded`}
      sentence="How often people picked the response the model prefers when its pre-label was shown and when it was hidden; a clearly higher share when shown suggests people follow the model."
      notes={[
        ...missingNotes(rows, series),
        ...models.filter((m) => m.anchoring.difference.value !== null).map((m) => `${m.model}: shown minus hidden ${figureText(m.anchoring.difference, (v) => `${v >= 0 ? '+' : '−'}${Math.abs(Math.round(v * 100))} points`)}`),
      ]}
    >
      {models.length === 0 ? (
        <NoData>No model has scored this project’s pairs, so there is no pre-label to follow.</NoData>
      ) : (
        <>
          <HBarChart rows={rows} series={series} domain={[0, 1]} xLabel="Share of picks that match the model (whiskers: 95% interval)" onRow={() => openItems(project, `${drillQuery(['prelabel', ['shown', 'hidden']])} score>=0`)} />
          {n > 0 && (
            <div className="mt-1 flex flex-wrap items-baseline gap-x-3 text-[12px] text-muted" data-testid="anchoring-drill">
              <span className="text-faint">Items labeled with the pre-label</span>
              <DrillLink project={project} query={drillQuery(['prelabel', ['shown']])} title="The items a person labeled with the model’s pre-label shown">
                shown
              </DrillLink>
              <DrillLink project={project} query={drillQuery(['prelabel', ['hidden']])} title="The items a person labeled with the model’s pre-label hidden">
                hidden
              </DrillLink>
            </div>
          )}
        </>
      )}
    </ChartCard>
  );
}
