// The Save button of the rubric editor and of an item's criteria, with Ctrl S on its key cap.
import { Kbd } from '../../components/Kbd';

/** Key caps on an accent button: light on the accent, in both themes. */
const PRIMARY_KBD =
  '[&_kbd]:border-white/40 [&_kbd]:bg-white/15 [&_kbd]:text-white dark:[&_kbd]:border-black/30 dark:[&_kbd]:bg-black/10 dark:[&_kbd]:text-[#111]';

/** The Save button of the rubric editor and of an item's criteria: Ctrl S on its key cap. */
export function SaveButton({ saving, disabled, onSave, testid }: { saving: boolean; disabled: boolean; onSave(): void; testid: string }) {
  return (
    <button
      className={`flex h-8 items-center gap-1.5 rounded-md border border-accent bg-accent px-3 font-medium text-white disabled:opacity-50 dark:text-[#111] ${PRIMARY_KBD}`}
      onClick={onSave}
      disabled={disabled}
      data-testid={testid}
    >
      {saving ? 'Saving…' : 'Save'} <Kbd>Ctrl S</Kbd>
    </button>
  );
}
