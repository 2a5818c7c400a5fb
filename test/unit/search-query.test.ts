// The search box's language (shared/searchQuery.ts): words, phrases, prefixes, AND / OR / NOT,
// parentheses and field prefixes compile to an FTS5 expression in which every typed word is a quoted
// string; a malformed query is a sentence; and no input, however hostile, reaches FTS5 as syntax: every
// query that parses is one FTS5 accepts.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { parseSearch, SEARCH_MAX_CHARS } from '../../shared/searchQuery';
import { matchSetSql, sideMatch } from '../../electron/core/store/searchSql';

const match = (text: string) => {
  const parsed = parseSearch(text);
  if (!parsed.ok) throw new Error(`refused: ${parsed.error}`);
  return parsed.query.match;
};
const refusal = (text: string) => {
  const parsed = parseSearch(text);
  if (parsed.ok) throw new Error(`accepted as ${parsed.query.match}`);
  return parsed.error;
};

describe('parseSearch', () => {
  it('compiles words, phrases, prefixes, operators, groups and fields', () => {
    expect(match('rayleigh')).toBe('"rayleigh"');
    expect(match('blue sky')).toBe('("blue" AND "sky")');
    expect(match('"blue sky"')).toBe('"blue sky"');
    expect(match('scatter*')).toBe('"scatter" *');
    expect(match('"blue sk"*')).toBe('"blue sk" *');
    expect(match('cat OR dog')).toBe('("cat" OR "dog")');
    expect(match('a b OR c')).toBe('(("a" AND "b") OR "c")');
    expect(match('apple NOT pie')).toBe('("apple" NOT "pie")');
    expect(match('apple AND NOT pie')).toBe('("apple" NOT "pie")');
    expect(match('(cat OR dog) NOT bird')).toBe('(("cat" OR "dog") NOT "bird")');
    expect(match('response:rayleigh')).toBe('{response tool} : ("rayleigh")');
    expect(match('Rationale:"too long"')).toBe('{rationale} : ("too long")');
    expect(match('tool:(grep OR sed)')).toBe('{tool} : (("grep" OR "sed"))');
    expect(match('note:blur*')).toBe('{note} : ("blur" *)');
    // Lower-case operators and unknown prefixes are words; a URL is a phrase of its words.
    expect(match('salt and pepper')).toBe('("salt" AND "and" AND "pepper")');
    expect(match('http://example.com')).toBe('"http://example.com"');
  });

  it('says what is wrong with a malformed query', () => {
    expect(refusal('"blue sky')).toMatch(/quotation mark is not closed/);
    expect(refusal('(cat OR dog')).toMatch(/"\(" is not closed/);
    expect(refusal('cat)')).toMatch(/"\)" has no "\("/);
    expect(refusal('NOT pie')).toMatch(/NOT excludes from what comes before it/);
    expect(refusal('apple NOT')).toMatch(/NOT needs something after it/);
    expect(refusal('OR dog')).toMatch(/OR needs something on its left/);
    expect(refusal('cat OR')).toMatch(/OR needs something on its right/);
    expect(refusal('cat AND')).toMatch(/AND needs something on its right/);
    expect(refusal('prompt: x')).toMatch(/"prompt:" needs something after it/);
    expect(refusal('')).toMatch(/Nothing to search for/);
    expect(refusal('*** !!! ()')).toMatch(/Nothing to search for/);
    expect(refusal('x'.repeat(SEARCH_MAX_CHARS + 1))).toMatch(/longer than/);
    expect(refusal('('.repeat(40) + 'x' + ')'.repeat(40))).toMatch(/nests parentheses/);
    expect(refusal(Array.from({ length: 70 }, (_, i) => `w${i}`).join(' '))).toMatch(/more than 64 words/);
  });

  it('never hands FTS5 syntax it refuses, nor lets typed text act as syntax', () => {
    const db = new Database(':memory:');
    db.exec("CREATE VIRTUAL TABLE t USING fts5(prompt, response, tool, reference, rationale, critique, correction, note, tokenize = 'unicode61 remove_diacritics 2')");
    db.prepare('INSERT INTO t (prompt, response) VALUES (?, ?)').run('NEAR one two', 'secret "quoted" text');
    const run = (q: string) => db.prepare('SELECT COUNT(*) FROM t WHERE t MATCH ?').pluck().get(q) as number;
    const hostile = [
      'NEAR(one two)', 'prompt : one', '{prompt response}: one', '^one', 'one + two', 'one"two', '"""', '"a""b"', 'x* *', '*',
      'rank:1', 'rowid:1', 't:one', 'one\u0000two', 'one -- two', "one'; DROP TABLE t; --", '\\"', 'prompt:"', 'prompt:(', 'a:b:c', 'note:note:x',
      '(((a)))', 'a OR OR b', 'NOT', 'AND', 'OR', '"NOT"', 'prompt:NOT', 'ＮＥＡＲ(a b)', '\u{1F600}', 'é*', 'a:b"c"d',
    ];
    for (const q of hostile) {
      const parsed = parseSearch(q);
      if (parsed.ok) expect(() => run(parsed.query.match), q).not.toThrow();
      else expect(parsed.error, q).toMatch(/[A-Za-z]/);
    }
    // NEAR typed as a word is the word, not the operator.
    expect(run(match('NEAR(one two)'))).toBe(1);
    expect(run(match('"NEAR one"'))).toBe(1);
    // Random input: every accepted query runs, every refused one is a sentence.
    const alphabet = ['a', 'b', 'é', ' ', '"', '(', ')', '*', ':', 'AND ', 'OR ', 'NOT ', 'prompt:', 'tool:', '{', '}', '^', '+', '-', "'", '\\', '\u0000'];
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    for (let i = 0; i < 3000; i++) {
      const q = Array.from({ length: 1 + Math.floor(random() * 12) }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
      const parsed = parseSearch(q);
      if (parsed.ok) expect(() => run(parsed.query.match), q).not.toThrow();
      else expect(parsed.error.length, q).toBeGreaterThan(10);
    }
    db.close();
  });
});

describe('the halves of the index (store/searchSql.ts)', () => {
  it('names no column filter for a word asked in every column of a half: FTS5 would read each hit\'s positions to check it', () => {
    const node = (text: string) => {
      const parsed = parseSearch(text);
      if (!parsed.ok) throw new Error(parsed.error);
      return parsed.query.node;
    };
    expect(sideMatch(node('rayleigh'), 'item')).toBe('("rayleigh")');
    expect(sideMatch(node('rayleigh'), 'label')).toBe('("rayleigh")');
    expect(sideMatch(node('"blue sky" OR sea*'), 'item')).toBe('(("blue sky") OR ("sea" *))');
    // A field keeps its filter: fewer columns than the half.
    expect(sideMatch(node('prompt:rayleigh'), 'item')).toBe('{prompt} : ("rayleigh")');
    expect(sideMatch(node('response:rayleigh'), 'item')).toBe('{response tool} : ("rayleigh")');
    expect(sideMatch(node('prompt:rayleigh'), 'label')).toBeNull();
    expect(matchSetSql(node('rayleigh')).params).toEqual({ s0: '("rayleigh")', s1: '("rayleigh")' });
  });
});
