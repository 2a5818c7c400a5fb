// The item's criteria editor on a labeling screen: the ratings bar's "Criteria for this item…" and
// Shift+E open the dialog (ItemCriteriaDialog); it closes with its item, and the focus goes back.
import { useCallback, useEffect, useRef, useState } from 'react';
import { isTypingTarget } from '../../components/keys';
import { useShell } from '../../context';
import { ItemCriteriaDialog } from './ItemCriteriaDialog';
import type { Ratings } from './useRatings';

/**
 * The item's criteria editor for a labeling screen's ratings: `open` (also Shift+E, while the screen has
 * the keys), the dialog when it is open, and the sentence left by the last save on this item.
 */
export function useItemCriteriaEditor(ratings: Ratings) {
  const { keysEnabled } = useShell();
  const [open, setOpen] = useState(false);
  const [note, setNote] = useState<{ itemId: number; text: string } | null>(null);
  const { itemId, itemNumber, project, reload } = ratings;
  const returnTo = useRef<HTMLElement | null>(null);
  const show = useCallback(() => {
    const active = document.activeElement as HTMLElement | null;
    returnTo.current = active && active !== document.body && !active.closest('[data-stop]') ? active : null;
    setOpen(true);
  }, []);

  // Shift+E, before the ratings' own keys (a capturing listener on the window runs first).
  useEffect(() => {
    if (!keysEnabled || open || itemId === null) return;
    const onKey = (event: KeyboardEvent) => {
      if (!event.shiftKey || event.ctrlKey || event.metaKey || event.altKey || event.key.toLowerCase() !== 'e') return;
      if (event.defaultPrevented || event.isComposing || isTypingTarget(event.target)) return;
      event.preventDefault();
      event.stopPropagation();
      show();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [keysEnabled, open, itemId, show]);

  // Another item: the dialog closes (it never outlives its item).
  useEffect(() => setOpen(false), [itemId]);

  const close = useCallback(() => {
    setOpen(false);
    const back = returnTo.current;
    returnTo.current = null;
    if (back?.isConnected) back.focus();
    else (document.activeElement as HTMLElement | null)?.blur();
  }, []);

  const dialog =
    open && itemId !== null ? (
      <ItemCriteriaDialog
        key={itemId}
        project={project}
        itemId={itemId}
        itemNumber={itemNumber}
        inForce={ratings.sheet?.inForce ?? null}
        onClose={close}
        onSaved={async (text) => {
          // Saved: a sheet that cannot be read now is read again with the item next time.
          await reload(itemId).catch(() => undefined);
          setNote({ itemId, text });
          close();
        }}
      />
    ) : null;
  return { open: show, dialog, note: note && note.itemId === itemId ? note.text : null };
}
