// What each rating and critique export writes of an item (./judgedExport.ts runs them): its lines, or the
// reason it has none (a key of the summary's `skipped`), and what the summary says afterwards.
import { contentText } from '../../../../shared/choices';
import type { ItemRecord, Task } from '../../../../shared/domain';
import { responseLetter } from '../../../../shared/letters';
import type { Criterion } from '../../../../shared/rubric';
import { SOURCE_ANNOTATOR } from '../../store/annotators';
import type { HeadLabel } from '../../store/labels';
import { promptText } from '../content';
import { encodeHelpsteer2, encodeHelpsteer2Preference, HS2_ATTRIBUTES } from './helpsteer2';
import { annotatorOrder, encodeHelpsteer3, type Hs3Preference } from './helpsteer3';
import { encodeCritique, encodePrometheus, prometheusScore, scoreRubric, type CritiqueVerdict } from './prometheus';
import { decideVerdict, effectiveChoice, type SkipReason } from '../base/resolve';
import { critiqueText, decideCritique, decidePreference, decideRatings } from '../base/resolveRatings';
import { signedScore } from './ratingJudgements';
import { encodeUltrafeedback, UF_ASPECTS } from './ultrafeedback';
import { isPlainObject } from '../validate';
import { encodeVideoFeedback, VF_KEYS } from '../video/videoFeedback';

export const JUDGED_FORMATS = ['ultrafeedback', 'helpsteer2', 'helpsteer2-preference', 'helpsteer3', 'prometheus', 'critique', 'videofeedback'] as const;
export type JudgedFormat = (typeof JUDGED_FORMATS)[number];
export const isJudgedFormat = (format: string): format is JudgedFormat => (JUDGED_FORMATS as readonly string[]).includes(format);

export interface ItemJudgements {
  item: ItemRecord;
  /** The item's current labels of a task, everyone's (adjudicated ones marked), with their bodies. */
  labels(task: Task): HeadLabel[];
  annotator?: string;
  /** The criteria of a rubric version the item's labels name (null when the project has no such version). */
  criteria(rubric: string, version: number): Criterion[] | null;
}

/** How often something the summary tells happened. */
export class Tally {
  private readonly counts = new Map<string, number>();
  add(key: string): void {
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }
  get(key: string): number {
    return this.counts.get(key) ?? 0;
  }
}

interface JudgedCodec {
  tasks: Task[];
  encode(j: ItemJudgements, tally: Tally): unknown[] | SkipReason;
  notes(tally: Tally): string[];
}

const UF_KEYS: ReadonlySet<string> = new Set(UF_ASPECTS);
const HS2_KEYS: ReadonlySet<string> = new Set(HS2_ATTRIBUTES);
const NO_STRENGTH = 'no-strength';

const noStrengthNote = (t: Tally) =>
  t.get(NO_STRENGTH) ? [`${t.get(NO_STRENGTH)} preference(s) were saved without a strength and are written as ±1 ("slightly better")`] : [];

function critiquesOf(j: ItemJudgements): Record<string, string> {
  const out: Record<string, string> = {};
  j.item.responses.forEach((_, i) => {
    const c = decideCritique(j.labels('critique'), responseLetter(i), j.annotator);
    if (c) out[responseLetter(i)] = c.text;
  });
  return out;
}

function bodyText(body: unknown, key: string): string | null {
  const value = isPlainObject(body) ? body[key] : undefined;
  return typeof value === 'string' ? value : null;
}

const ultrafeedback: JudgedCodec = {
  tasks: ['rubric', 'critique'],
  encode(j, t) {
    const d = decideRatings(j.labels('rubric'), j.annotator, UF_KEYS);
    const critiques = critiquesOf(j);
    if (d.skip && (d.skip !== 'unlabeled' || Object.keys(critiques).length === 0)) return d.skip;
    const own = d.skip ? true : d.labels.every((l) => l.kind === 'source');
    if (!own) t.add('people');
    return [encodeUltrafeedback({ item: j.item, ratings: d.skip ? {} : d.ratings, own, critiques })];
  },
  notes: (t) =>
    t.get('people')
      ? [`${t.get('people')} line(s) carry people's ratings: the file's own rationales and scores (overall_score, fine-grained_score) were left out of them, since they explain other ratings`]
      : [],
};

const helpsteer2: JudgedCodec = {
  tasks: ['rubric'],
  encode(j) {
    const d = decideRatings(j.labels('rubric'), j.annotator, HS2_KEYS);
    if (d.skip) return d.skip;
    const rows = encodeHelpsteer2(j.item, d.ratings);
    return rows.length ? rows : 'unlabeled';
  },
  notes: () => ['One row per rated response; an attribute nobody rated is null'],
};

const videofeedback: JudgedCodec = {
  tasks: ['rubric'],
  encode(j) {
    const d = decideRatings(j.labels('rubric'), j.annotator, VF_KEYS);
    if (d.skip) return d.skip;
    const rows = encodeVideoFeedback(j.item, d.ratings);
    return rows.length ? rows : 'unlabeled';
  },
  notes: () => ['One row per rated video; an aspect nobody rated is null'],
};

const helpsteer2Preference: JudgedCodec = {
  tasks: ['pairwise'],
  encode(j, t) {
    const d = decidePreference(j.item.responses.length, j.labels('pairwise'), j.annotator);
    if (d.skip) return d.skip;
    const score = signedScore(d.choice, d.strength, () => t.add(NO_STRENGTH));
    // The statement and elaboration of one label: the newest that wrote either.
    const said = d.labels.find((l) => bodyText(l.body, 'rationale') !== null || bodyText(l.body, 'elaboration') !== null);
    return [encodeHelpsteer2Preference(j.item, score, bodyText(said?.body, 'rationale'), bodyText(said?.body, 'elaboration'))];
  },
  notes: noStrengthNote,
};

const helpsteer3: JudgedCodec = {
  tasks: ['pairwise', 'critique'],
  encode(j, t) {
    const pairwise = j.labels('pairwise');
    const d = decidePreference(j.item.responses.length, pairwise, j.annotator);
    if (d.skip) return d.skip;
    const overall = signedScore(d.choice, d.strength, () => t.add(NO_STRENGTH));
    const critiques = j.labels('critique').filter((l) => !l.adjudicated);
    // Every annotator's own preference (people's too; models' never), the file's overall one apart.
    const individual: Hs3Preference[] = [];
    for (const l of pairwise.filter((x) => !x.adjudicated && x.kind !== 'model' && x.annotator !== SOURCE_ANNOTATOR).sort((a, b) => annotatorOrder(a.annotator, b.annotator))) {
      const choice = effectiveChoice(l);
      if (choice === null || choice === 'both_bad') {
        if (choice === 'both_bad') t.add('both-bad');
        continue;
      }
      const critique = critiques.find((c) => c.annotator === l.annotator);
      individual.push({
        annotator: l.annotator,
        score: signedScore(choice, l.strength, () => t.add(NO_STRENGTH)),
        reasoning: bodyText(l.body, 'rationale'),
        feedback: { A: critique ? critiqueText(critique, 'A') : null, B: critique ? critiqueText(critique, 'B') : null },
      });
    }
    return [encodeHelpsteer3(j.item, overall, individual)];
  },
  notes: (t) => [
    ...noStrengthNote(t),
    ...(t.get('both-bad') ? [`${t.get('both-bad')} individual preference(s) said both responses are bad, which HelpSteer3 cannot say; they were left out of individual_preference`] : []),
  ],
};

const prometheus: JudgedCodec = {
  tasks: ['rubric', 'critique'],
  encode(j, t) {
    const d = decideRatings(j.labels('rubric'), j.annotator);
    const criteria = d.skip ? null : j.criteria(d.rubric, d.version);
    const prompt = promptText(j.item.prompt).text;
    const lines: unknown[] = [];
    j.item.responses.forEach((r, i) => {
      const letter = responseLetter(i);
      const critique = decideCritique(j.labels('critique'), letter, j.annotator);
      const values = d.skip ? undefined : d.ratings[letter];
      const score = values && criteria ? prometheusScore(criteria, values) : null;
      if (!critique && score === null) return;
      if (!critique) return t.add('rating-only');
      if (score === null || d.skip) return t.add('critique-only');
      const rubric = scoreRubric(d.rubric, d.version, criteria!, values!);
      lines.push(encodePrometheus({ prompt, response: contentText(r.content), reference: j.item.reference, criteria: rubric.criteria, scores: rubric.scores, feedback: critique.text, score }));
    });
    if (lines.length) return lines;
    return d.skip === 'conflict' ? 'conflict' : 'unlabeled';
  },
  notes: (t) => [
    'orig_score is 1 + 4 × the response\'s normalized weighted rubric total, rounded (a single 1–5 criterion keeps its value)',
    ...(t.get('critique-only') ? [`${t.get('critique-only')} critiqued response(s) have no rubric rating to score them and were left out`] : []),
    ...(t.get('rating-only') ? [`${t.get('rating-only')} rated response(s) have no critique to be the feedback and were left out`] : []),
  ],
};

const critique: JudgedCodec = {
  tasks: ['critique', 'verdict', 'pairwise'],
  encode(j, t) {
    const { item } = j;
    const prompt = promptText(item.prompt).text;
    const itemVerdict = item.responses.length === 1 ? decideVerdict(j.labels('verdict'), j.annotator) : null;
    const pair = item.responses.length === 2 ? decidePreference(2, j.labels('pairwise'), j.annotator) : null;
    const lines: unknown[] = [];
    item.responses.forEach((r, i) => {
      const letter = responseLetter(i);
      const c = decideCritique(j.labels('critique'), letter, j.annotator);
      if (!c) return;
      const own = isPlainObject(c.label.body?.verdict) ? c.label.body.verdict[letter] : undefined;
      let verdict: CritiqueVerdict = own === 'good' || own === 'bad' ? own : null;
      if (verdict === null && itemVerdict && !itemVerdict.skip) verdict = itemVerdict.verdict;
      if (verdict === null && pair && !pair.skip) verdict = pair.choice === 'tie' ? 'tie' : pair.choice === letter ? 'chosen' : 'rejected';
      if (verdict === null) t.add('no-verdict');
      lines.push(encodeCritique(prompt, contentText(r.content), c.text, verdict));
    });
    return lines.length ? lines : 'unlabeled';
  },
  notes: (t) => (t.get('no-verdict') ? [`${t.get('no-verdict')} line(s) have "verdict": null: neither the critique nor the item's deciding label gives one`] : []),
};

export const JUDGED_CODECS: Record<JudgedFormat, JudgedCodec> = {
  ultrafeedback,
  helpsteer2,
  'helpsteer2-preference': helpsteer2Preference,
  helpsteer3,
  prometheus,
  critique,
  videofeedback,
};
