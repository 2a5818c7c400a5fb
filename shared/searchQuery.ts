// The search box's language, parsed here (the page, the CLI and the store read it alike) and compiled to
// an FTS5 MATCH expression in which every word the user typed is a quoted string: user text is never
// spliced into the expression raw, so no input can name a column, a NEAR group or an FTS5 option, and a
// malformed query is a sentence for the user, never an SQLite error.
//
//   words           Rayleigh scattering      every word, anywhere (AND is implied)
//   "a phrase"      "blue sky"               the words together, in order
//   prefix*         scatter*                 words starting so
//   AND OR NOT ()   (cat OR dog) NOT bird    upper case; NOT excludes what follows from what precedes
//   field:          response:rayleigh, rationale:"too long", tool:(grep OR sed)
//
// Fields: prompt, response (every turn's text; tool calls and results too), tool (tool calls and
// results only), reference, rationale, critique, correction, note (region notes). docs/data.md, "Search".

/** The columns of the index (electron/core/store/search.ts writes them in this order). */
export const SEARCH_COLUMNS = ['prompt', 'response', 'tool', 'reference', 'rationale', 'critique', 'correction', 'note'] as const;
export type SearchColumn = (typeof SEARCH_COLUMNS)[number];

/** A field name the user may type before a colon, and the columns it searches. */
export const SEARCH_FIELDS: Record<string, readonly SearchColumn[]> = {
  prompt: ['prompt'],
  response: ['response', 'tool'],
  responses: ['response', 'tool'],
  tool: ['tool'],
  tools: ['tool'],
  reference: ['reference'],
  ref: ['reference'],
  rationale: ['rationale'],
  critique: ['critique'],
  critiques: ['critique'],
  correction: ['correction'],
  corrections: ['correction'],
  note: ['note'],
  notes: ['note'],
};

/** The longest query, the most words and the deepest nesting a query may have. */
export const SEARCH_MAX_CHARS = 1000;
export const SEARCH_MAX_TERMS = 64;
export const SEARCH_MAX_DEPTH = 16;

export type SearchNode =
  | { kind: 'term'; text: string; phrase: boolean; prefix: boolean }
  | { kind: 'and' | 'or'; children: SearchNode[] }
  | { kind: 'not'; keep: SearchNode; drop: SearchNode }
  | { kind: 'field'; field: string; columns: readonly SearchColumn[]; child: SearchNode };

/** A parsed query: what was typed, its tree, and the FTS5 expression it compiles to. */
export interface SearchQuery {
  text: string;
  node: SearchNode;
  match: string;
}

export type SearchParse = { ok: true; query: SearchQuery } | { ok: false; error: string };

type Token = { t: '(' | ')' } | { t: 'op'; op: 'AND' | 'OR' | 'NOT' } | { t: 'word'; text: string; phrase: boolean; prefix: boolean; field: string | null };

/** Whether a word holds anything the index's tokenizer keeps (a letter or a digit). */
const SEARCHABLE = /[\p{L}\p{N}]/u;

class QueryError extends Error {}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let field: string | null = null;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      if (field !== null) throw new QueryError(`"${field}:" needs something after it, as in ${field}:word.`);
      i++;
      continue;
    }
    if (c === '(' || c === ')') {
      if (c === ')' && field !== null) throw new QueryError(`"${field}:" needs something after it, as in ${field}:word.`);
      tokens.push({ t: c });
      if (c === '(' && field !== null) {
        // A field before a parenthesis applies to the whole group: marked on the group by the parser.
        tokens.splice(tokens.length - 1, 0, { t: 'word', text: '', phrase: false, prefix: false, field });
        field = null;
      }
      i++;
      continue;
    }
    if (c === '"') {
      const end = text.indexOf('"', i + 1);
      if (end < 0) throw new QueryError('A quotation mark is not closed: close the phrase with another ".');
      const prefix = text[end + 1] === '*';
      tokens.push({ t: 'word', text: text.slice(i + 1, end), phrase: true, prefix, field });
      field = null;
      i = end + 1 + (prefix ? 1 : 0);
      continue;
    }
    let j = i;
    while (j < text.length && !/[\s()"]/.test(text[j]!)) j++;
    const word = text.slice(i, j);
    i = j;
    const colon = word.indexOf(':');
    if (field === null && colon > 0 && SEARCH_FIELDS[word.slice(0, colon).toLowerCase()]) {
      field = word.slice(0, colon).toLowerCase();
      const rest = word.slice(colon + 1);
      if (rest === '') continue;
      tokens.push(wordToken(rest, field));
      field = null;
      continue;
    }
    if (field === null && (word === 'AND' || word === 'OR' || word === 'NOT')) {
      tokens.push({ t: 'op', op: word });
      continue;
    }
    tokens.push(wordToken(word, field));
    field = null;
  }
  if (field !== null) throw new QueryError(`"${field}:" needs something after it, as in ${field}:word.`);
  return tokens;
}

function wordToken(word: string, field: string | null): Token {
  const prefix = word.length > 1 && word.endsWith('*');
  return { t: 'word', text: prefix ? word.slice(0, -1) : word, phrase: false, prefix, field };
}

/** Recursive descent over the tokens: or := and (OR and)*; and := unary ([AND] unary | NOT unary)*. */
function parseTokens(tokens: Token[]): SearchNode | null {
  let at = 0;
  let terms = 0;
  const peek = () => tokens[at];
  const or = (depth: number): SearchNode | null => {
    if (depth > SEARCH_MAX_DEPTH) throw new QueryError(`The query nests parentheses more than ${SEARCH_MAX_DEPTH} deep.`);
    const parts: SearchNode[] = [];
    for (;;) {
      const part = and(depth);
      if (part) parts.push(part);
      const next = peek();
      if (next?.t === 'op' && next.op === 'OR') {
        at++;
        if (!part) throw new QueryError('OR needs something on its left, as in cat OR dog.');
        const after = peek();
        if (!after || after.t === ')' || after.t === 'op') throw new QueryError('OR needs something on its right, as in cat OR dog.');
        continue;
      }
      break;
    }
    return parts.length === 0 ? null : parts.length === 1 ? parts[0]! : { kind: 'or', children: parts };
  };
  const and = (depth: number): SearchNode | null => {
    let parts: SearchNode[] = [];
    const joined = (): SearchNode | null => (parts.length === 0 ? null : parts.length === 1 ? parts[0]! : { kind: 'and', children: parts });
    for (;;) {
      const next = peek();
      if (!next || next.t === ')' || (next.t === 'op' && next.op === 'OR')) break;
      if (next.t === 'op' && next.op === 'AND') {
        at++;
        if (!parts.length) throw new QueryError('AND needs something on its left, as in cat AND dog.');
        const after = peek();
        if (!after || after.t === ')' || (after.t === 'op' && after.op !== 'NOT')) throw new QueryError('AND needs something on its right, as in cat AND dog.');
        continue;
      }
      if (next.t === 'op' && next.op === 'NOT') {
        at++;
        // FTS5's NOT is binary: what precedes it, less what follows (a AND NOT b reads the same).
        const keep = joined();
        if (!keep) throw new QueryError('NOT excludes from what comes before it: write it after a word, as in apple NOT pie.');
        const drop = unary(depth);
        if (!drop) throw new QueryError('NOT needs something after it, as in apple NOT pie.');
        parts = [{ kind: 'not', keep, drop }];
        continue;
      }
      const part = unary(depth);
      if (part) parts.push(part);
    }
    return joined();
  };
  const unary = (depth: number): SearchNode | null => {
    const token = tokens[at++];
    if (!token) return null;
    if (token.t === ')') throw new QueryError('A ")" has no "(" before it.');
    if (token.t === 'op') throw new QueryError(`${token.op} cannot follow another AND, OR or NOT.`);
    if (token.t !== 'word') return group(depth, null); // a '('
    if (token.text === '' && !token.phrase && token.field !== null) {
      at++; // the '(' the field stands before
      return group(depth, token.field);
    }
    if (!SEARCHABLE.test(token.text)) return null;
    if (++terms > SEARCH_MAX_TERMS) throw new QueryError(`The query has more than ${SEARCH_MAX_TERMS} words.`);
    const term: SearchNode = { kind: 'term', text: token.text, phrase: token.phrase, prefix: token.prefix };
    return token.field === null ? term : { kind: 'field', field: token.field, columns: SEARCH_FIELDS[token.field]!, child: term };
  };
  const group = (depth: number, field: string | null): SearchNode | null => {
    const inner = or(depth + 1);
    if (tokens[at]?.t !== ')') throw new QueryError('A "(" is not closed: add a ")".');
    at++;
    if (!inner) return null;
    return field === null ? inner : { kind: 'field', field, columns: SEARCH_FIELDS[field]!, child: inner };
  };
  const node = or(0);
  if (at < tokens.length) throw new QueryError('A ")" has no "(" before it.');
  return node;
}

/** An FTS5 string: the text in double quotes, each double quote inside doubled (a NUL would end it early: a space). */
function quoted(text: string): string {
  return `"${text.replace(/\0/g, ' ').replace(/"/g, '""')}"`;
}

/** The FTS5 MATCH expression of a tree: every word quoted, every column from SEARCH_COLUMNS. */
export function compileSearch(node: SearchNode): string {
  switch (node.kind) {
    case 'term':
      return node.prefix ? `${quoted(node.text)} *` : quoted(node.text);
    case 'and':
      return `(${node.children.map(compileSearch).join(' AND ')})`;
    case 'or':
      return `(${node.children.map(compileSearch).join(' OR ')})`;
    case 'not':
      return `(${compileSearch(node.keep)} NOT ${compileSearch(node.drop)})`;
    case 'field':
      return `{${node.columns.join(' ')}} : (${compileSearch(node.child)})`;
  }
}

/** Parses what the user typed: the query, or a sentence saying what is wrong with it. */
export function parseSearch(text: string): SearchParse {
  if (text.length > SEARCH_MAX_CHARS) return { ok: false, error: `The query is longer than ${SEARCH_MAX_CHARS} characters.` };
  try {
    const node = parseTokens(tokenize(text));
    if (!node) return { ok: false, error: 'Nothing to search for: type a word (letters or digits).' };
    return { ok: true, query: { text, node, match: compileSearch(node) } };
  } catch (error) {
    if (error instanceof QueryError) return { ok: false, error: error.message };
    throw error;
  }
}
