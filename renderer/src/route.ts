// Routes live in the URL fragment (#/p/<project>/datasets, …/models) so a reload keeps the annotator's place.
import { useCallback, useEffect, useState } from 'react';
import { REVIEW_TASKS, type ReviewTask } from '../../shared/api';

export type Route =
  | { name: 'start' }
  /** A project's address with no screen: it opens on the screen its items need (the project's opensOn). */
  | { name: 'open'; project: string }
  /** An address Arbiter does not know: the screen says so, with a way back. */
  | { name: 'unknown'; hash: string; project?: string }
  /**
   * The labeling screens. `view`: walk a saved view's items as the queue ("label these next"): the
   * view's name (its key in the items API, shared/api/items.ts), #/p/<project>/<screen>/view/<name>.
   */
  | { name: 'compare'; project: string; itemId?: number; view?: string }
  /** The step screen: one response's chain, rated step by step (response: source-order index). */
  | { name: 'steps'; project: string; itemId?: number; response?: number; view?: string }
  /** Items with three or more responses, ranked. */
  | { name: 'rank'; project: string; itemId?: number; view?: string }
  /** Items with one response, good or bad. */
  | { name: 'verdict'; project: string; itemId?: number; view?: string }
  /**
   * The items explorer: every item of every task, searched, faceted and sorted. `query`: the query in the
   * search language (a dashboard figure's drill-down), #/p/<project>/items/q/<query>; `view`: a saved
   * view opened by its name, #/p/<project>/items/view/<name>.
   */
  | { name: 'items'; project: string; query?: string; view?: string }
  | { name: 'datasets'; project: string }
  | { name: 'models'; project: string }
  /** The rubric editor (versions, labels per version, the rubric in force). */
  | { name: 'rubrics'; project: string }
  /** The guidelines editor, on the same screen as the rubrics. */
  | { name: 'guidelines'; project: string }
  /**
   * Team review: the disagreement queue of one task (pairwise unless named), an item's adjudication
   * view, the agreement dashboard, or the evaluation of people and models on the gold
   * (#/p/<project>/review[/<task>][/item/<id> | /agreement | /evaluation]).
   */
  | { name: 'review'; project: string; itemId?: number; task?: ReviewTask; tab?: 'queue' | 'agreement' | 'evaluation' };

export function parseRoute(hash: string): Route {
  let parts: string[];
  try {
    parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  } catch {
    return { name: 'unknown', hash };
  }
  // The token fragment the host prints (#token=…) is read and removed at start-up: the project list.
  if (parts.length === 0 || (parts.length === 1 && parts[0]!.startsWith('token='))) return { name: 'start' };
  if (parts[0] !== 'p' || !parts[1]) return { name: 'unknown', hash };
  const project = parts[1];
  const route = projectRoute(project, parts.slice(2));
  return route ?? { name: 'unknown', hash, project };
}

const isId = (part: string | undefined) => part !== undefined && /^\d+$/.test(part);

/** The screen of a project address (`rest`: what follows #/p/<project>/), or null for one Arbiter does not know. */
function projectRoute(project: string, rest: string[]): Route | null {
  const [screen, ...more] = rest;
  if (screen === undefined) return { name: 'open', project };
  if (screen === 'datasets' || screen === 'models' || screen === 'rubrics' || screen === 'guidelines') return more.length ? null : { name: screen, project };
  if (screen === 'items') return parseItems(project, more);
  if (screen === 'compare') return more.length === 0 ? { name: 'compare', project } : viewOf(more) ? { name: 'compare', project, view: viewOf(more)! } : null;
  if (screen === 'item') return isId(more[0]) && more.length === 1 ? { name: 'compare', project, itemId: Number(more[0]) } : null;
  if (screen === 'review') return parseReview(project, more);
  if (screen === 'steps' || screen === 'rank' || screen === 'verdict') {
    if (more.length === 0) return { name: screen, project };
    if (viewOf(more)) return { name: screen, project, view: viewOf(more)! };
    if (more[0] !== 'item' || !isId(more[1])) return null;
    const itemId = Number(more[1]);
    if (screen !== 'steps') return more.length === 2 ? { name: screen, project, itemId } : null;
    if (more.length === 2) return { name: 'steps', project, itemId };
    return more[2] === 'r' && isId(more[3]) && more.length === 4 ? { name: 'steps', project, itemId, response: Number(more[3]) } : null;
  }
  return null;
}

/** A saved view's name from `view/<name>`, the whole rest of an address (a "/" in it arrives as %2F); else undefined. */
function viewOf(rest: string[]): string | undefined {
  return rest.length === 2 && rest[0] === 'view' && rest[1]!.trim() ? rest[1] : undefined;
}

function parseItems(project: string, rest: string[]): Route | null {
  if (rest.length === 0) return { name: 'items', project };
  if (viewOf(rest)) return { name: 'items', project, view: viewOf(rest)! };
  // The query is one encoded part: a "/" in it arrives as %2F and is decoded with the rest.
  if (rest[0] === 'q' && rest.length === 2) return { name: 'items', project, query: rest[1]! };
  return null;
}

function parseReview(project: string, rest: string[]): Route | null {
  const task = REVIEW_TASKS.find((t) => t === rest[0]);
  if (task) rest = rest.slice(1);
  const byTask = task && task !== 'pairwise' ? { task } : {};
  if (rest[0] === 'item' && rest[1] && /^\d+$/.test(rest[1])) return { name: 'review', project, ...byTask, itemId: Number(rest[1]) };
  if (rest[0] === 'agreement' && rest.length === 1 && !task) return { name: 'review', project, tab: 'agreement' };
  if (rest[0] === 'evaluation' && rest.length === 1 && !task) return { name: 'review', project, tab: 'evaluation' };
  if (rest.length) return null;
  return { name: 'review', project, ...byTask };
}

export function routeHash(route: Route): string {
  if (route.name === 'start') return '#/';
  if (route.name === 'unknown') return route.hash;
  const base = `#/p/${encodeURIComponent(route.project)}`;
  if (route.name === 'open') return base;
  if (route.name === 'review') {
    if (route.tab === 'agreement' && !route.itemId) return `${base}/review/agreement`;
    if (route.tab === 'evaluation' && !route.itemId) return `${base}/review/evaluation`;
    const task = route.task && route.task !== 'pairwise' ? `/${route.task}` : '';
    return `${base}/review${task}${route.itemId ? `/item/${route.itemId}` : ''}`;
  }
  if (route.name === 'items') {
    if (route.view) return `${base}/items/view/${encodeURIComponent(route.view)}`;
    return route.query ? `${base}/items/q/${encodeURIComponent(route.query)}` : `${base}/items`;
  }
  if (route.name === 'datasets') return `${base}/datasets`;
  if (route.name === 'models') return `${base}/models`;
  if (route.name === 'rubrics' || route.name === 'guidelines') return `${base}/${route.name}`;
  if (route.view && !route.itemId) return `${base}/${route.name}/view/${encodeURIComponent(route.view)}`;
  if (route.name === 'steps' || route.name === 'rank' || route.name === 'verdict') {
    const item = route.itemId ? `/item/${route.itemId}` : '';
    const response = route.name === 'steps' && route.itemId && route.response !== undefined ? `/r/${route.response}` : '';
    return `${base}/${route.name}${item}${response}`;
  }
  return route.itemId ? `${base}/item/${route.itemId}` : `${base}/compare`;
}

export function useRoute(): [Route, (route: Route, replace?: boolean) => void] {
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
  /** `replace`: the new address takes the old one's place in the history (a project opening on its screen). */
  const navigate = useCallback((next: Route, replace = false) => {
    const hash = routeHash(next);
    if (location.hash !== hash) history[replace ? 'replaceState' : 'pushState'](null, '', hash);
    setRoute(next);
  }, []);
  return [route, navigate];
}
