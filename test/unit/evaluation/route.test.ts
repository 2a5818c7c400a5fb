// The evaluation tab's address: #/p/<project>/review/evaluation, read and written back the same.
import { describe, expect, it } from 'vitest';
import { parseRoute, routeHash } from '../../../renderer/src/route';

describe('the evaluation route', () => {
  it('reads the review screen’s evaluation tab and writes the same address', () => {
    const route = parseRoute('#/p/my%20project/review/evaluation');
    expect(route).toEqual({ name: 'review', project: 'my project', tab: 'evaluation' });
    expect(routeHash(route)).toBe('#/p/my%20project/review/evaluation');
    expect(parseRoute('#/p/x/review/pairwise/evaluation').name).toBe('unknown');
  });
});
