// Marks in time for reviewers (issue 24, item 4). On the dashboard, beside region agreement: how well
// people's marks in time and first failures agree (core/review/moments.ts), each with the items it rests
// on. In the adjudication view: per response, everyone's marks on one timeline, a row per person in their
// own colour and line style (as their region marks), ranges as spans, instants and the first failure as
// ticks, tags on the marks; under it each pair of people's figures (momentAgreement's F1 of their marks,
// and how far apart their first failures are) and the notes.
import type { AdjudicationLabel, ItemView, ReviewReport } from '../../../../shared/api';
import { failuresAgree, INSTANT_TOLERANCE_S, momentAgreement, type Moment } from '../../../../shared/moments';
import { timecode, videosOf } from '../../../../shared/videos';
import { personStyle } from '../../components/images/regions/regionModel';
import { ChartCard, pct } from './charts';
import { figureText, letter, plural } from './reviewWords';

export function MomentAgreementCard({ moments }: { moments: ReviewReport['moments'] | undefined }) {
  if (!moments || (moments.marks.n === 0 && moments.failures.n === 0)) return null;
  const { marks, failures } = moments;
  return (
    <ChartCard
      testId="moment-agreement"
      title="Marks in time on videos"
      n={`n = ${plural(marks.n, 'item')} marked, ${plural(failures.n, 'item')} with a first failure, each judged by two or more people`}
      sentence={`Marks: for each pair of people, the share of their marks that pair up (same response and tag; ranges overlapping by half their union or more, instants within ${INSTANT_TOLERANCE_S} s), 1 when every mark has a partner. First failures: how often two people put a response's first failure within ${INSTANT_TOLERANCE_S} s of each other (or both none).`}
    >
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-[13px] tabular-nums">
        <dt className="font-medium">Marks, paired (F1)</dt>
        <dd data-testid="moment-marks" data-n={marks.n}>
          {figureText(marks)} {marks.value === null ? <span className="text-faint">({marks.reason})</span> : <span className="text-muted">over {plural(marks.n, 'item')}</span>}
        </dd>
        <dt className="font-medium">First failure agreement</dt>
        <dd data-testid="moment-failures" data-n={failures.n}>
          {figureText(failures, pct)} {failures.value === null ? <span className="text-faint">({failures.reason})</span> : <span className="text-muted">over {plural(failures.n, 'item')}</span>}
        </dd>
      </dl>
    </ChartCard>
  );
}

interface Person {
  name: string;
  colour: string;
  line: string;
  marks: Moment[];
  failure: Record<string, number | null>;
}

const when = (m: Moment) => (m.to === undefined ? timecode(m.from) : `${timecode(m.from)}–${timecode(m.to)}`);

/** Everyone's marks in time, a timeline per response; nothing where nobody marked. */
export function MomentTimelines({ labels, item }: { labels: readonly AdjudicationLabel[]; item: ItemView }) {
  const people: Person[] = labels.map((l, i) => ({ name: l.annotator, ...personStyle(i), marks: l.moments ?? [], failure: l.firstFailure ?? {} }));
  if (!people.some((p) => p.marks.length || Object.values(p.failure).some((v) => v !== null))) return null;
  const responses = item.responses.filter((r) => people.some((p) => p.marks.some((m) => m.at === r.index) || (p.failure[letter(r.index)] ?? null) !== null));
  return (
    <section className="mx-auto max-w-[1800px] px-4 pb-3" data-testid="review-moments">
      <h3 className="mb-1.5 text-[12px] font-semibold tracking-wide text-faint uppercase">Marks in time</h3>
      <div className="flex flex-col gap-3">
        {responses.map((r) => {
          const at = r.index;
          const probed = Math.max(0, ...videosOf(r.content).map((v) => v.video?.duration ?? 0));
          const ends = people.flatMap((p) => [...p.marks.filter((m) => m.at === at).map((m) => m.to ?? m.from), p.failure[letter(at)] ?? 0]);
          const duration = Math.max(probed, ...ends, 1);
          return <ResponseTimeline key={at} at={at} duration={duration} people={people} />;
        })}
      </div>
    </section>
  );
}

function ResponseTimeline({ at, duration, people }: { at: number; duration: number; people: Person[] }) {
  const pos = (t: number) => `${Math.min(100, (100 * t) / duration)}%`;
  const mine = (p: Person) => p.marks.filter((m) => m.at === at);
  const failureOf = (p: Person) => p.failure[letter(at)] ?? null;
  const pairs: [Person, Person][] = [];
  for (let i = 0; i < people.length; i++) for (let j = i + 1; j < people.length; j++) pairs.push([people[i]!, people[j]!]);
  return (
    <div className="rounded-md border border-line bg-surface p-2 text-[12px]" data-testid="review-moment-response" data-at={at}>
      <div className="mb-1 flex items-center gap-2">
        <span className="font-semibold">Response {letter(at)}</span>
        <span className="text-faint tabular-nums">0 – {timecode(duration)}</span>
      </div>
      <div className="grid grid-cols-[8em_1fr] items-center gap-x-2 gap-y-1">
        {people.map((p) => (
          <PersonRow key={p.name} person={p} marks={mine(p)} failure={failureOf(p)} pos={pos} />
        ))}
      </div>
      {pairs.length > 0 && (
        <ul className="mt-1.5 flex flex-wrap gap-x-4 text-muted tabular-nums" data-testid="review-moment-pairs">
          {pairs.map(([a, b]) => {
            const fa = failureOf(a);
            const fb = failureOf(b);
            const failure = fa === null && fb === null ? 'no first failure' : fa === null || fb === null ? 'first failure: one only' : `first failures ${Math.abs(fa - fb).toFixed(2)} s apart`;
            return (
              <li key={`${a.name}:${b.name}`} data-testid="review-moment-pair">
                {a.name} – {b.name}: marks {momentAgreement(mine(a), mine(b)).toFixed(2)}
                {' · '}
                <span className={failuresAgree(fa, fb) ? '' : 'text-bad'}>{failure}</span>
              </li>
            );
          })}
        </ul>
      )}
      <ul className="mt-1 flex flex-col text-muted">
        {people.flatMap((p) =>
          mine(p)
            .filter((m) => m.note)
            .map((m, i) => (
              <li key={`${p.name}:${i}`}>
                <span className="font-medium text-fg">{p.name}</span> {when(m)} {m.tag}: “{m.note}”
              </li>
            )),
        )}
      </ul>
    </div>
  );
}

function PersonRow({ person, marks, failure, pos }: { person: Person; marks: Moment[]; failure: number | null; pos: (t: number) => string }) {
  return (
    <>
      <span className="flex items-center gap-1.5 truncate font-medium">
        <span aria-hidden className="inline-block h-3 w-5 shrink-0" style={{ borderTop: `3px ${person.line} ${person.colour}` }} />
        {person.name}
      </span>
      <div className="relative h-6 rounded-[2px] bg-surface-2" data-testid="review-moment-row" data-annotator={person.name}>
        {marks.map((m, i) => (
          <span
            key={i}
            className="absolute top-1 bottom-1 rounded-[2px]"
            style={m.to === undefined ? { left: pos(m.from), width: 3, background: person.colour } : { left: pos(m.from), width: `calc(${pos(m.to - m.from)})`, border: `2px ${person.line} ${person.colour}`, background: `${person.colour}33` }}
            title={`${person.name}: ${m.tag} ${when(m)}${m.note ? ` — ${m.note}` : ''}`}
            data-testid="review-moment-mark"
            data-tag={m.tag}
          >
            <span className="absolute -top-0.5 left-1 text-[10px] leading-3 font-medium whitespace-nowrap text-fg">{m.tag}</span>
          </span>
        ))}
        {failure !== null && (
          <span className="absolute top-0 bottom-0 w-0.5 bg-bad" style={{ left: pos(failure) }} title={`${person.name}: first failure at ${timecode(failure)}`} data-testid="review-moment-failure">
            <span className="absolute bottom-0 left-1 text-[10px] leading-3 font-semibold whitespace-nowrap text-bad">first failure {timecode(failure)}</span>
          </span>
        )}
      </div>
    </>
  );
}
