// What each key means on a criterion's scale, in one place, so the buttons show the keys the keyboard
// uses. Binary: y / 1 yes, n / 0 no. Likert from 0 or 1 up to 9: the digit is the value. Likert with
// two-digit values (0–10, say): the digits are typed as the number (1 then 0 is 10; a 1 alone stands
// once nothing follows for a moment). Likert reaching below 0: digits count positions (1 is the lowest).
// Categories: 1 is the first, 2 the second… 0 the tenth; past ten, 0 and a digit (01 the eleventh). `-` or `x` marks "not applicable"
// (a value: null); Backspace or Delete takes the rating back (no value).
import type { RatingValue, Scale } from '../../../../shared/rubric';

export interface ScaleOption {
  value: number | string;
  /** What the button shows. */
  label: string;
  /** The key(s) that pick it, as typed; empty when no key does (a scale too long for keys). */
  key: string;
}

/** Likert scales with more steps than this get no buttons for each value (a number box instead). */
export const LIKERT_BUTTONS_MAX = 11;

export function scaleOptions(scale: Scale): ScaleOption[] {
  if (scale.type === 'binary')
    return [
      { value: 1, label: 'Yes', key: 'y' },
      { value: 0, label: 'No', key: 'n' },
    ];
  if (scale.type === 'categories') return scale.values.map((value, i) => ({ value, label: value, key: categoryKey(i) }));
  const options: ScaleOption[] = [];
  const count = scale.max - scale.min + 1;
  if (count > 100) return options;
  for (let v = scale.min; v <= scale.max; v++) {
    const key = scale.min >= 0 ? String(v) : count <= 9 ? String(v - scale.min + 1) : '';
    options.push({ value: v, label: String(v), key });
  }
  return options;
}

/**
 * The key of the i-th category (0-based): 1–9 for the first nine and 0 for the tenth, each one key; past
 * ten, 0 and a digit (01 the eleventh … 09 the nineteenth; a 0 alone stands for the tenth once nothing
 * follows for a moment); none beyond that (click).
 */
export function categoryKey(i: number): string {
  if (i < 9) return String(i + 1);
  if (i === 9) return '0';
  if (i < 19) return `0${i - 9}`;
  return '';
}

/** The words for a value: "Yes", "4", "violence", "n/a"; undefined (not rated) is "". */
export function valueText(scale: Scale, value: RatingValue | undefined): string {
  if (value === undefined) return '';
  if (value === null) return 'n/a';
  if (scale.type === 'binary') return value === 1 ? 'Yes' : value === 0 ? 'No' : String(value);
  return String(value);
}

export type DigitResult =
  /** A value, final. */
  | { kind: 'value'; value: number | string }
  /** The digits so far may grow into a longer number: wait, and take `value` if nothing follows. */
  | { kind: 'pending'; buffer: string; value: number | string | null }
  | { kind: 'none' };

/** Digits typed so far (buffer) plus one more, on a scale. */
export function digitInput(scale: Scale, buffer: string, digit: number): DigitResult {
  if (scale.type === 'binary') return digit === 1 || digit === 0 ? { kind: 'value', value: digit } : { kind: 'none' };
  const options = scaleOptions(scale);
  const typed = buffer + String(digit);
  const exact = options.find((o) => o.key === typed);
  const longer = options.some((o) => o.key.length > typed.length && o.key.startsWith(typed));
  if (exact && !longer) return { kind: 'value', value: exact.value };
  if (longer) return { kind: 'pending', buffer: typed, value: exact ? exact.value : null };
  // A digit that starts nothing after a buffer: start again from it alone.
  if (buffer) return digitInput(scale, '', digit);
  return { kind: 'none' };
}

/** A letter key on a binary criterion: y yes, n no. */
export function letterInput(scale: Scale, key: string): number | null {
  if (scale.type !== 'binary') return null;
  if (key === 'y' || key === 'Y') return 1;
  if (key === 'n' || key === 'N') return 0;
  return null;
}

/** The keys that pick a value, as the overlay and the hint say them. */
export function scaleKeyHint(scale: Scale): string {
  if (scale.type === 'binary') return 'y (1) yes · n (0) no';
  if (scale.type === 'categories') {
    const n = scale.values.length;
    if (n <= 9) return n === 1 ? '1' : `1–${n}`;
    if (n === 10) return '1–9, 0';
    return `1–9, 0, 01–${categoryKey(Math.min(n, 19) - 1)}`;
  }
  const options = scaleOptions(scale);
  const keyed = options.filter((o) => o.key);
  if (!keyed.length) return 'click a value';
  return `${keyed[0]!.key}–${keyed[keyed.length - 1]!.key}`;
}
