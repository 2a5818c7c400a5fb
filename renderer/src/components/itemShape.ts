// What a labeling screen knows of its item's shape (Compare, Verdict, the rating sheet and the critique
// boxes share it), and the letters of its responses in source order.
import { responseLetter } from '../../../shared/letters';

export interface ItemShape {
  id: number;
  seq: number;
  /** The item's place on its screen ("Item 3 of 53"), for the status line. */
  position: number;
  responses: number;
  /** Source-order indexes left to right (one response: [0]). */
  shownOrder: number[];
}

export function lettersOf(responses: number): string[] {
  return Array.from({ length: responses }, (_, i) => responseLetter(i));
}
