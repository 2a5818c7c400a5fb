// Routes live in the URL fragment (#/p/<project>/datasets, …/models) so a reload keeps the annotator's place.
import { useCallback, useEffect, useState } from 'react';

export type Route =
  | { name: 'start' }
  | { name: 'compare'; project: string; itemId?: number }
  /** The step screen: one response's chain, rated step by step (response: source-order index). */
  | { name: 'steps'; project: string; itemId?: number; response?: number }
  /** Items with three or more responses, ranked. */
  | { name: 'rank'; project: string; itemId?: number }
  /** Items with one response, good or bad. */
  | { name: 'verdict'; project: string; itemId?: number }
  | { name: 'datasets'; project: string }
  | { name: 'models'; project: string };

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  if (parts[0] !== 'p' || !parts[1]) return { name: 'start' };
  const project = parts[1];
  if (parts[2] === 'datasets') return { name: 'datasets', project };
  if (parts[2] === 'models') return { name: 'models', project };
  if (parts[2] === 'item' && parts[3] && /^\d+$/.test(parts[3])) return { name: 'compare', project, itemId: Number(parts[3]) };
  if (parts[2] === 'steps' || parts[2] === 'rank' || parts[2] === 'verdict') {
    const itemId = parts[3] === 'item' && parts[4] && /^\d+$/.test(parts[4]) ? Number(parts[4]) : undefined;
    if (parts[2] !== 'steps') return { name: parts[2], project, itemId };
    const response = parts[5] === 'r' && parts[6] && /^\d+$/.test(parts[6]) ? Number(parts[6]) : undefined;
    return { name: 'steps', project, itemId, response };
  }
  return { name: 'compare', project };
}

export function routeHash(route: Route): string {
  if (route.name === 'start') return '#/';
  const base = `#/p/${encodeURIComponent(route.project)}`;
  if (route.name === 'datasets') return `${base}/datasets`;
  if (route.name === 'models') return `${base}/models`;
  if (route.name === 'steps' || route.name === 'rank' || route.name === 'verdict') {
    const item = route.itemId ? `/item/${route.itemId}` : '';
    const response = route.name === 'steps' && route.itemId && route.response !== undefined ? `/r/${route.response}` : '';
    return `${base}/${route.name}${item}${response}`;
  }
  return route.itemId ? `${base}/item/${route.itemId}` : base;
}

export function useRoute(): [Route, (route: Route) => void] {
  const [route, setRoute] = useState<Route>(() => parseRoute(location.hash));
  useEffect(() => {
    const onHash = () => setRoute(parseRoute(location.hash));
    window.addEventListener('hashchange', onHash);
    window.addEventListener('popstate', onHash);
    return () => {
      window.removeEventListener('hashchange', onHash);
      window.removeEventListener('popstate', onHash);
    };
  }, []);
  const navigate = useCallback((next: Route) => {
    const hash = routeHash(next);
    if (location.hash !== hash) history.pushState(null, '', hash);
    setRoute(next);
  }, []);
  return [route, navigate];
}
