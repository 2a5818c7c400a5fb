// The header's screen tabs, each with its key shown on it. The keys work on every project screen. No
// screen uses them for anything else: c Compare, n raNk, p Process (steps), u Unpaired verdicts,
// / the items explorer (its search box), d Datasets, i crIteria (the rubric and guidelines), m Models,
// q the review Queue. (s, r, a, f, t, e, o,
// k, w, l, v, b, g, h, x, y, z and digits belong to the screens, or are kept for them.)
import { memo, useContext } from 'react';
import { Kbd } from './Kbd';
import { useGlobalKeys } from './keys';
import { ShellContext } from '../context';
import type { Route } from '../route';

/** The screen an item belongs on, by its number of responses. */
export function screenFor(responses: number): 'verdict' | 'compare' | 'rank' {
  return responses <= 1 ? 'verdict' : responses === 2 ? 'compare' : 'rank';
}

export type TabScreen = 'compare' | 'rank' | 'steps' | 'verdict' | 'items' | 'datasets' | 'rubrics' | 'models' | 'review';

export const SCREEN_KEYS: Record<TabScreen, string> = { compare: 'c', rank: 'n', steps: 'p', verdict: 'u', items: '/', datasets: 'd', rubrics: 'i', models: 'm', review: 'q' };

const TABS: { screen: TabScreen; label: string; title: string }[] = [
  { screen: 'compare', label: 'Compare', title: 'Compare two responses: items with two' },
  { screen: 'rank', label: 'Rank', title: 'Rank items with three or more responses' },
  { screen: 'steps', label: 'Steps', title: 'Rate a chain step by step: items with one response (a pair’s responses from Compare with [ and ])' },
  { screen: 'verdict', label: 'Verdict', title: 'Good or bad: items with one response' },
  { screen: 'items', label: 'Items', title: 'Find any item: search every text, facets with counts, sort, saved views' },
  { screen: 'datasets', label: 'Datasets', title: 'Import, the items table, export' },
  { screen: 'rubrics', label: 'Rubric', title: 'Rubric criteria, versions and guidelines' },
  { screen: 'models', label: 'Models', title: 'Reward models: add, score, providers' },
  { screen: 'review', label: 'Review', title: 'Team review: where people disagree, adjudication, agreement figures' },
];

/** Which tab a route belongs to. */
function tabOf(route: Route): TabScreen | null {
  if (route.name === 'guidelines') return 'rubrics';
  return TABS.some((t) => t.screen === route.name) ? (route.name as TabScreen) : null;
}

/**
 * Memoised: the header renders again at every key (its count), the tabs only for a new route, project or
 * shell (`tab` and `navigate` are the same functions from render to render).
 */
export const ScreenTabs = memo(function ScreenTabs({ route, project, tab, navigate }: { route: Route; project: string; tab(active: boolean): string; navigate(route: Route): void }) {
  const shell = useContext(ShellContext);
  const current = tabOf(route);
  useGlobalKeys((event) => {
    // '/' takes Shift on some layouts (Shift+7 on a German keyboard): it counts with Shift too.
    if (event.ctrlKey || event.metaKey || event.altKey || (event.shiftKey && event.key !== '/')) return;
    const target = TABS.find((t) => SCREEN_KEYS[t.screen] === event.key);
    // On Datasets, / is its items table's own search box.
    if (!target || target.screen === current || (target.screen === 'items' && current === 'datasets')) return;
    event.preventDefault();
    navigate({ name: target.screen, project });
  }, shell?.keysEnabled ?? true);
  return (
    <>
      {TABS.map((t) => (
        <button
          key={t.screen}
          className={tab(current === t.screen)}
          onClick={() => navigate({ name: t.screen, project })}
          title={`${t.title} (${SCREEN_KEYS[t.screen]})`}
          aria-current={current === t.screen ? 'page' : undefined}
          aria-keyshortcuts={SCREEN_KEYS[t.screen]}
          data-testid={`tab-${t.screen}`}
        >
          {t.label} <Kbd className="ml-1 hidden md:inline-flex">{SCREEN_KEYS[t.screen]}</Kbd>
        </button>
      ))}
    </>
  );
});
