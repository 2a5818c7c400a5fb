// Every shortcut in one place, opened with `?`.
import { useEffect, useRef } from 'react';
import { Kbd } from './Kbd';

/** One line: the keys (alternatives, each a combination) and what they do. */
type Shortcut = [keys: string[][], what: string];

const COMPARE: Shortcut[] = [
  [[['1']], 'Left is better'],
  [[['2']], 'Right is better'],
  [[['3']], 'Tie'],
  [[['4']], 'Both bad'],
  [[['Shift', '1']], 'Left is much better (Shift+2: right)'],
  [[['Alt', '1']], 'Left is slightly better (Alt+2: right)'],
  [[['s']], 'Arm “slightly” for the next choice'],
  [[['r']], 'Write a rationale'],
  [[['Esc']], 'Leave the text box, back to the keys'],
  [[['→']], 'Next item'],
  [[['←']], 'Previous item'],
  [[['Ctrl', 'Z']], 'Undo the last label (blind: the votes hide again)'],
  [[['a']], 'Accept the model’s suggestion (assist mode; Shift+A: much better)'],
  [[['['], [']']], 'Rate the left / right response step by step (Esc comes back)'],
  [[['k'], ['Shift', 'K']], 'Write a critique of the left / right response (Esc leaves)'],
];

/** Rubric ratings under the responses (compare and verdict screens, when the project has a rubric). */
const RATINGS: Shortcut[] = [
  [[['Tab']], 'Rate: the focus goes to the first criterion not rated yet'],
  [[['Tab'], ['↓']], 'Next criterion (left response, right response, then who wins each)'],
  [[['Shift', 'Tab'], ['↑']], 'Previous criterion'],
  [[['1–9'], ['0']], 'Rate the criterion with the focus (categories: 1 the first … 0 the tenth; 01–09 past ten)'],
  [[['y'], ['n']], 'Yes / no on a yes-or-no criterion'],
  [[['-'], ['x']], 'Not applicable (counts as rated for a required criterion)'],
  [[['Backspace']], 'Take the rating back'],
  [[['1'], ['2'], ['3']], 'On a winner: left / right / tie for that criterion'],
  [[['Esc']], 'Done rating: digits choose again (1–4)'],
  [[['Ctrl', 'Z']], 'Undo the last rating or choice'],
  [[['g']], 'Guidelines (g or Esc closes them)'],
  [[['Shift', 'E']], 'Criteria for this item: write or edit its own (Ctrl+S saves, Esc closes)'],
];

const STEPS: Shortcut[] = [
  [[['j'], ['↓']], 'Next step'],
  [[['k'], ['↑']], 'Previous step'],
  [[['='], ['+']], 'Good: +1 (then the next step)'],
  [[['0']], 'Neutral: 0'],
  [[['-']], 'Bad: −1'],
  [[['f']], 'First error here (the steps after it need no rating); again: take it back'],
  [[['t']], 'Error tags: type to filter, ↑ ↓ and Enter, or 1–9; Esc clears the filter, then done (Tab: on to the correction). Trajectory: then 1 minor / 2 major / 3 critical'],
  [[['c']], 'Write the corrected step (Esc or Ctrl+Enter: done). Tool-call turn: the corrected call, arguments checked as JSON (Ctrl+Enter saves)'],
  [[['1–9']], 'Trajectory: cycle the verdict of the turn’s tool call 1–9: correct / wrong / unnecessary'],
  [[['w']], 'Multi-agent trajectory: this turn (its agent) decided the failure; again: take it back'],
  [[['o']], 'Final answer: correct / incorrect / unsure; trajectory: task success / partial / failure (saved once you stop pressing)'],
  [[['e']], 'Finish reason: solution / found error / gave up / bad problem'],
  [[['r']], 'Equivalent to the reference? yes / no / partly'],
  [[['s']], 'Split the step: ← → word, ↑ ↓ sentence, Enter splits, Esc cancels'],
  [[['m']], 'Merge the step with the next'],
  [[['a']], 'Take the process model’s ratings (assist mode)'],
  [[['v']], 'Show / hide the step ratings the file carried'],
  [[['x']], 'Trajectory: unfold / fold the current turn’s long results and arguments'],
  [[['Ctrl', 'Z']], 'Undo the last change on this item'],
  [[['→'], ['←']], 'Next / previous item (Shift+→: next without your step labels)'],
  [[['['], [']']], 'Previous / next response of the item'],
  [[['Esc']], 'Back to the compare screen (a pair’s response)'],
  [[['Space'], ['PageDown']], 'Scroll the steps (Shift+Space / PageUp: up)'],
];

const RANKING: Shortcut[] = [
  [[['1–9']], 'Place that screen position next (best first)'],
  [[['=']], 'Tie the next pick with the one before'],
  [[['Backspace']], 'Take the last pick back (Shift: all)'],
  [[['Enter']], 'Save the ranking, then the next item'],
  [[['→'], ['←']], 'Next / previous item to rank'],
  [[['Ctrl', 'Z']], 'Undo the last save'],
];

const VERDICT: Shortcut[] = [
  [[['1'], ['2']], 'Good / bad (saves, then the next)'],
  [[['k']], 'Write a critique of the response (Esc leaves)'],
  [[['s']], 'Rate its steps (a response with steps)'],
  [[['→'], ['←']], 'Next / previous single response'],
  [[['Ctrl', 'Z']], 'Undo the last verdict'],
];

const REVIEW: Shortcut[] = [
  [[['q']], 'Disagreement queue (from the item or the agreement tab)'],
  [[['a']], 'Agreement dashboard'],
  [[['Shift', 'R']], 'Recompute the figures and the queue'],
  [[['j'], ['↓']], 'Queue: next item (k / ↑: previous)'],
  [[['Enter']], 'Queue: adjudicate the selected item'],
  [[['t'], ['r'], ['h']], 'Queue: task / reason / hide adjudicated'],
  [[['1'], ['2'], ['3'], ['4']], 'Resolve a pair: A / B better, tie, both bad (Shift: much; s first or Alt: slightly)'],
  [[['g'], ['b']], 'Resolve a verdict: good / bad'],
  [[['1–9'], ['='], ['Backspace']], 'Resolve a ranking: place next, tie, take back'],
  [[['f'], ['o']], 'Resolve steps: first error here / no error (j k steps, [ ] responses)'],
  [[['n']], 'Write the note (Esc: back to the keys)'],
  [[['f']], 'Fold / unfold a long prompt (steps: f marks the first error)'],
  [[['Ctrl', 'Enter']], 'Record the resolution, then the next unadjudicated item'],
  [[['←'], ['→']], 'Previous / next item of the queue'],
  [[['Esc']], 'Back to the queue'],
];

const READING: Shortcut[] = [
  [[['Space'], ['PageDown']], 'Scroll the responses down a page'],
  [[['Shift', 'Space'], ['PageUp']], 'Scroll the responses up a page'],
  [[['Tab']], 'Give the page keys to one response (Esc: both again); with a rubric, Tab rates instead'],
  [[['w']], 'Diff: mark the words only one response has'],
  [[['l']], 'Scroll the two responses together'],
  [[['f']], 'Fold / unfold a long prompt (a chat keeps its last question)'],
  [[['v']], 'Show / hide the label the file carried'],
];

/** Images in a prompt or a response (components/images): the zoom view has the keys while it is open. */
const IMAGES: Shortcut[] = [
  [[['z']], 'Zoom the image under the mouse (two images on screen: both, synced)'],
  [[['Shift', 'Z']], 'Zoom only that image'],
  [[['←'], ['→'], ['↑'], ['↓']], 'Zoom: pan (or drag)'],
  [[['+'], ['-']], 'Zoom: in / out (or the wheel)'],
  [[['0']], 'Zoom: fit the whole image again'],
  [[['1']], 'Zoom: full size (one image pixel to one screen pixel)'],
  [[['Esc']], 'Zoom: close'],
];

/** Videos in a prompt or a response (components/videos): every video on the screen plays on one clock. */
const VIDEOS: Shortcut[] = [
  [[['Space']], 'Play / pause every video together'],
  [[[','], ['.']], 'One frame back / forward (paused); with an image on the item, . marks it (and z zooms it) once the mouse last pointed at it'],
  [[['<'], ['>']], 'Slower / faster (0.25× to 2×)'],
  [[['Shift', 'I'], ['Shift', 'O']], 'Loop from / to the current moment'],
  [[['\\']], 'Stop looping'],
  [[['Shift', 'M']], 'Sound on / off (muted at first)'],
  [[['z']], 'Zoom: the videos fill the window side by side (Esc closes)'],
  [[['Shift', 'F']], 'Mark the first failure at this moment (on your judgement of the item)'],
  [[['Shift', 'T']], 'Mark an instant here on the video last pointed at (paused: its tag, Enter, its note)'],
  [[['Shift', 'L']], 'The loop range becomes a range mark'],
  [[['Shift', 'N'], ['Shift', 'P']], 'Next / previous mark in time'],
  [[['Shift', 'X']], 'Remove the selected mark in time'],
  [[['Ctrl', 'Z']], 'Take the last change of marks in time back (then: the screen’s undo)'],
];

/** Region marks on an image (components/images/regions), on the compare, rank and verdict screens. */
const REGIONS: Shortcut[] = [
  [[['.']], 'Mark the image under the mouse: a crosshair (or drag a box with the mouse)'],
  [[['←'], ['→'], ['↑'], ['↓']], 'Marking: move the crosshair (Shift: 10%, Alt: 0.5%)'],
  [[['Enter']], 'Marking: place a box’s corner (twice: the opposite one), or the point'],
  [[['b'], ['p']], 'Marking: box / point'],
  [[['n']], 'Marking: a tagged thing is not present on the image'],
  [[['1–9']], 'Marking: open mark 1–9 (tag, note, Del removes it); in the box: 1–5 choose the tag, t your own'],
  [[['Tab']], 'Marking: the next image'],
  [[['Esc'], ['.']], 'Marking: done (Esc first takes a placed corner back)'],
];

/** The screens' keys, as the header's tabs show them (features/rankings/ScreenTabs.tsx). */
const ANYWHERE: Shortcut[] = [
  [[['c']], 'Compare screen (two responses)'],
  [[['n']], 'Rank screen (three or more responses)'],
  [[['p']], 'Steps screen (a chain rated step by step)'],
  [[['u']], 'Verdict screen (one response: good / bad)'],
  [[['/']], 'Items: search every text, facets, sort, saved views (on Datasets: its table’s search)'],
  [[['d']], 'Datasets screen (import, items, export)'],
  [[['i']], 'Rubric screen (criteria, versions, guidelines)'],
  [[['m']], 'Models screen (add, score, providers)'],
  [[['q']], 'Review screen (disagreements, adjudication, agreement)'],
  [[['b']], 'Pre-labels: blind / assist for the whole project (asks first: Enter switches)'],
  [[['g']], 'Guidelines, while labeling (Esc closes)'],
  [[['?']], 'This list'],
  [[['Esc']], 'Close this list'],
];

const ITEMS: Shortcut[] = [
  [[['/']], 'Search and filter: words, "a phrase", prefix*, AND / OR / NOT, response: …, facet=value'],
  [[['j'], ['↓']], 'Next item (k / ↑: previous)'],
  [[['x']], 'Select the item, or take it out of the selection'],
  [[['Shift', 'j'], ['Shift', 'k']], 'Extend the selection'],
  [[['Enter']], 'Open the item on its screen (or double-click)'],
  [[['Esc']], 'Clear the selection (in the box: back to the list)'],
];

const PROJECTS: Shortcut[] = [
  [[['↑'], ['↓']], 'Choose a project'],
  [[['Enter']], 'Open it on the screen its items need'],
  [[['F2'], ['r']], 'Rename it'],
  [[['Del']], 'Delete it (asks first; a backup is kept)'],
  [[['c']], 'New project: type its name'],
];

function Group({ title, keys }: { title: string; keys: Shortcut[] }) {
  return (
    <section>
      <h3 className="mb-2 text-[11px] font-semibold tracking-wide text-faint uppercase">{title}</h3>
      <dl className="grid grid-cols-[auto_1fr] items-center gap-x-3 gap-y-1.5 text-[13px]">
        {keys.map(([alternatives, what]) => (
          <div key={what} className="contents">
            <dt className="flex items-center gap-1 justify-self-start whitespace-nowrap">
              {alternatives.map((combo, a) => (
                <span key={combo.join('+')} className="flex items-center gap-1">
                  {a > 0 && <span className="text-faint">/</span>}
                  {combo.map((k, i) => (
                    <span key={k} className="flex items-center gap-1">
                      {i > 0 && <span className="text-faint">+</span>}
                      <Kbd>{k}</Kbd>
                    </span>
                  ))}
                </span>
              ))}
            </dt>
            <dd className="text-muted">{what}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

export function ShortcutsOverlay({ onClose }: { onClose(): void }) {
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    panel.current?.focus();
  }, []);
  return (
    <div
      className="fixed inset-0 z-50 flex items-center justify-center bg-black/40 p-4 backdrop-blur-[1px]"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
      data-testid="shortcuts"
    >
      <div
        ref={panel}
        tabIndex={-1}
        role="dialog"
        aria-modal="true"
        aria-label="Keyboard shortcuts"
        className="max-h-full w-full max-w-4xl overflow-y-auto xl:max-w-6xl rounded-lg border border-line bg-surface p-5 shadow-xl outline-none"
      >
        <div className="mb-3 flex items-baseline justify-between">
          <h2 className="text-[15px] font-semibold">Keyboard shortcuts</h2>
          <button className="text-[12px] text-muted hover:text-fg" onClick={onClose}>
            Close <Kbd>Esc</Kbd>
          </button>
        </div>
        <div className="grid gap-x-8 gap-y-5 md:grid-cols-2 xl:grid-cols-3">
          <div className="flex flex-col gap-5">
            <Group title="Compare" keys={COMPARE} />
            <Group title="Rank (three or more responses)" keys={RANKING} />
            <Group title="Verdict (one response)" keys={VERDICT} />
            <Group title="Review (team leads)" keys={REVIEW} />
          </div>
          <div className="flex flex-col gap-5">
            <Group title="Ratings (with a rubric)" keys={RATINGS} />
            <Group title="Steps (process supervision)" keys={STEPS} />
          </div>
          <div className="flex flex-col gap-5">
            <Group title="Reading" keys={READING} />
            <Group title="Images" keys={IMAGES} />
            <Group title="Videos" keys={VIDEOS} />
            <Group title="Region marks" keys={REGIONS} />
            <Group title="Anywhere" keys={ANYWHERE} />
            <Group title="Items explorer" keys={ITEMS} />
            <Group title="Projects screen" keys={PROJECTS} />
          </div>
        </div>
        <p className="mt-4 border-t border-line pt-3 text-[12px] text-faint">
          Shortcuts never fire while you type in a text box. While a criterion has the focus, digits rate it and never choose; Esc
          leaves the ratings. Required criteria must have a value (or n/a) before a choice is saved. Plain 1 / 2 means “clearly better”. Left and Right are the sides of your
          screen; A and B always mean the file’s order (A is its first response).
        </p>
      </div>
    </div>
  );
}
