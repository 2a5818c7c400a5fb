// Agreement and consensus figures at scale: `npm run bench:review`, or
//   node --import tsx bench/review-metrics.mjs [--units 100000] [--raters 3] [--reps 5] [--runs 3]
// First, what a user waits for: `arbiter stats --project P --json` (the built CLI, start-up included: every
// agreement figure, Dawid–Skene, people, models, the queue) on a project of --units pairs labelled by
// --raters people, against a plain GROUP BY pass over the same current labels run in this process (the
// votes per item and choice, the least any consensus reads); the median of --runs each, and their ratio.
// The project is made once through the TypeScript sources and kept in bench/.data.
// Then it imports the TypeScript sources through tsx. On synthetic labels (--units items, each labelled by
// --raters annotators of differing accuracy: a pairwise choice of 4 categories, a first-error index, a
// ranking of 3 responses, the model's P(A better), a save time and time spent) it times every figure of
// electron/core/review and prints each against a baseline run in the same process: a bare loop over the
// same labels held as a dense units × raters Int32Array, counting agreeing pairs per unit (the least work
// any agreement figure does). Times are the median of --reps runs, after one warm-up run.
import {
  agreementWithConsensus, agreementWithOthers, anchoring, calibration, cohenKappa, dawidSkene, firstErrorAgreement, fleissKappa,
  kendallWByUnit, krippendorffAlpha, lengthBias, majorityVote, modelAccuracy, percentAgreement, positionBias, rankingsFromUnits, ratingsFromTriples,
  throughput,
} from '../electron/core/review/index.ts';
import { statsAgainstGroupBy } from './lib/stats-cli.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const UNITS = arg('units', 100_000);
const RATERS = arg('raters', 3);
const REPS = arg('reps', 5);
const K = 4;

await statsAgainstGroupBy({ items: UNITS, raters: RATERS, runs: arg('runs', 3) });

// mulberry32: the same labels on every run.
let seed = 20_240_601;
function next() {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

function synthetic() {
  const size = UNITS * RATERS;
  const unit = new Int32Array(size);
  const rater = new Int32Array(size);
  const choice = new Float64Array(size);
  const firstError = new Float64Array(size);
  const savedAt = new Float64Array(size);
  const timeMs = new Float64Array(size);
  const pickedLeft = new Int8Array(size);
  const chosenLength = new Float64Array(size);
  const otherLength = new Float64Array(size);
  const visible = new Uint8Array(size);
  const modelChoice = new Int32Array(UNITS);
  const modelP = new Float64Array(UNITS);
  const rankingRows = [];
  const clock = new Float64Array(RATERS).fill(Date.UTC(2025, 0, 1));
  for (let u = 0; u < UNITS; u++) {
    const truth = Math.floor(next() * K);
    const steps = Math.floor(next() * 8) - 1;
    modelChoice[u] = next() < 0.75 ? truth : Math.floor(next() * K);
    modelP[u] = Math.min(1, Math.max(0, (truth === 0 ? 0.7 : 0.3) + (next() - 0.5) * 0.4));
    const rows = [];
    for (let r = 0; r < RATERS; r++) {
      const i = u * RATERS + r;
      const accuracy = 0.9 - 0.15 * r;
      unit[i] = u;
      rater[i] = r;
      choice[i] = next() < accuracy ? truth : Math.floor(next() * K);
      firstError[i] = next() < accuracy ? steps : steps + (next() < 0.5 ? 1 : -1);
      timeMs[i] = 5_000 + next() * 40_000;
      clock[r] += timeMs[i] + (next() < 0.01 ? 3_600_000 : 0);
      savedAt[i] = clock[r];
      pickedLeft[i] = choice[i] < 2 ? (next() < 0.55 ? 1 : 0) : -1;
      chosenLength[i] = 100 + Math.floor(next() * 900);
      otherLength[i] = 100 + Math.floor(next() * 900);
      visible[i] = next() < 0.5 ? 1 : 0;
      rows.push(next() < accuracy ? [1, 2, 3] : [2, 1, 2]);
    }
    rankingRows.push(rows);
  }
  return { unit, rater, choice, firstError, savedAt, timeMs, pickedLeft, chosenLength, otherLength, visible, modelChoice, modelP, rankingRows };
}

const data = synthetic();
const choices = ratingsFromTriples(UNITS, RATERS, data.unit, data.rater, data.choice);
const firstErrors = ratingsFromTriples(UNITS, RATERS, data.unit, data.rater, data.firstError);
const rankings = rankingsFromUnits(data.rankingRows);
const consensus = majorityVote(choices, K).label;
const humanChoice = Int32Array.from(data.choice);
const modelPerLabel = Int32Array.from(data.unit, (u) => data.modelChoice[u]);
const outcome = Float64Array.from({ length: UNITS }, (_, u) => (consensus[u] === 0 ? 1 : consensus[u] === 1 ? 0 : Number.NaN));
const dense = Int32Array.from(data.choice);

// The baseline: agreeing pairs per unit over a dense matrix, nothing else.
function baseline() {
  let agree = 0;
  for (let u = 0; u < UNITS; u++) {
    const row = u * RATERS;
    for (let i = 0; i < RATERS; i++) for (let j = i + 1; j < RATERS; j++) if (dense[row + i] === dense[row + j]) agree++;
  }
  return agree;
}

const figures = {
  'build ratings (CSR from triples)': () => ratingsFromTriples(UNITS, RATERS, data.unit, data.rater, data.choice),
  'percent agreement': () => percentAgreement(choices),
  "Cohen's kappa (raters 0, 1)": () => cohenKappa(choices, 0, 1),
  "Fleiss' kappa": () => fleissKappa(choices),
  "Krippendorff's alpha, nominal": () => krippendorffAlpha(choices, 'nominal'),
  "Krippendorff's alpha, ordinal": () => krippendorffAlpha(firstErrors, 'ordinal'),
  "Krippendorff's alpha, interval": () => krippendorffAlpha(firstErrors, 'interval'),
  "Kendall's W per item (3 responses)": () => kendallWByUnit(rankings),
  'first-error agreement (exact, ±1)': () => firstErrorAgreement(firstErrors),
  'majority vote + soft labels': () => majorityVote(choices, K),
  'Dawid-Skene (EM)': () => dawidSkene(choices, { categories: K }),
  'agreement with the others': () => agreementWithOthers(choices),
  'agreement with the consensus': () => agreementWithConsensus(choices, consensus),
  'position bias': () => positionBias(data.rater, data.pickedLeft, RATERS),
  'length bias': () => lengthBias(data.rater, data.chosenLength, data.otherLength, RATERS),
  'labels per hour, median time': () => throughput(data.rater, data.savedAt, data.timeMs, RATERS),
  'model accuracy vs consensus': () => modelAccuracy(consensus, data.modelChoice),
  'calibration (Brier, ECE, bins)': () => calibration(data.modelP, outcome),
  'anchoring': () => anchoring(humanChoice, modelPerLabel, data.visible),
};

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
}

function time(fn) {
  fn();
  const runs = [];
  for (let r = 0; r < REPS; r++) {
    const t0 = performance.now();
    fn();
    runs.push(performance.now() - t0);
  }
  return median(runs);
}

const base = time(baseline);
console.log(`review metrics on ${UNITS.toLocaleString('en')} units × ${RATERS} raters (${(UNITS * RATERS).toLocaleString('en')} labels), median of ${REPS}`);
console.log(`${'baseline: agreeing pairs over a dense matrix'.padEnd(44)} ${base.toFixed(2).padStart(9)} ms`);
let total = 0;
for (const [name, fn] of Object.entries(figures)) {
  const ms = time(fn);
  total += ms;
  console.log(`${name.padEnd(44)} ${ms.toFixed(2).padStart(9)} ms  ${(ms / base).toFixed(1).padStart(6)}× baseline`);
}
const ds = dawidSkene(choices, { categories: K });
console.log(`${'all of the above'.padEnd(44)} ${total.toFixed(2).padStart(9)} ms  (Dawid-Skene: ${ds.iterations} iterations, converged: ${ds.converged})`);
