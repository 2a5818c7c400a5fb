// The header's way to the ranking and verdict screens, next to Compare: `n` ranks (items with three or
// more responses), `u` gives verdicts (items with one response: unpaired data). The keys work on every
// project screen; a screen that uses them for itself (none today) marks them handled first.
import { useContext } from 'react';
import { Kbd } from '../../components/Kbd';
import { useGlobalKeys } from '../../components/keys';
import { ShellContext } from '../../context';
import type { Route } from '../../route';

/** The screen an item belongs on, by its number of responses. */
export function screenFor(responses: number): 'verdict' | 'compare' | 'rank' {
  return responses <= 1 ? 'verdict' : responses === 2 ? 'compare' : 'rank';
}

export const SCREEN_KEYS = { rank: 'n', verdict: 'u' } as const;

export function RankingTabs({ route, project, tab, navigate }: { route: Route; project: string; tab(active: boolean): string; navigate(route: Route): void }) {
  const shell = useContext(ShellContext);
  useGlobalKeys((event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || event.shiftKey) return;
    if (event.key === SCREEN_KEYS.rank && route.name !== 'rank') navigate({ name: 'rank', project });
    else if (event.key === SCREEN_KEYS.verdict && route.name !== 'verdict') navigate({ name: 'verdict', project });
  }, shell?.keysEnabled ?? true);
  return (
    <>
      <button className={tab(route.name === 'rank')} onClick={() => navigate({ name: 'rank', project })} title="Rank items with three or more responses (n)" data-testid="tab-rank">
        Rank <Kbd className="ml-1 hidden md:inline-flex">{SCREEN_KEYS.rank}</Kbd>
      </button>
      <button className={tab(route.name === 'verdict')} onClick={() => navigate({ name: 'verdict', project })} title="Good or bad: items with one response (u)" data-testid="tab-verdict">
        Verdict <Kbd className="ml-1 hidden md:inline-flex">{SCREEN_KEYS.verdict}</Kbd>
      </button>
    </>
  );
}
