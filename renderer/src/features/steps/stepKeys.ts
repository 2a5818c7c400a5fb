// What each key does on the step screen, by what has the keyboard: the steps, the tag picker or the
// split caret. (The correction box is a text box: its keys are its own.) Answers whether the key was used.
import { digitOf, pageDirection } from '../../components/keys';
import type { Mode } from './mode';
import { filterChar } from './tagFilter';

export interface StepActions {
  mode: Mode;
  ready: boolean;
  move(delta: number): void;
  moveTo(index: 'first' | 'last'): void;
  rate(r: 1 | 0 | -1): void;
  firstError(): void;
  openTags(): void;
  openCorrection(): void;
  outcome(): void;
  /** A trajectory turn's tool call n (0-based): cycles its verdict (false: not a trajectory). */
  verdict(call: number): boolean;
  /** A multi-agent trajectory: the current turn (and its agent) decided the failure (false: not a trajectory). */
  attribution(): boolean;
  finish(): void;
  reference(): boolean;
  /** Shows or hides the file's own step ratings. */
  source(): void;
  /** A trajectory: shows the current turn's long results whole, or folds them again (false: not a trajectory). */
  unfold(): boolean;
  startSplit(): void;
  merge(): void;
  accept(): boolean;
  undo(): void;
  next(unlabeledOnly: boolean): void;
  previous(): void;
  switchResponse(delta: number): boolean;
  back(): boolean;
  page(direction: 1 | -1): void;
  tags: {
    /** In the tags shown (those that hold what was typed). */
    move(delta: number): void;
    toggle(index?: number): void;
    /** Types a character into the filter (false: a space with nothing typed, which toggles). */
    type(char: string): boolean;
    erase(): void;
    /** Empties the filter (false: it was empty). */
    clearFilter(): boolean;
    close(): void;
    /** After a tag on a trajectory turn: asking its severity (1 minor, 2 major, 3 critical). */
    asking: boolean;
    severity(level: 0 | 1 | 2): void;
    skipSeverity(): void;
  };
  split: { move(unit: 'word' | 'sentence' | 'end', direction: 1 | -1): void; apply(): void; cancel(): void };
}

/** The severity of the tag just applied: 1 / 2 / 3; Enter goes back to the tags; Esc closes. */
function severityKey(event: KeyboardEvent, a: StepActions): boolean {
  const digit = digitOf(event);
  if (digit !== null && digit >= 1 && digit <= 3 && !event.shiftKey) {
    a.tags.severity((digit - 1) as 0 | 1 | 2);
    return true;
  }
  switch (event.key) {
    case 'Enter':
      a.tags.skipSeverity();
      return true;
    case 'Escape':
    case 't':
      a.tags.close();
      return true;
    case 'c':
      a.tags.close();
      a.openCorrection();
      return true;
    default:
      return event.key !== '?';
  }
}

/**
 * The tag picker: letters type into its filter (the list narrows to the tags that hold them), digits
 * pick among the tags shown, the arrows move, Enter (or Space before anything is typed) picks the
 * highlighted one, Backspace erases, Esc empties the filter and then closes, Tab goes on to the correction.
 */
function pickerKey(event: KeyboardEvent, a: StepActions): boolean {
  if (a.tags.asking) return severityKey(event, a);
  const digit = digitOf(event);
  if (digit !== null && digit >= 1 && !event.shiftKey) {
    a.tags.toggle(digit - 1);
    return true;
  }
  const char = filterChar(event);
  if (char !== null && a.tags.type(char)) return true;
  switch (event.key) {
    case 'ArrowDown':
      a.tags.move(1);
      return true;
    case 'ArrowUp':
      a.tags.move(-1);
      return true;
    case 'Enter':
    case ' ':
      a.tags.toggle();
      return true;
    case 'Backspace':
      a.tags.erase();
      return true;
    case 'Escape':
      if (!a.tags.clearFilter()) a.tags.close();
      return true;
    case 'Tab':
      // From the tags straight to the correction box: what is typed next goes into the box.
      a.tags.close();
      a.openCorrection();
      return true;
    default:
      // The picker owns the keyboard: no other key acts meanwhile, so typed text never runs as
      // shortcuts (the shortcuts list still opens).
      return event.key !== '?';
  }
}

function splitKey(event: KeyboardEvent, a: StepActions): boolean {
  switch (event.key) {
    case 'ArrowRight':
      a.split.move('word', 1);
      return true;
    case 'ArrowLeft':
      a.split.move('word', -1);
      return true;
    case 'ArrowDown':
      a.split.move('sentence', 1);
      return true;
    case 'ArrowUp':
      a.split.move('sentence', -1);
      return true;
    case 'End':
      a.split.move('end', 1);
      return true;
    case 'Home':
      a.split.move('end', -1);
      return true;
    case 'Enter':
      a.split.apply();
      return true;
    case 'Escape':
    case 's':
      a.split.cancel();
      return true;
    default:
      return event.key !== '?';
  }
}

export function handleStepKey(event: KeyboardEvent, a: StepActions): boolean {
  if (!a.ready) {
    // No item on screen (every item labeled, say): the arrows still walk the items.
    if (event.ctrlKey || event.metaKey || event.altKey) return false;
    if (event.key === 'ArrowLeft') a.previous();
    else if (event.key === 'ArrowRight') a.next(event.shiftKey);
    else return false;
    return true;
  }
  if (event.metaKey || event.ctrlKey) {
    if (a.mode === 'keys' && event.code === 'KeyZ' && !event.shiftKey && !event.altKey) {
      a.undo();
      return true;
    }
    return false;
  }
  if (event.altKey) return false;
  if (a.mode === 'tags') return pickerKey(event, a);
  if (a.mode === 'split') return splitKey(event, a);
  // The correction box is opening (it takes the focus as it draws): keys meanwhile are its, not shortcuts.
  if (a.mode === 'correct') return event.key !== '?';
  if (a.mode !== 'keys') return false;
  const page = pageDirection(event);
  if (page !== null) {
    a.page(page);
    return true;
  }
  // A trajectory turn's tool calls: 1–9 cycle the verdict of call 1–9 (0 stays the neutral rating).
  const digit = digitOf(event);
  if (digit !== null && digit >= 1 && !event.shiftKey && a.verdict(digit - 1)) return true;
  switch (event.key) {
    case 'j':
    case 'ArrowDown':
      a.move(1);
      return true;
    case 'k':
    case 'ArrowUp':
      a.move(-1);
      return true;
    case 'Home':
      a.moveTo('first');
      return true;
    case 'End':
      a.moveTo('last');
      return true;
    case '=':
    case '+':
      a.rate(1);
      return true;
    case '0':
      a.rate(0);
      return true;
    case '-':
      a.rate(-1);
      return true;
    case 'f':
      a.firstError();
      return true;
    case 't':
      a.openTags();
      return true;
    case 'c':
      a.openCorrection();
      return true;
    case 'o':
      a.outcome();
      return true;
    case 'w':
      return a.attribution();
    case 'e':
      a.finish();
      return true;
    case 'r':
      return a.reference();
    case 'v':
      a.source();
      return true;
    case 'x':
      return a.unfold();
    case 's':
      a.startSplit();
      return true;
    case 'm':
      a.merge();
      return true;
    case 'a':
      return a.accept();
    case 'ArrowRight':
      a.next(event.shiftKey);
      return true;
    case 'ArrowLeft':
      a.previous();
      return true;
    case '[':
      return a.switchResponse(-1);
    case ']':
      return a.switchResponse(1);
    case 'Escape':
      return a.back();
    default:
      return false;
  }
}
