// What a labeling screen says when it has nothing to walk: which items the project does hold, and the
// screens (with their keys) where they are labeled. "No pairs here. These 2 items are single responses:
// Steps p, Verdict u."
import type { ProjectShapes } from '../../../shared/api';
import { Kbd } from './Kbd';
import { QualificationNotice, useQualification } from './QualificationNotice';
import type { Route } from '../route';
import { SCREEN_KEYS } from './ScreenTabs';
import { useOverview } from './useOverview';

type Screen = 'compare' | 'rank' | 'steps' | 'verdict';

const TASK_OF = { compare: 'pairwise', rank: 'ranking', steps: 'steps', verdict: 'verdict' } as const;

const TITLE: Record<Screen, string> = {
  compare: 'No pairs here.',
  rank: 'No items with three or more responses here.',
  steps: 'No single responses here.',
  verdict: 'No single responses here.',
};

const plural = (n: number, one: string, many: string) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

/** The project's shapes in words, as one sentence. */
export function shapesSentence(shapes: ProjectShapes): string {
  const parts: [number, string, string, string, string][] = [
    [shapes.pairs, 'pair', 'pairs', 'This item is a pair', 'items are pairs'],
    [shapes.ranked, 'item with three or more responses', 'items with three or more responses', 'This item has three or more responses', 'items have three or more responses'],
    [shapes.single, 'single response', 'single responses', 'This item is a single response', 'items are single responses'],
  ];
  const present = parts.filter(([n]) => n > 0);
  if (present.length === 1) {
    const [n, , , one, many] = present[0]!;
    return n === 1 ? `${one}.` : `These ${n.toLocaleString()} ${many}.`;
  }
  const words = present.map(([n, one, many]) => plural(n, one, many));
  return `This project has ${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}.`;
}

const TARGETS: { screen: Screen; label: string; has(s: ProjectShapes): boolean }[] = [
  { screen: 'compare', label: 'Compare', has: (s) => s.pairs > 0 },
  { screen: 'rank', label: 'Rank', has: (s) => s.ranked > 0 },
  { screen: 'steps', label: 'Steps', has: (s) => s.single > 0 },
  { screen: 'verdict', label: 'Verdict', has: (s) => s.single > 0 },
];

export function EmptyState({ screen, project, navigate }: { screen: Screen; project: string; navigate(route: Route): void }) {
  const { overview, error } = useOverview(project);
  const shapes = overview?.shapes ?? null;
  const noItems = overview !== null && overview.items === 0;
  // A failed qualification holds the queue: that, not the project's shapes, is why nothing shows.
  const held = useQualification(project, TASK_OF[screen])?.state === 'failed';
  if (held)
    return (
      <div className="flex flex-1 flex-col items-center justify-center gap-1.5 p-8 text-[14px]" data-testid="empty-state" data-screen={screen}>
        <QualificationNotice project={project} task={TASK_OF[screen]} />
      </div>
    );
  const button = 'rounded border border-line-strong px-3 py-1.5 text-[13px] hover:bg-surface-2';
  return (
    <div className="flex flex-1 flex-col items-center justify-center gap-1.5 p-8 text-center text-[14px]" data-testid="empty-state" data-screen={screen}>
      {noItems ? (
        <>
          <p className="text-[15px] font-medium">This project has no items yet.</p>
          <p className="text-muted">Import a file of prompts and responses on the Datasets screen.</p>
          <div className="mt-2">
            <button className="rounded bg-accent px-3 py-1.5 text-[13px] font-medium text-white dark:text-[#111]" onClick={() => navigate({ name: 'datasets', project })}>
              Datasets <Kbd className="ml-1">{SCREEN_KEYS.datasets}</Kbd>
            </button>
          </div>
        </>
      ) : (
        <>
          <p className="text-[15px] font-medium">{TITLE[screen]}</p>
          {shapes && <p className="max-w-prose text-muted">{shapesSentence(shapes)}</p>}
          {!shapes && overview && <p className="text-muted">This project has {plural(overview.items, 'item', 'items')}; they are still being counted by shape.</p>}
          {error && <p className="text-bad">Could not read what this project holds: {error}</p>}
          {screen === 'steps' && shapes && shapes.pairs + shapes.ranked > 0 && (
            <p className="max-w-prose text-muted">
              A pair’s responses are rated step by step from Compare: <Kbd>[</Kbd> the left one, <Kbd>]</Kbd> the right one.
            </p>
          )}
          {shapes && (
            <div className="mt-2 flex flex-wrap justify-center gap-2">
              {TARGETS.filter((t) => t.screen !== screen && t.has(shapes)).map((t) => (
                <button key={t.screen} className={button} onClick={() => navigate({ name: t.screen, project })}>
                  {t.label} <Kbd className="ml-1">{SCREEN_KEYS[t.screen]}</Kbd>
                </button>
              ))}
            </div>
          )}
        </>
      )}
    </div>
  );
}
