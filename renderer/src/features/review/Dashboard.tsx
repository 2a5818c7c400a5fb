// The agreement dashboard: agreement per field, per annotator (with others, with the consensus; position
// and length bias), over time, the models' calibration and accuracy, and anchoring. Every chart says the
// number of items it rests on and, in one sentence, what it shows; a figure without a value says why.
import type { AnnotatorFigures, FieldAgreement, ModelFigures, ReviewReport } from '../../../../shared/api';
import { DrillLink, drillQuery, openItems } from '../../components/DrillLink';
import { useShell } from '../../context';
import { AnchoringCard as Anchoring, OverTimeCard as OverTime } from './TimeAndAnchoring';
import { CalibrationChart, ChartCard, HBarChart, NoData, missingNotes, pct, type BarRow, type BarSeries } from './charts';
import { ErrorTagsCard } from './ErrorTagsCard';
import { cell } from './FigureCell';
import { PeopleTable } from './PeopleTable';
import { RegionAgreement } from './RegionAgreement';
import { figureText, plural } from './reviewWords';
import { MIN_ITEMS } from '../../../../shared/api';
import { GoldAccuracyCard } from '../goldRules/GoldAccuracy';

const FIELD_NAMES: Record<string, string> = {
  choice: 'Choice',
  strength: 'Strength (signed)',
  'best response': 'Ranking: best',
  verdict: 'Verdict',
  first_error: 'First error',
  step_ratings: 'Step ratings',
  first_error_turn: 'First error turn',
  turn_ratings: 'Turn ratings',
  error_category: 'Error category',
  turn_tags: 'Turn tags',
  outcome: 'Task outcome',
};

function fieldName(f: FieldAgreement): string {
  if (f.field.startsWith('rubric:')) return `Rubric ${f.field.slice('rubric:'.length).split('/').pop()}`;
  return FIELD_NAMES[f.field] ?? f.field;
}

function nRange(ns: number[], unit: string): string {
  if (!ns.length) return `n = 0 ${unit}`;
  const lo = Math.min(...ns);
  const hi = Math.max(...ns);
  return lo === hi ? `n = ${lo.toLocaleString()} ${unit}` : `n = ${lo.toLocaleString()}–${hi.toLocaleString()} ${unit}`;
}

/** The disagree facet's value for the items people split on in a field (null: no such facet value). */
function disagreeOf(f: FieldAgreement): string | null {
  if (f.field.startsWith('rubric:')) return 'rubric';
  const byField: Record<string, string> = { choice: 'pairwise', strength: 'pairwise', 'best response': 'ranking', verdict: 'verdict', first_error: 'first_error', first_error_turn: 'first_error', outcome: 'outcome' };
  return byField[f.field] ?? null;
}

/** `drill`: the query of the items behind the value; with it the value opens them in the explorer. */
function Tile({ label, value, detail, testId, drill }: { label: string; value: string; detail?: string; testId?: string; drill?: { project: string; query: string } }) {
  return (
    <div className="flex min-w-[140px] flex-col rounded-md border border-line bg-surface px-3 py-2" data-testid={testId}>
      <span className="text-[11px] font-semibold tracking-wide text-faint uppercase">{label}</span>
      <span className="text-[20px] font-semibold tabular-nums">
        {drill ? (
          <DrillLink project={drill.project} query={drill.query} title={label}>
            {value}
          </DrillLink>
        ) : (
          value
        )}
      </span>
      {detail && <span className="text-[12px] text-muted">{detail}</span>}
    </div>
  );
}

function FieldsChart({ project, fields }: { project: string; fields: FieldAgreement[] }) {
  const rows: BarRow[] = fields.map((f) => ({ label: fieldName(f), figures: { percent: f.percent, alpha: f.alpha } }));
  const series: BarSeries[] = [
    { key: 'percent', name: 'Percent agreement', format: pct },
    { key: 'alpha', name: 'Krippendorff’s α', format: (v) => `α ${v.toFixed(2)}` },
  ];
  const lowest = Math.min(0, ...fields.map((f) => f.alpha.value ?? 0));
  return (
    <ChartCard
      testId="fields"
      title="Agreement per field"
      n={nRange(fields.map((f) => f.percent.n), 'per field (items; responses or steps for step fields)')}
      sentence={`How often annotators give the same answer on what they both labeled, and Krippendorff’s α, which discounts the agreement chance alone would give (1 is perfect, 0 is chance). A figure on fewer than ${MIN_ITEMS} items says “not enough data”.`}
      notes={missingNotes(rows, series)}
    >
      {fields.length === 0 ? (
        <NoData>No field has labels from two annotators yet.</NoData>
      ) : (
        <HBarChart
          rows={rows}
          series={series}
          domain={[lowest < 0 ? Math.floor(lowest * 4) / 4 : 0, 1]}
          xLabel="Agreement (share; α on the same scale)"
          onRow={(i) => {
            const value = disagreeOf(fields[i]!);
            if (value) openItems(project, drillQuery(['disagree', [value]]));
          }}
        />
      )}
      {fields.length > 0 && <FieldTable project={project} fields={fields} />}
    </ChartCard>
  );
}

function FieldTable({ project, fields }: { project: string; fields: FieldAgreement[] }) {
  return (
    <table className="mt-2 w-full border-collapse text-[12px] tabular-nums" data-testid="fields-table">
      <thead>
        <tr className="border-b border-line text-left text-[11px] text-faint">
          <th className="py-1 pr-2 font-medium">Field</th>
          <th className="px-2 py-1 font-medium">Level</th>
          <th className="px-2 py-1 font-medium" title="Cohen’s κ between the two annotators with the most items in common">Cohen’s κ</th>
          <th className="px-2 py-1 font-medium">Fleiss’ κ</th>
          <th className="px-2 py-1 font-medium" title="Krippendorff’s α at the field’s level of measurement; rating scales: ordinal (the textbook level for ratings), with interval beside it">Krippendorff’s α</th>
          <th className="px-2 py-1 font-medium" title="Rankings: Kendall’s W. First error: agreement within one step">W / ±1</th>
        </tr>
      </thead>
      <tbody>
        {fields.map((f) => (
          <tr key={`${f.task}:${f.field}`} className="border-b border-line last:border-b-0">
            <td className="py-1 pr-2 font-medium whitespace-nowrap">
              {disagreeOf(f) ? (
                <DrillLink project={project} query={drillQuery(['disagree', [disagreeOf(f)!]])} title={`The items people split on: ${fieldName(f)}`}>
                  {fieldName(f)}
                </DrillLink>
              ) : (
                fieldName(f)
              )}
            </td>
            <td className="px-2 py-1 text-muted" title={f.alsoAlpha ? `α at the ${f.level} level, with the ${f.alsoAlpha.level} level beside it` : `α at the ${f.level} level`}>
              {f.level}
            </td>
            <td className="px-2 py-1" title={f.cohen ? `between ${f.cohen.between.join(' and ')}` : undefined}>
              {f.cohen ? (
                <DrillLink project={project} query={drillQuery(['split', f.cohen.between])} title={`The items ${f.cohen.between.join(' and ')} split on`}>
                  {cell(f.cohen)}
                </DrillLink>
              ) : (
                cell(f.cohen)
              )}
            </td>
            <td className="px-2 py-1">{cell(f.fleiss)}</td>
            <td className="px-2 py-1" data-testid="field-alpha">
              {cell(f.alpha)}
              {f.alsoAlpha && (
                <span className="ml-2" title={`Krippendorff’s α at the ${f.alsoAlpha.level} level too`}>
                  {cell(f.alsoAlpha)} <span className="text-[11px] text-faint">{f.alsoAlpha.level}</span>
                </span>
              )}
            </td>
            <td className="px-2 py-1">{f.kendallW ? cell(f.kendallW) : f.withinOne ? cell(f.withinOne, pct) : <span className="text-faint">—</span>}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Agent trajectories: each per-turn field on a line of its own, with its n and the sentence saying what it measures. */
function TrajectoryFields({ fields }: { fields: FieldAgreement[] }) {
  if (!fields.length) return null;
  return (
    <ChartCard
      testId="trajectory-fields"
      title="Agent trajectories: agreement per turn"
      n={nRange(fields.map((f) => f.percent.n), 'per field (trajectories, or turns for turn fields)')}
      sentence="Where people judged the same agent trajectories: how often they agree (percent) and Krippendorff’s α (1 is perfect, 0 is chance), at each field’s level."
    >
      <ul className="flex flex-col divide-y divide-line text-[12.5px]">
        {fields.map((f) => (
          <li key={f.field} className="py-1.5" data-testid="trajectory-field" data-field={f.field}>
            <div className="flex flex-wrap items-baseline gap-x-3 tabular-nums">
              <span className="min-w-[9rem] font-medium">{fieldName(f)}</span>
              <span data-testid="trajectory-field-percent">{cell(f.percent, pct)}</span>
              {f.withinOne && <span title="Agreement within one turn">±1 turn {cell(f.withinOne, pct)}</span>}
              <span title={`Krippendorff’s α at the ${f.level} level`}>
                α {f.level} {cell(f.alpha)}
              </span>
              {f.alsoAlpha && (
                <span className="text-muted">
                  α {f.alsoAlpha.level} {cell(f.alsoAlpha)}
                </span>
              )}
            </div>
            {f.about && <p className="mt-0.5 text-[12px] text-muted">{f.about}</p>}
            {f.percent.value === null && f.percent.reason && <p className="text-[12px] text-faint">No figure: {f.percent.reason} (n = {f.percent.n}).</p>}
          </li>
        ))}
      </ul>
    </ChartCard>
  );
}

function PeopleAgreementChart({ project, people }: { project: string; people: AnnotatorFigures[] }) {
  const rows: BarRow[] = people.map((p) => ({ label: p.name, figures: { withOthers: p.withOthers, withConsensus: p.withConsensus } }));
  const series: BarSeries[] = [
    { key: 'withOthers', name: 'With the others', format: pct },
    { key: 'withConsensus', name: 'With the consensus', format: pct },
  ];
  return (
    <ChartCard
      testId="people"
      title="Agreement per annotator"
      n={`n = ${plural(people.reduce((s, p) => s + p.labels, 0), 'pairwise label')} by ${plural(people.length, 'annotator')}`}
      sentence="For each annotator, the share of their choices that match the other annotators’ on the same items, and that match the consensus (Dawid–Skene: votes weighted by each person’s estimated reliability)."
      notes={missingNotes(rows, series)}
    >
      {people.length === 0 ? <NoData>No pairwise labels yet.</NoData> : <HBarChart rows={rows} series={series} domain={[0, 1]} xLabel="Share of choices that agree" onRow={(i) => openItems(project, drillQuery(['annotator', [people[i]!.name]], ['disagree', ['pairwise']]))} />}
    </ChartCard>
  );
}

function BiasChart({ project, people }: { project: string; people: AnnotatorFigures[] }) {
  const rows: BarRow[] = people.map((p) => ({ label: p.name, figures: { left: p.leftPicks, longer: p.longerPicks } }));
  const series: BarSeries[] = [
    { key: 'left', name: 'Picked the left response', format: pct, interval: true },
    { key: 'longer', name: 'Picked the longer response', format: pct, interval: true },
  ];
  return (
    <ChartCard
      testId="bias"
      title="Position and length bias"
      n={nRange(
        people.map((p) => p.leftPicks.n),
        'picks of A or B per annotator',
      )}
      sentence="Of each annotator’s picks of one response over the other, the share that went to the one shown on the left and to the longer one, with 95% intervals; an interval clear of the 50% line suggests a bias."
      notes={missingNotes(rows, series)}
    >
      {people.length === 0 ? <NoData>No pairwise labels yet.</NoData> : <HBarChart rows={rows} series={series} domain={[0, 1]} xLabel="Share of picks (whiskers: 95% interval)" reference={{ x: 0.5, label: '50%' }} onRow={(i) => openItems(project, drillQuery(['annotator', [people[i]!.name]], ['labeled.pairwise', ['anyone']]))} />}
    </ChartCard>
  );
}

function Calibration({ project, models }: { project: string; models: ModelFigures[] }) {
  const series = models.map((m) => ({
    model: m.model,
    points: m.bins.filter((b) => b.n > 0 && b.meanPredicted !== null && b.meanObserved !== null).map((b) => ({ predicted: b.meanPredicted!, observed: b.meanObserved!, n: b.n, low: b.low, high: b.high })),
  }));
  const n = Math.max(0, ...models.map((m) => m.bins.reduce((s, b) => s + b.n, 0)));
  return (
    <ChartCard
      testId="calibration"
      title="Model calibration"
      n={`n = ${plural(n, 'item')} with a consensus of A or B and the model’s rewards`}
      sentence="Items grouped by the model’s P(A better) in tenths (a dot’s size: its items): where the model is calibrated, the share that people judged A better sits on the dashed diagonal."
    >
      {models.length === 0 ? (
        <NoData>No model has scored this project’s pairs. Score it on the Models screen (m), then Recompute.</NoData>
      ) : n === 0 ? (
        <NoData>No item has both a consensus of A or B and a model’s rewards yet.</NoData>
      ) : (
        <CalibrationChart series={series} onPoint={(bin) => openItems(project, `score>=${bin.low} score${bin.high >= 1 ? '<=' : '<'}${bin.high}`)} />
      )}
      {models.length > 0 && (
        <table className="mt-2 w-full border-collapse text-[12px] tabular-nums" data-testid="models-table">
          <thead>
            <tr className="border-b border-line text-left text-[11px] text-faint">
              <th className="py-1 pr-2 font-medium">Model</th>
              <th className="px-2 py-1 font-medium" title="Share of items where the model picks the consensus’s response">Accuracy</th>
              <th className="px-2 py-1 font-medium" title="Mean squared error of P(A better) against the consensus (0 is perfect; 0.25 is always ½)">Brier</th>
              <th className="px-2 py-1 font-medium" title="Expected calibration error: the mean gap to the diagonal, weighted by items">ECE</th>
            </tr>
          </thead>
          <tbody>
            {models.map((m) => (
              <tr key={m.model} className="border-b border-line last:border-b-0">
                <td className="max-w-[24ch] truncate py-1 pr-2 font-medium" title={m.model}>
                  {m.model}
                </td>
                <td className="px-2 py-1">
                  <DrillLink project={project} query={drillQuery(['wrong', [m.model]])} title={`The items ${m.model} got wrong`}>
                    {cell(m.accuracy, pct)}
                  </DrillLink>
                </td>
                <td className="px-2 py-1">{cell(m.brier)}</td>
                <td className="px-2 py-1">{cell(m.ece)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </ChartCard>
  );
}

export function Dashboard({ report, computing }: { report: ReviewReport | null; computing: boolean }) {
  const project = useShell().project ?? '';
  if (!report)
    return (
      <div className="flex-1 p-6 text-[13px] text-muted" data-testid="dashboard-pending">
        {computing ? 'Computing the figures from every label… (a job on the host; a large project takes a few seconds)' : 'The figures could not be computed.'}
      </div>
    );
  const c = report.consensus;
  const drill = (query: string) => ({ project, query });
  return (
    <div className="min-h-0 flex-1 overflow-auto" data-testid="dashboard" data-computing={computing}>
      <div className="mx-auto flex max-w-[1600px] flex-col gap-4 p-4">
        {report.labels === 0 && (
          <div className="rounded-md border border-line bg-surface px-4 py-3 text-[13px] text-muted" data-testid="dashboard-empty">
            No labels yet. The figures appear once annotators label items; agreement needs the same items labeled by two or more people (set an overlap
            in the project’s settings, or exchange label files between machines).
          </div>
        )}
        <div className="flex flex-wrap gap-3">
          <Tile label="Labels" value={report.labels.toLocaleString()} detail={`by ${plural(report.annotators, 'annotator')}`} testId="tile-labels" drill={drill(drillQuery(['labeled', ['anyone']]))} />
          <Tile label="Pairs labeled" drill={drill(drillQuery(['labeled.pairwise', ['anyone']]))} value={report.items.toLocaleString()} detail={`${c.items.toLocaleString()} with a consensus, ${plural(c.ties, 'tie')}`} />
          <Tile
            label="Consensus methods agree"
            testId="tile-consensus"
            // The items compared: those whose people's votes have a majority (a majority vote to set beside Dawid–Skene's).
            drill={c.agreeWithMajority.n > 0 ? drill(drillQuery(['consensus', ['A', 'B', 'tie', 'both_bad']])) : undefined}
            value={figureText(c.agreeWithMajority, pct)}
            detail={c.agreeWithMajority.value === null ? (c.agreeWithMajority.reason ?? '') : `Dawid–Skene vs majority vote, n = ${c.agreeWithMajority.n}`}
          />
          <Tile label="To review" testId="tile-review" drill={drill(drillQuery(['disagree', ['pairwise']]))} value={report.queue.total.toLocaleString()} detail={`${report.queue.adjudicated.toLocaleString()} adjudicated`} />
        </div>
        <GoldAccuracyCard gold={report.gold} />
        {/* Two columns that fill independently: a short chart leaves no hole beside a tall one. */}
        <div className="grid items-start gap-4 xl:grid-cols-2">
          <div className="flex min-w-0 flex-col gap-4">
            <FieldsChart project={project} fields={report.fields.filter((f) => !f.about)} />
            <TrajectoryFields fields={report.fields.filter((f) => f.about)} />
            <RegionAgreement regions={report.regions} moments={report.moments} />
            <OverTime project={project} weeks={report.overTime} />
            <Anchoring project={project} models={report.models} />
          </div>
          <div className="flex min-w-0 flex-col gap-4">
            <PeopleAgreementChart project={project} people={report.people} />
            <BiasChart project={project} people={report.people} />
            <Calibration project={project} models={report.models} />
            <ErrorTagsCard project={project} asOf={report.computedAt} />
          </div>
        </div>
        <PeopleTable project={project} people={report.people} />
      </div>
    </div>
  );
}
