// `arbiter stats`: each person's accuracy against gold per task (the review report's `gold`), with its 95%
// interval and n, the flag under the lead's bar with the gold items they got wrong, and their qualification.
import type { GoldAccuracyReport, PersonGoldAccuracy, QualificationResult } from '../../shared/api/goldRules';
import { plural } from '../../shared/plural';

const pct = (x: number) => `${Math.round(x * 100)}%`;

/** The wrong items by the id a file gave them, else #item id (as `arbiter review` lists them). */
function wrongItems(person: PersonGoldAccuracy, most = 20): string {
  const ids = person.wrong.slice(0, most).map((w) => w.externalId ?? `#${w.itemId}`);
  return `${ids.join(', ')}${person.wrong.length > most ? `, and ${person.wrong.length - most} more` : ''}`;
}

function qualificationWords(q: QualificationResult): string {
  if (q.state === 'pending') return `qualification ${q.done} of ${q.total} judged`;
  return `qualification ${q.state} ${pct(q.score ?? 0)} (pass mark ${pct(q.passMark)})${q.state === 'failed' ? ', held until the lead lets them retry' : ''}`;
}

export function goldLines(gold: GoldAccuracyReport | undefined): string[] {
  const lines: string[] = [];
  for (const t of gold?.tasks ?? []) {
    const rules = [`bar ${pct(t.bar)}`, ...(t.honeypotRate > 0 ? [`honeypots ${pct(t.honeypotRate)}`] : []), ...(t.qualification > 0 ? [`qualification ${plural(t.qualification, 'item')}`] : [])];
    lines.push(`  accuracy against gold, ${t.task} (${plural(t.goldItems, 'gold item')}; ${rules.join(', ')}):`);
    if (!t.people.length) lines.push('    nobody has judged a gold item yet');
    for (const p of t.people) {
      const a = p.accuracy;
      const figure = a.value === null ? (a.reason ?? 'no figure') : `${pct(a.value)} [${pct(a.low ?? 0)}–${pct(a.high ?? 0)}] n ${a.n}`;
      const flag = p.flagged ? `  FLAGGED under ${pct(t.bar)}; wrong on ${wrongItems(p)}` : '';
      const qualification = p.qualification ? `; ${qualificationWords(p.qualification)}` : '';
      lines.push(`    ${p.name}: ${figure}${qualification}${flag}`);
    }
  }
  return lines;
}
