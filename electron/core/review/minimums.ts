// The least data a figure of the report is shown on. Below it a coefficient is noise that reads as a
// finding (the demo's one verdict both people gave showed Fleiss' κ −1.00, Cohen's κ 0.00 and 0%), so it
// becomes `value: null` with the reason "not enough data: …", its n kept. Applied once to the finished
// report (the dashboard and `arbiter stats --json` read the same object).
import { MIN_ITEMS, MIN_LABELS, type AnnotatorFigures, type FieldAgreement, type ModelFigures, type ReviewReport } from '../../../shared/api/review';
import { REASONS } from './estimate';

export { MIN_ITEMS, MIN_LABELS };

interface Gated {
  value: number | null;
  n: number;
  reason: string | null;
  low?: number | null;
  high?: number | null;
}

/** The reason a figure below its minimum gives: "not enough data: 1 item (10 needed)". */
export function tooFew(n: number, min: number, unit: string): string {
  return `${REASONS.notEnough}: ${n} ${n === 1 ? unit : `${unit}s`} (${min} needed)`;
}

function gate<T extends Gated>(figure: T, min: number, unit: string): T;
function gate<T extends Gated>(figure: T | null, min: number, unit: string): T | null;
function gate<T extends Gated>(figure: T | null | undefined, min: number, unit: string): T | null | undefined {
  if (!figure || figure.value === null || figure.n >= min) return figure;
  const gated: T = { ...figure, value: null, reason: tooFew(figure.n, min, unit) };
  if ('low' in figure) Object.assign(gated, { low: null, high: null });
  return gated;
}

function field(f: FieldAgreement): FieldAgreement {
  // Step fields count responses or steps where a chain has several; items are the unit named.
  const unit = 'item';
  const out: FieldAgreement = { ...f, percent: gate(f.percent, MIN_ITEMS, unit), alpha: gate(f.alpha, MIN_ITEMS, unit), cohen: gate(f.cohen, MIN_ITEMS, unit), fleiss: gate(f.fleiss, MIN_ITEMS, unit) };
  if (f.alsoAlpha) out.alsoAlpha = gate(f.alsoAlpha, MIN_ITEMS, unit);
  if (f.kendallW) out.kendallW = gate(f.kendallW, MIN_ITEMS, unit);
  if (f.withinOne) out.withinOne = gate(f.withinOne, MIN_ITEMS, unit);
  return out;
}

function person(p: AnnotatorFigures): AnnotatorFigures {
  return {
    ...p,
    withOthers: gate(p.withOthers, MIN_LABELS, 'label'),
    withConsensus: gate(p.withConsensus, MIN_LABELS, 'label'),
    leftPicks: gate(p.leftPicks, MIN_LABELS, 'pick'),
    longerPicks: gate(p.longerPicks, MIN_LABELS, 'pick'),
    labelsPerHour: gate(p.labelsPerHour, MIN_LABELS, 'timed label'),
    reliability: gate(p.reliability, MIN_LABELS, 'label'),
  };
}

function model(m: ModelFigures): ModelFigures {
  return { ...m, accuracy: gate(m.accuracy, MIN_ITEMS, 'item'), brier: gate(m.brier, MIN_ITEMS, 'item'), ece: gate(m.ece, MIN_ITEMS, 'item') };
}

/** The report with every figure below its minimum made "not enough data". */
export function withMinimums(report: ReviewReport): ReviewReport {
  return {
    ...report,
    fields: report.fields.map(field),
    people: report.people.map(person),
    models: report.models.map(model),
    consensus: { ...report.consensus, agreeWithMajority: gate(report.consensus.agreeWithMajority, MIN_ITEMS, 'item') },
  };
}
