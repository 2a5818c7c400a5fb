// On a compare-screen column: opens that response's steps on the step screen (`[` for the left column,
// `]` for the right). Esc on the step screen comes back to the compare screen on the same item.
import { Kbd } from './Kbd';
import { useGlobalKeys } from './keys';
import { useShell } from '../context';

export function StepsLink({ project, itemId, response, side }: { project: string; itemId: number; response: number; side: 'left' | 'right' }) {
  const { navigate, keysEnabled } = useShell();
  const key = side === 'left' ? '[' : ']';
  const open = () => navigate({ name: 'steps', project, itemId, response });
  useGlobalKeys((event) => {
    if (event.key !== key || event.ctrlKey || event.metaKey || event.altKey) return;
    event.preventDefault();
    open();
  }, keysEnabled);
  return (
    <button
      className="flex items-center gap-1 rounded px-1 text-[12px] text-muted hover:bg-surface-2 hover:text-fg"
      onClick={open}
      title={`Rate this response step by step (${key}); Esc comes back here`}
      data-testid={`open-steps-${side}`}
    >
      Steps <Kbd>{key}</Kbd>
    </button>
  );
}
