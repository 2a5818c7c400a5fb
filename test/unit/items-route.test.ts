// The items explorer's address and a labeling screen walking a saved view: each parses back to what wrote it.
import { describe, expect, it } from 'vitest';
import { parseRoute, routeHash, type Route } from '../../renderer/src/route';

const roundTrip = (route: Route) => parseRoute(routeHash(route));

describe('the items explorer route', () => {
  it('carries a query, slashes and all, and a saved view', () => {
    const query = 'response:"Rayleigh scattering" AND model:wrong/ana';
    expect(routeHash({ name: 'items', project: 'p q', query })).toBe(`#/p/p%20q/items/q/${encodeURIComponent(query)}`);
    expect(roundTrip({ name: 'items', project: 'p q', query })).toEqual({ name: 'items', project: 'p q', query });
    expect(routeHash({ name: 'items', project: 'p', view: 'math / hard' })).toBe('#/p/p/items/view/math%20%2F%20hard');
    expect(roundTrip({ name: 'items', project: 'p', view: 'math / hard' })).toEqual({ name: 'items', project: 'p', view: 'math / hard' });
    expect(parseRoute('#/p/p/items')).toEqual({ name: 'items', project: 'p' });
  });

  it('lets every labeling screen walk a view', () => {
    for (const name of ['compare', 'rank', 'verdict', 'steps'] as const) {
      expect(routeHash({ name, project: 'p', view: 'next up' })).toBe(`#/p/p/${name}/view/next%20up`);
      expect(roundTrip({ name, project: 'p', view: 'next up' })).toEqual({ name, project: 'p', view: 'next up' });
    }
  });

  it('refuses what it does not know', () => {
    for (const hash of ['#/p/p/items/view/%20', '#/p/p/items/q', '#/p/p/items/z/1', '#/p/p/compare/view/2/3']) expect(parseRoute(hash).name).toBe('unknown');
  });
});
