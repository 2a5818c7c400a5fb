import { describe, expect, it } from 'vitest';
import { formatQuery, parseQuery, QueryError, withClause } from '../../shared/itemQuery';

describe('the items query language', () => {
  it('reads search text and facet clauses in any order', () => {
    const q = parseQuery('Rayleigh disagree=pairwise,ranking "blue sky" score>=0.8 meta.source="web crawl" labeled.ranking=nobody annotator!=bob');
    expect(q.text).toBe('Rayleigh "blue sky"');
    expect(q.clauses).toEqual([
      { facet: 'disagree', op: '=', values: ['pairwise', 'ranking'] },
      { facet: 'score', op: '>=', values: ['0.8'] },
      { facet: 'meta.source', op: '=', values: ['web crawl'] },
      { facet: 'labeled.ranking', op: '=', values: ['nobody'] },
      { facet: 'annotator', op: '!=', values: ['bob'] },
    ]);
  });

  it('keeps the full-text syntax as text (field prefixes, quoted words with =)', () => {
    expect(parseQuery('response:Rayleigh OR rationale:"too long" "x=1"')).toEqual({ text: 'response:Rayleigh OR rationale:"too long" "x=1"', clauses: [] });
  });

  it('refuses what it cannot mean, saying why', () => {
    expect(() => parseQuery('colour=red')).toThrow(/no facet "colour"/);
    expect(() => parseQuery('shape=blob')).toThrow(/"blob" is not one of pair/);
    expect(() => parseQuery('tag>=3')).toThrow(QueryError);
    expect(() => parseQuery('score>=high')).toThrow(/one number/);
    expect(() => parseQuery('meta=x')).toThrow(/needs a part/);
    expect(() => parseQuery('labeled.cooking=mine')).toThrow(/part is one of/);
    expect(() => parseQuery('tag="open')).toThrow(/quote is not closed/);
    expect(() => parseQuery('x'.repeat(2001))).toThrow(/at most 2000/);
  });

  it('writes a query back as text that reads the same', () => {
    const q = parseQuery('meta.source="web crawl" tag=a,b score<0.5 hello');
    expect(formatQuery(q)).toBe('meta.source="web crawl" tag=a,b score<0.5 hello');
    expect(parseQuery(formatQuery(q))).toEqual(q);
    expect(formatQuery(withClause(q, { facet: 'tag', op: '=', values: ['c'] }))).toBe('meta.source="web crawl" score<0.5 tag=c hello');
  });
});
