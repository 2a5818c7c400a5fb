// The line a labeling screen shows while it walks a saved view as its queue ("Label these next" on the
// Items screen, issue 22 §5): which view, and the way back to the screen's whole queue.
import { Kbd } from '../../components/Kbd';
import { useShell } from '../../context';

type Screen = 'compare' | 'rank' | 'verdict' | 'steps';

export function ViewLine({ project, screen, view }: { project: string; screen: Screen; view: string | undefined }) {
  const { navigate } = useShell();
  if (!view) return null;
  return (
    <div className="flex shrink-0 items-center gap-2 border-b border-accent/30 bg-accent-soft px-4 py-1 text-[12px] whitespace-nowrap text-fg" data-testid="queue-view" data-view={view}>
      <span>
        Walking the saved view <b className="font-semibold">“{view}”</b>: its items without your label
      </span>
      <button className="ml-auto flex items-center gap-1 text-accent underline-offset-2 hover:underline" onClick={() => navigate({ name: screen, project })} data-testid="queue-view-leave">
        Back to the whole queue {screen !== 'steps' && <Kbd>Shift Esc</Kbd>}
      </button>
    </div>
  );
}
