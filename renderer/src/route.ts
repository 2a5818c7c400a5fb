// Routes live in the URL fragment (#/p/<project>/datasets, …/models) so a reload keeps the annotator's place.
import { useCallback, useEffect, useState } from 'react';
import { REVIEW_TASKS, type ReviewTask } from '../../shared/api';

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
  | { name: 'models'; project: string }
  /** The rubric editor (versions, labels per version, the rubric in force). */
  | { name: 'rubrics'; project: string }
  /** The guidelines editor, on the same screen as the rubrics. */
  | { name: 'guidelines'; project: string }
  /**
   * Team review: the disagreement queue of one task (pairwise unless named), an item's adjudication
   * view, or the agreement dashboard (#/p/<project>/review[/<task>][/item/<id> | /agreement]).
   */
  | { name: 'review'; project: string; itemId?: number; task?: ReviewTask; tab?: 'queue' | 'agreement' };

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  if (parts[0] !== 'p' || !parts[1]) return { name: 'start' };
  const project = parts[1];
  if (parts[2] === 'datasets') return { name: 'datasets', project };
  if (parts[2] === 'models') return { name: 'models', project };
  if (parts[2] === 'rubrics') return { name: 'rubrics', project };
  if (parts[2] === 'guidelines') return { name: 'guidelines', project };
  if (parts[2] === 'item' && parts[3] && /^\d+$/.test(parts[3])) return { name: 'compare', project, itemId: Number(parts[3]) };
  if (parts[2] === 'review') return parseReview(project, parts.slice(3));
  if (parts[2] === 'steps' || parts[2] === 'rank' || parts[2] === 'verdict') {
    const itemId = parts[3] === 'item' && parts[4] && /^\d+$/.test(parts[4]) ? Number(parts[4]) : undefined;
    if (parts[2] !== 'steps') return { name: parts[2], project, itemId };
    const response = parts[5] === 'r' && parts[6] && /^\d+$/.test(parts[6]) ? Number(parts[6]) : undefined;
    return { name: 'steps', project, itemId, response };
  }
  return { name: 'compare', project };
}

function parseReview(project: string, rest: string[]): Route {
  const task = REVIEW_TASKS.find((t) => t === rest[0]);
  if (task) rest = rest.slice(1);
  const byTask = task && task !== 'pairwise' ? { task } : {};
  if (rest[0] === 'item' && rest[1] && /^\d+$/.test(rest[1])) return { name: 'review', project, ...byTask, itemId: Number(rest[1]) };
  if (rest[0] === 'agreement') return { name: 'review', project, tab: 'agreement' };
  return { name: 'review', project, ...byTask };
}

export function routeHash(route: Route): string {
  if (route.name === 'start') return '#/';
  const base = `#/p/${encodeURIComponent(route.project)}`;
  if (route.name === 'review') {
    if (route.tab === 'agreement' && !route.itemId) return `${base}/review/agreement`;
    const task = route.task && route.task !== 'pairwise' ? `/${route.task}` : '';
    return `${base}/review${task}${route.itemId ? `/item/${route.itemId}` : ''}`;
  }
  if (route.name === 'datasets') return `${base}/datasets`;
  if (route.name === 'models') return `${base}/models`;
  if (route.name === 'rubrics' || route.name === 'guidelines') return `${base}/${route.name}`;
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
