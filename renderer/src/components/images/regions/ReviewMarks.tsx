// Everyone's region marks in the adjudication view: on each image, each person's boxes and points in their
// own colour and line style with their name and the mark's number and tag on a solid label (so colour is
// never the only cue), "not present" tags as chips; below the item, the list of marks with their notes.
import { Fragment, useCallback, useMemo, type ReactNode } from 'react';
import type { AdjudicationLabel } from '../../../../../shared/api';
import { responseLetter } from '../../../../../shared/letters';
import type { ImagePlace, RegionMark } from '../../../../../shared/regions';
import { boxStyle, ImageOverlayProvider, pointStyle, type OverlayInfo } from '../overlay';
import { labelShifts, labelStyle, marksOn, personStyle, textOn } from './regionModel';

interface Person {
  name: string;
  colour: string;
  line: 'solid' | 'dashed' | 'dotted';
  marks: RegionMark[];
}

const HALO = '0 0 0 1px rgba(0,0,0,0.75), inset 0 0 0 1px rgba(255,255,255,0.8)';
const placeWords = (at: ImagePlace) => (at === 'prompt' ? 'the prompt' : `response ${responseLetter(at)}`);

function peopleOf(labels: readonly AdjudicationLabel[]): Person[] {
  return labels.flatMap((l, i) => (l.regions?.length ? [{ name: l.annotator, ...personStyle(i), marks: l.regions }] : []));
}

function Badge({ person, mark, text, title, shift }: { person: Person; mark: RegionMark; text: string; title: string; shift: number }) {
  return (
    <span
      className="pointer-events-auto z-10 truncate rounded-[3px] px-1 text-[11px] leading-[1.5] font-semibold whitespace-nowrap ring-1 ring-black/60"
      style={{ ...labelStyle(mark), marginTop: shift || undefined, background: person.colour, color: textOn(person.colour) }}
      title={title}
      data-testid="review-region-label"
      data-annotator={person.name}
    >
      {text}
    </span>
  );
}

function ReviewLayer({ info, people }: { info: OverlayInfo; people: Person[] }) {
  // Every person's labels on this image, in drawing order, moved apart where they would cover each other.
  const here = people.map((person) => marksOn(person.marks, info.image.sha256, info.place));
  const shifts = labelShifts(here.flatMap((marks, p) => marks.map(({ mark, index }) => ({ mark, chars: `${people[p]!.name} ${index + 1}: ${mark.tag}`.length }))), info.box);
  let next = 0;
  return (
    <div className="pointer-events-none absolute inset-0" data-testid="review-region-layer">
      {people.map((person, p) =>
        here[p]!.map(({ mark, index }) => {
          const shift = shifts[next++] ?? 0;
          const title = `${person.name}, mark ${index + 1}: ${mark.kind === 'absent' ? 'not present' : mark.kind}, ${mark.tag}${mark.note ? ` — ${mark.note}` : ''}`;
          const text = `${person.name} ${index + 1}: ${mark.tag}`;
          const line = `2px ${person.line} ${person.colour}`;
          const common = { 'data-testid': 'review-region-mark', 'data-annotator': person.name, 'data-kind': mark.kind, 'data-tag': mark.tag, title };
          if (mark.kind === 'box' && mark.box)
            return (
              <Fragment key={`${person.name}:${index}`}>
                <div {...common} style={{ ...boxStyle(mark.box), border: line, boxShadow: HALO }} />
                <Badge person={person} mark={mark} text={text} title={title} shift={shift} />
              </Fragment>
            );
          if (mark.kind === 'point' && mark.point)
            return (
              <Fragment key={`${person.name}:${index}`}>
                <div {...common} className="h-4 w-4 rounded-full" style={{ ...pointStyle(mark.point), border: line, boxShadow: HALO }} />
                <Badge person={person} mark={mark} text={text} title={title} shift={shift} />
              </Fragment>
            );
          return null;
        }),
      )}
      <div className="absolute bottom-1 left-1 flex max-w-[95%] flex-wrap gap-1">
        {people.flatMap((person) =>
          marksOn(person.marks, info.image.sha256, info.place)
            .filter(({ mark }) => mark.kind === 'absent')
            .map(({ mark, index }) => (
              <span
                key={`${person.name}:${index}`}
                className="pointer-events-auto rounded-[3px] px-1.5 text-[11px] leading-[1.6] font-medium ring-1 ring-black/60"
                style={{ background: person.colour, color: textOn(person.colour), borderStyle: person.line }}
                title={`${person.name}: not present: ${mark.tag}${mark.note ? ` — ${mark.note}` : ''}`}
                data-testid="review-region-mark"
                data-annotator={person.name}
                data-kind="absent"
                data-tag={mark.tag}
              >
                {person.name}: ∅ no {mark.tag}
              </span>
            )),
        )}
      </div>
    </div>
  );
}

/** The list under the item: who marked what, where, with the notes. */
function MarksList({ people }: { people: Person[] }) {
  return (
    <section className="mx-auto max-w-[1800px] px-4 pb-4" data-testid="review-region-list">
      <h3 className="mb-1.5 text-[12px] font-semibold tracking-wide text-faint uppercase">Region marks</h3>
      <ul className="flex flex-col gap-1.5 text-[13px]">
        {people.map((person) => (
          <li key={person.name} className="flex flex-col gap-0.5">
            <span className="flex items-center gap-1.5 font-medium">
              <span aria-hidden className="inline-block h-3 w-5" style={{ borderTop: `3px ${person.line} ${person.colour}` }} />
              {person.name}
            </span>
            <ul className="pl-6 text-muted">
              {person.marks.map((mark, i) => (
                <li key={i} data-testid="review-region-item">
                  <span className="text-fg">
                    {i + 1}. {mark.kind === 'absent' ? 'not present' : mark.kind}: {mark.tag}
                  </span>{' '}
                  on {placeWords(mark.at)}
                  {mark.note ? <span> — “{mark.note}”</span> : null}
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Gives every image below it everyone's marks, and lists them under `children`. */
export function ReviewMarks({ labels, children }: { labels: readonly AdjudicationLabel[]; children: ReactNode }) {
  const people = useMemo(() => peopleOf(labels), [labels]);
  const overlay = useCallback((info: OverlayInfo) => <ReviewLayer info={info} people={people} />, [people]);
  return (
    <ImageOverlayProvider overlay={people.length ? overlay : null}>
      {children}
      {people.length > 0 && <MarksList people={people} />}
    </ImageOverlayProvider>
  );
}
