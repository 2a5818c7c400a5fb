// The dashboard's charts (recharts), drawn in the theme's colours through CSS variables so they read in
// light and dark. Each takes figures as the report gives them: a figure without a value keeps its place
// and says why (its reason) where its bar would be, never a made-up zero.
import type { ReactNode } from 'react';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  ErrorBar,
  LabelList,
  Legend,
  Line,
  LineChart,
  ReferenceLine,
  Scatter,
  ScatterChart,
  Tooltip,
  XAxis,
  YAxis,
  ZAxis,
  usePlotArea,
  type LabelProps,
} from 'recharts';
import type { Figure, ProportionFigure } from '../../../../shared/api';
import { plural } from '../../../../shared/plural';
import { notEnough } from './reviewWords';

/** Series colours: the accent, then two that stay apart for colour-blind readers, in both themes. */
export const SERIES = ['var(--accent)', 'var(--right)', 'var(--ok)', 'var(--left)', 'var(--tie)'];
const TICK = { fill: 'var(--muted)', fontSize: 11 };
const AXIS_LINE = { stroke: 'var(--border-strong)' };
const GRID = 'var(--border)';
const axisLabel = (value: string, position: 'insideBottom' | 'insideLeft', extra: object = {}) => ({ value, position, fill: 'var(--muted)', fontSize: 11, ...extra });

const REASON_CHARS = 46;
const short = (text: string) => (text.length > REASON_CHARS ? `${text.slice(0, REASON_CHARS - 1)}…` : text);

export const pct = (v: number) => `${Math.round(v * 100)}%`;
const fixed2 = (v: number) => v.toFixed(2);

/** The card around each chart: a title, the n it rests on, one sentence on what it shows, and the notes. */
export function ChartCard({ title, n, sentence, children, notes, testId }: { title: string; n: string; sentence: string; children: ReactNode; notes?: string[]; testId: string }) {
  return (
    <section className="flex min-w-0 flex-col gap-2 rounded-md border border-line bg-surface p-4" data-testid="chart" data-chart={testId}>
      <div className="flex flex-wrap items-baseline gap-x-3">
        <h3 className="text-[14px] font-semibold">{title}</h3>
        <span className="text-[12px] text-muted tabular-nums" data-testid="chart-n">
          {n}
        </span>
      </div>
      <p className="text-[13px] text-muted" data-testid="chart-sentence">
        {sentence}
      </p>
      <div className="min-w-0">{children}</div>
      {notes && notes.length > 0 && (
        <ul className="flex flex-col gap-0.5 text-[12px] text-faint" data-testid="chart-notes">
          {notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** A chart with nothing to draw: what would put something here. */
export function NoData({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-[120px] items-center justify-center rounded border border-dashed border-line-strong px-4 py-6 text-center text-[13px] text-muted" data-testid="chart-empty">
      {children}
    </div>
  );
}

/** One bar of a horizontal bar chart: its figure, how to print its value, and its name in the legend. */
export interface BarSeries {
  key: string;
  name: string;
  format(v: number): string;
  /** With a 95% interval drawn as whiskers (proportions). */
  interval?: boolean;
}

export interface BarRow {
  label: string;
  figures: Record<string, Figure | ProportionFigure>;
}

/** Notes for the figures a chart cannot draw: "α, strength: one category only… (n = 5)". */
export function missingNotes(rows: BarRow[], series: BarSeries[]): string[] {
  const notes: string[] = [];
  for (const row of rows)
    for (const s of series) {
      const f = row.figures[s.key];
      if (f && f.value === null && !notEnough(f) && (f.reason ?? '').length > REASON_CHARS) notes.push(`${s.name}, ${row.label}: ${f.reason} (n = ${f.n})`);
    }
  return notes;
}

interface Box {
  x?: number;
  y?: number;
  width?: number;
  height?: number;
}

/**
 * A bar's value in a column to the right of the plot, clear of its whisker; a figure without a value
 * says why from the zero line, where its bar would start.
 */
function ValueLabel(props: LabelProps) {
  const plot = usePlotArea();
  const viewBox = props.viewBox as Box | undefined;
  const value = props.value;
  if (!viewBox || typeof value !== 'string' || !value) return null;
  const missing = value.startsWith('n/a') || value.startsWith('not enough data');
  const y = (viewBox.y ?? 0) + (viewBox.height ?? 0) / 2;
  const x = missing || !plot ? (viewBox.x ?? 0) + (missing ? 4 : (viewBox.width ?? 0) + 8) : plot.x + plot.width + 10;
  return (
    <text x={x} y={y} dominantBaseline="central" fontSize={11} fill={missing ? 'var(--faint)' : 'var(--muted)'} fontStyle={missing ? 'italic' : undefined} className="tabular-nums">
      {value}
    </text>
  );
}

/**
 * Horizontal bars, one group per row (a field, a person, a model), each series a bar with its value
 * printed at its end; a figure without a value prints "n/a: reason" from zero instead.
 */
export function HBarChart({
  rows,
  series,
  domain,
  xLabel,
  reference,
  showN = true,
  onRow,
}: {
  rows: BarRow[];
  series: BarSeries[];
  domain: [number, number];
  xLabel: string;
  reference?: { x: number; label: string };
  showN?: boolean;
  /** A click on a row's bar: open the items behind it (the drill-down). */
  onRow?(index: number): void;
}) {
  const data = rows.map((row) => {
    const entry: Record<string, unknown> = { label: row.label };
    for (const s of series) {
      const f = row.figures[s.key];
      entry[s.key] = f?.value ?? 0;
      entry[`${s.key}:missing`] = !f || f.value === null;
      entry[`${s.key}:text`] = !f ? '' : notEnough(f) ? f.reason : f.value === null ? `n/a: ${short(f.reason ?? 'no value')}` : `${s.format(f.value)}${showN ? `  n=${f.n}` : ''}`;
      const p = f as ProportionFigure | undefined;
      entry[`${s.key}:err`] = p && p.value !== null && p.low != null && p.high != null ? [p.value - p.low, p.high - p.value] : [0, 0];
    }
    return entry;
  });
  const barSize = 11;
  const height = 44 + rows.length * (series.length * (barSize + 4) + 14) + (series.length > 1 ? 24 : 0);
  return (
    <BarChart layout="vertical" data={data} responsive style={{ width: '100%', height }} margin={{ top: 4, right: 96, bottom: 18, left: 4 }} barGap={4} barCategoryGap={10}>
      <CartesianGrid horizontal={false} stroke={GRID} />
      <XAxis type="number" domain={domain} tick={TICK} axisLine={AXIS_LINE} tickLine={AXIS_LINE} tickFormatter={(v: number) => (domain[1] <= 1 && domain[0] >= 0 ? pct(v) : fixed2(v))} label={axisLabel(xLabel, 'insideBottom', { offset: -12 })} allowDataOverflow />
      <YAxis type="category" dataKey="label" width={150} tick={TICK} axisLine={AXIS_LINE} tickLine={false} interval={0} />
      {reference && <ReferenceLine x={reference.x} stroke="var(--faint)" strokeDasharray="4 3" />}
      {domain[0] < 0 && <ReferenceLine x={0} stroke="var(--border-strong)" />}
      {series.map((s, i) => (
        // A zero still draws a sliver, so its value (or why there is none) is printed: Recharts skips a bar of 0 and its label.
        <Bar
          key={s.key}
          dataKey={s.key}
          name={s.name}
          fill={SERIES[i]}
          barSize={barSize}
          isAnimationActive={false}
          radius={[0, 2, 2, 0]}
          minPointSize={2}
        >
          {data.map((entry, j) => (
            <Cell key={j} fill={entry[`${s.key}:missing`] ? 'transparent' : SERIES[i]} onClick={onRow ? () => onRow(j) : undefined} cursor={onRow ? 'pointer' : undefined} />
          ))}
          {s.interval && <ErrorBar dataKey={`${s.key}:err`} direction="x" stroke="var(--fg)" strokeWidth={1.25} width={6} isAnimationActive={false} />}
          <LabelList dataKey={`${s.key}:text`} content={<ValueLabel />} />
        </Bar>
      ))}
      {series.length > 1 && <Legend verticalAlign="top" align="left" height={24} iconSize={9} itemSorter={null} wrapperStyle={{ fontSize: 12, color: 'var(--muted)' }} />}
    </BarChart>
  );
}

function ThemedTooltip({ active, payload, render }: { active?: boolean; payload?: readonly { payload?: unknown }[]; render(point: Record<string, unknown>): ReactNode }) {
  const point = active ? payload?.[0]?.payload : undefined;
  if (!point) return null;
  return <div className="rounded border border-line-strong bg-surface px-2 py-1 text-[12px] text-fg shadow-md">{render(point as Record<string, unknown>)}</div>;
}

type DotProps = { cx?: number; cy?: number; index?: number };

/** Agreement per week: a line over the weeks, each point with the pairs of labels it compares; `onWeek`: a point clicked. */
export function OverTimeChart({ weeks, onWeek }: { weeks: { week: string; agreement: Figure }[]; onWeek?(week: string): void }) {
  const data = weeks.map((w) => ({ week: w.week, value: w.agreement.value, n: w.agreement.n, reason: w.agreement.reason }));
  const weekDot = ({ cx, cy, index }: DotProps, r: number) =>
    cx === undefined || cy === undefined || index === undefined ? (
      <g key={`${r}-${index}`} />
    ) : (
      <circle
        key={`${r}-${index}`}
        className="recharts-line-dot"
        cx={cx}
        cy={cy}
        r={r}
        fill="var(--accent)"
        stroke="var(--surface)"
        cursor={onWeek ? 'pointer' : undefined}
        // On press: the chart redraws its hovered point between press and release, so a click may never land.
        onMouseDown={onWeek ? () => onWeek(data[index]!.week) : undefined}
      />
    );
  return (
    <LineChart
      data={data}
      responsive
      style={{ width: '100%', height: 210 }}
      margin={{ top: 8, right: 24, bottom: 22, left: 8 }}
    >
      <CartesianGrid stroke={GRID} vertical={false} />
      <XAxis dataKey="week" tick={TICK} axisLine={AXIS_LINE} tickLine={AXIS_LINE} label={axisLabel('Week of labeling (Monday, UTC)', 'insideBottom', { offset: -14 })} />
      <YAxis domain={[0, 1]} tickFormatter={pct} tick={TICK} axisLine={AXIS_LINE} tickLine={AXIS_LINE} width={48} label={axisLabel('Pairs that agree', 'insideLeft', { angle: -90, dy: 50, dx: 2 })} />
      <Tooltip
        cursor={{ stroke: 'var(--border-strong)' }}
        content={(props) => (
          <ThemedTooltip
            active={props.active}
            payload={props.payload}
            render={(p) => (
              <>
                <div className="font-medium">week of {String(p.week)}</div>
                <div className="text-muted">{p.value === null ? `n/a: ${String(p.reason)}` : `${pct(p.value as number)} of ${plural(p.n as number, 'pair')} of labels agree`}</div>
              </>
            )}
          />
        )}
      />
      <Line
        dataKey="value"
        stroke="var(--accent)"
        strokeWidth={2}
        // A week's point opens its items; the point drawn on hover (over the plain one) too.
        dot={(props: DotProps) => weekDot(props, 3.5)}
        activeDot={(props: DotProps) => weekDot(props, 5)}
        isAnimationActive={false}
        connectNulls={false}
      >
        <LabelList dataKey="n" position="top" offset={8} fill="var(--faint)" fontSize={10} formatter={(n: unknown) => `n=${String(n)}`} />
      </Line>
    </LineChart>
  );
}

export interface CalibrationSeries {
  model: string;
  /** Each bin's mean prediction and observation, its items, and its range of P(A better). */
  points: { predicted: number; observed: number; n: number; low: number; high: number }[];
}

/** Reliability diagram: per bin of P(A better), the share people judged A better; the diagonal is perfect calibration. */
/** `onPoint`: a click on a bin's dot opens the items behind it (the drill-down). */
export function CalibrationChart({ series, onPoint }: { series: CalibrationSeries[]; onPoint?(bin: { model: string; low: number; high: number }): void }) {
  return (
    <ScatterChart responsive style={{ width: '100%', height: 300 }} margin={{ top: 8, right: 24, bottom: 22, left: 8 }}>
      <CartesianGrid stroke={GRID} />
      <XAxis type="number" dataKey="predicted" domain={[0, 1]} ticks={[0, 0.2, 0.4, 0.6, 0.8, 1]} tickFormatter={fixed2} tick={TICK} axisLine={AXIS_LINE} tickLine={AXIS_LINE} label={axisLabel('Model’s P(A better), bin mean', 'insideBottom', { offset: -14 })} />
      <YAxis type="number" dataKey="observed" domain={[0, 1]} ticks={[0, 0.2, 0.4, 0.6, 0.8, 1]} tickFormatter={pct} tick={TICK} axisLine={AXIS_LINE} tickLine={AXIS_LINE} width={48} label={axisLabel('People judged A better', 'insideLeft', { angle: -90, dy: 70, dx: 2 })} />
      <ZAxis type="number" dataKey="n" range={[24, 260]} name="items" />
      <ReferenceLine segment={[{ x: 0, y: 0 }, { x: 1, y: 1 }]} stroke="var(--faint)" strokeDasharray="4 3" ifOverflow="extendDomain" />
      <Tooltip
        cursor={{ stroke: 'var(--border-strong)', strokeDasharray: '3 3' }}
        content={(props) => (
          <ThemedTooltip
            active={props.active}
            payload={props.payload}
            render={(p) => (
              <>
                <div className="font-medium">{String(p.model)}</div>
                <div className="text-muted">
                  P(A) ≈ {fixed2(p.predicted as number)}: people chose A on {pct(p.observed as number)} of {plural(p.n as number, 'item')}
                </div>
              </>
            )}
          />
        )}
      />
      {series.map((s, i) => (
        <Scatter
          key={s.model}
          name={s.model}
          data={s.points.map((p) => ({ ...p, model: s.model }))}
          fill={SERIES[i % SERIES.length]}
          line={{ stroke: SERIES[i % SERIES.length], strokeWidth: 1.5 }}
          isAnimationActive={false}
          onClick={
            onPoint
              ? (entry: unknown) => {
                  const point = (entry as { payload?: { model: string; low: number; high: number } }).payload;
                  if (point) onPoint(point);
                }
              : undefined
          }
          style={onPoint ? { cursor: 'pointer' } : undefined}
        />
      ))}
      {series.length > 1 && <Legend verticalAlign="top" align="right" height={22} iconSize={9} itemSorter={null} wrapperStyle={{ fontSize: 12, color: 'var(--muted)' }} />}
    </ScatterChart>
  );
}
