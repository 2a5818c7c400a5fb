// Where the annotator is on the step screen: the current step, and which small editor has the keyboard
// (tag picker, correction box, split caret). Both belong to one item and response: a new one opens on
// its first step with the keys on the steps. Read through refs, so a second key pressed before the next
// render sees what the first one did.
import { useRef, useState } from 'react';
import type { Mode } from './mode';

export interface Ui {
  key: string;
  mode: Mode;
  tagHighlight: number;
  /** What was typed in the tag picker: it shows only the tags that hold it. */
  tagFilter: string;
  splitAt: number | null;
  /** The tag picker on a trajectory turn asks the severity of the tag just applied. */
  askSeverity: boolean;
}

export function useStepCursor(at: string, stepCount: number) {
  const [cursorState, setCursorState] = useState({ key: '', index: 0 });
  const cursor = cursorState.key === at ? Math.min(cursorState.index, Math.max(0, stepCount - 1)) : 0;
  const cursorRef = useRef(cursor);
  cursorRef.current = cursor;
  const setCursor = (index: number) => {
    const clamped = Math.max(0, Math.min(stepCount - 1, index));
    cursorRef.current = clamped;
    setCursorState({ key: at, index: clamped });
  };
  const [uiState, setUiState] = useState<Ui>({ key: '', mode: 'keys', tagHighlight: 0, tagFilter: '', splitAt: null, askSeverity: false });
  const ui: Ui = uiState.key === at ? uiState : { key: at, mode: 'keys', tagHighlight: 0, tagFilter: '', splitAt: null, askSeverity: false };
  // Read through a ref, so a second key before the next render sees what the first one did.
  const uiRef = useRef(ui);
  uiRef.current = ui;
  const setUi = (patch: Partial<Ui>) => {
    const next = { ...uiRef.current, ...patch, key: at };
    uiRef.current = next;
    setUiState(next);
  };
  return { cursor, cursorRef, setCursor, ui, uiRef, setUi };
}
