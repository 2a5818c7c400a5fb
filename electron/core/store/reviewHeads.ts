// The current pairwise labels of people and the first two responses' lengths, as `arbiter stats` and the
// review read them: columns (typed arrays), one entry a head, never an object a row. SQLite hands each
// row to a function of this connection that writes it into the columns (db.function: the values pass as
// numbers, no array made per row); a raw row array cost ~3× SQLite's own pass at 300k heads.
import type { Db } from './db';
import { VISIBLE } from './items';
import { countLabeled } from './projects';

/** Pairwise choices read as small numbers (no string made per row). */
export const CHOICE_CODES = ['A', 'B', 'tie', 'both_bad'] as const;
/** Choice codes past the four: another choice (its text in `otherChoices`), none. */
export const OTHER_CHOICE = 4;
export const NO_CHOICE = 5;

/**
 * The current pairwise labels of people, one entry a head, in the read's order (the project's items by
 * seq, each item's heads by annotator id). The small columns keep the codes of the packed integer.
 */
export interface PairwiseHeads {
  length: number;
  itemId: Float64Array;
  seq: Float64Array;
  /** Who: an index into `people`. */
  person: Int32Array;
  /** An index into CHOICE_CODES; OTHER_CHOICE; NO_CHOICE. */
  choice: Uint8Array;
  /** Entry → its choice's text, for the entries whose choice is OTHER_CHOICE. */
  otherChoices: Map<number, string>;
  /** 1–3; 0: none. */
  strength: Uint8Array;
  /** The response shown on the left: 0 unknown, 1 A, 2 B, 3 another. */
  left: Uint8Array;
  /** The revision's created_at in ms since 1970 (NaN when it is not a date). */
  savedMs: Float64Array;
  /** Time spent, ms; NaN when the body does not say. */
  timeMs: Float64Array;
  /** Whether a model's pre-label was visible: 0 unsaid, 1 hidden, 2 visible. */
  visible: Uint8Array;
  /** The people among the heads, in the order met: annotator id and name. */
  people: { id: number; name: string }[];
  /** The heads whose revision body holds region marks, with that body (the region watcher reads them). */
  bodies: { itemId: number; annotatorId: number; body: string }[];
}

/** Empty columns with room for `size` heads (`times`: false, no room for when each was saved and how long it took). */
export function emptyHeads(size = 1024, times = true): PairwiseHeads {
  const timed = times ? size : 0;
  return {
    length: 0,
    itemId: new Float64Array(size),
    seq: new Float64Array(size),
    person: new Int32Array(size),
    choice: new Uint8Array(size),
    otherChoices: new Map(),
    strength: new Uint8Array(size),
    left: new Uint8Array(size),
    savedMs: new Float64Array(timed),
    timeMs: new Float64Array(timed),
    visible: new Uint8Array(size),
    people: [],
    bodies: [],
  };
}

const GROWN = ['itemId', 'seq', 'person', 'choice', 'strength', 'left', 'savedMs', 'timeMs', 'visible'] as const;

/** Makes room for one more head (doubling the columns when full); its index. */
export function nextHead(heads: PairwiseHeads): number {
  if (heads.length === heads.itemId.length) {
    for (const name of GROWN) {
      const old = heads[name];
      const grown = new (old.constructor as new (n: number) => typeof old)(old.length * 2);
      grown.set(old as never);
      (heads as unknown as Record<string, typeof old>)[name] = grown;
    }
  }
  return heads.length++;
}

/** The head's columns cut to what was read (views, no copy), so two reads of the same heads compare equal. */
function trimmed(heads: PairwiseHeads): PairwiseHeads {
  const out = { ...heads };
  for (const name of GROWN) (out as unknown as Record<string, unknown>)[name] = heads[name].subarray(0, heads.length);
  return out;
}

/** A current pairwise label of a person as one object (what a read of the revision rows makes; see headsFromRows). */
export interface PairwiseHeadRow {
  itemId: number;
  seq: number;
  annotatorId: number;
  annotator: string;
  choice: string | null;
  strength: number | null;
  /** Which response was shown on the left: 0 (A), 1 (B), −1 (another); null when unknown. */
  shownLeft: number | null;
  /** The revision's created_at in ms since 1970 (NaN when it is not a date). */
  savedMs: number;
  timeMs: number | null;
  /** 1 or 0: whether a model's pre-label was visible; null when the body does not say. */
  prelabelVisible: number | null;
  /** The revision's body where it holds region marks, else ''. */
  body: string;
}

/** Rows made into the columns pairwiseHeads reads (the same codes; a strength past 3 keeps its low bits, as the packed integer does). */
export function headsFromRows(rows: Iterable<PairwiseHeadRow>): PairwiseHeads {
  const heads = emptyHeads();
  for (const row of rows) {
    const i = nextHead(heads);
    heads.itemId[i] = row.itemId;
    heads.seq[i] = row.seq;
    let person = heads.people.findIndex((p) => p.id === row.annotatorId);
    if (person < 0) person = heads.people.push({ id: row.annotatorId, name: row.annotator }) - 1;
    heads.person[i] = person;
    const code = choiceCode(row.choice);
    heads.choice[i] = code;
    if (code === OTHER_CHOICE) heads.otherChoices.set(i, row.choice!);
    heads.strength[i] = (row.strength ?? 0) & 3;
    heads.left[i] = row.shownLeft === null ? 0 : row.shownLeft === 0 ? 1 : row.shownLeft === 1 ? 2 : 3;
    heads.savedMs[i] = row.savedMs;
    heads.timeMs[i] = row.timeMs ?? Number.NaN;
    heads.visible[i] = row.prelabelVisible === null ? 0 : row.prelabelVisible === 0 ? 1 : 2;
    if (row.body) heads.bodies.push({ itemId: row.itemId, annotatorId: row.annotatorId, body: row.body });
  }
  return trimmed(heads);
}

/** A head's row as the review's fallback reads it: its revision's choice, the body when it holds region marks, created_at. */
type NeedsRow = [choice: string | null, body: string, createdAt: string];

/** The choice code of a pairwise choice's text. */
export function choiceCode(choice: string | null): number {
  if (choice === null) return NO_CHOICE;
  const code = (CHOICE_CODES as readonly string[]).indexOf(choice);
  return code >= 0 ? code : OTHER_CHOICE;
}

/** Pairwise choices as codes in SQL (CHOICE_CODES' order; then another choice, none). */
const CHOICE_SQL = `CASE h.choice ${CHOICE_CODES.map((c, i) => `WHEN '${c}' THEN ${i}`).join(' ')} ELSE CASE WHEN h.choice IS NULL THEN ${NO_CHOICE} ELSE ${OTHER_CHOICE} END END`;
/**
 * A head's small columns in one integer (each value SQLite hands over costs): the choice code (bits 0–2),
 * the strength 0–3 (0: none; bits 3–4), the pre-label's visibility (0: unsaid, 1: hidden, 2: visible;
 * bits 5–6) and the left response (0: unknown, 1: A, 2: B, 3: another; bits 7–8); the annotator's id
 * above them (× 512).
 */
const PACKED = `h.annotator_id * 512 + ${CHOICE_SQL} + 8 * COALESCE(h.strength, 0) + 32 * CASE h.prelabel_visible WHEN 0 THEN 1 WHEN 1 THEN 2 ELSE 0 END
  + 128 * CASE WHEN h.shown_left IS NULL THEN 0 WHEN h.shown_left = 0 THEN 1 WHEN h.shown_left = 1 THEN 2 ELSE 3 END`;

/** The heads label_head_needs_row (migration 17) lists: their review reads the revision row too. */
const NEEDS_ROW = "(h.regions = 1 OR h.saved_ms IS NULL OR h.choice NOT IN ('A', 'B', 'tie', 'both_bad'))";

/** Where the connection's row functions write (set for the length of one read; reads are synchronous). */
let onHead: ((itemId: number, seq: number, packed: number, savedMs: number | null, timeMs: number | null) => void) | null = null;
let onLengths: ((itemId: number, first: number, second: number) => void) | null = null;
const registered = new WeakSet<Db>();

function rowFunctions(db: Db): void {
  if (registered.has(db)) return;
  db.function('arbiter_review_head', (itemId: number, seq: number, packed: number, savedMs: number | null, timeMs: number | null) => {
    onHead!(itemId, seq, packed, savedMs, timeMs);
    return null;
  });
  db.function('arbiter_review_lengths', (itemId: number, first: number, second: number) => {
    onLengths!(itemId, first, second);
    return null;
  });
  registered.add(db);
}

/**
 * Current pairwise labels of people, by item, read from label_head alone (numbers only). The few heads
 * whose revision row is needed too (a body with region marks, a created_at the head could not keep as
 * ms, a choice other than the four) are read first through their own index. Every path that writes a
 * head writes these columns (store/headColumns.ts). `times`: false leaves savedMs and timeMs empty (the
 * disagreement queue alone reads neither: 32 MB at 2M heads).
 */
export function pairwiseHeads(db: Db, projectId: number, times = true): PairwiseHeads {
  if (countLabeled(db, projectId, 'pairwise') === 0) return trimmed(emptyHeads(1024, times));
  // Room for every current judgement of a person the counters know of, so the columns are not grown and
  // copied ten times on the way to 300k (models' and the file's own judgements are not read: no room).
  const counted = db
    .prepare("SELECT COALESCE(SUM(p.done), 0) FROM progress p JOIN annotator a ON a.id = p.annotator_id WHERE p.project_id = ? AND p.task = 'pairwise' AND a.kind = 'human'")
    .pluck()
    .get(projectId) as number;
  const heads = emptyHeads(Math.max(1024, counted), times);
  const humans = new Map(db.prepare("SELECT id, name FROM annotator WHERE kind = 'human'").raw().all() as [number, string][]);
  // Annotator id → index into heads.people (−1: not a person), asked once a head.
  const personOf = new Map<number, number>();
  const withRow = new Map(
    (
      db
        .prepare(
          `SELECT h.item_id || ':' || h.annotator_id, h.choice, CASE WHEN h.regions = 1 THEN l.body ELSE '' END, l.created_at
           FROM label_head h INDEXED BY label_head_needs_row JOIN label l ON l.seq = h.label_seq JOIN item i ON i.id = h.item_id
           WHERE ${NEEDS_ROW} AND h.task = 'pairwise' AND h.done = 1 AND i.project_id = ?`,
        )
        .raw()
        .all(projectId) as [string, string | null, string, string][]
    ).map(([key, ...rest]) => [key, rest as NeedsRow] as const),
  );
  rowFunctions(db);
  onHead = (itemId, seq, withAnnotator, savedMs, timeMs) => {
    const packed = withAnnotator % 512;
    const annotatorId = (withAnnotator - packed) / 512;
    let person = personOf.get(annotatorId);
    if (person === undefined) {
      const name = humans.get(annotatorId);
      person = name === undefined ? -1 : heads.people.push({ id: annotatorId, name }) - 1;
      personOf.set(annotatorId, person);
    }
    if (person < 0) return; // a model's or the file's own label
    const i = nextHead(heads);
    heads.itemId[i] = itemId;
    heads.seq[i] = seq;
    heads.person[i] = person;
    let code = packed & 7;
    heads.strength[i] = (packed >> 3) & 3;
    heads.visible[i] = (packed >> 5) & 3;
    heads.left[i] = (packed >> 7) & 3;
    if (times) {
      heads.savedMs[i] = savedMs ?? Number.NaN;
      heads.timeMs[i] = timeMs ?? Number.NaN;
    }
    const more = withRow.size ? withRow.get(`${itemId}:${annotatorId}`) : undefined;
    if (more) {
      const [choice, body, createdAt] = more;
      code = choiceCode(choice);
      if (code === OTHER_CHOICE) heads.otherChoices.set(i, choice!);
      if (body) heads.bodies.push({ itemId, annotatorId, body });
      if (savedMs === null && times) heads.savedMs[i] = Date.parse(createdAt);
    } else if (code === OTHER_CHOICE) code = NO_CHOICE; // its text is in the revision row: read as none, as before
    heads.choice[i] = code;
  };
  try {
    db.prepare(
      `SELECT count(arbiter_review_head(h.item_id, i.seq, ${PACKED}, h.saved_ms, h.time_ms))
       FROM label_head h
       JOIN item i ON i.id = h.item_id
       WHERE i.project_id = @project AND ${VISIBLE} AND h.task = 'pairwise' AND h.done = 1`,
    )
      .pluck()
      .get({ project: projectId });
  } finally {
    onHead = null;
  }
  return trimmed(heads);
}

/** Characters of the first two responses of items, as columns (one entry an item). */
export interface PairLengths {
  length: number;
  itemId: Float64Array;
  first: Float64Array;
  second: Float64Array;
}

/**
 * Characters of the first two responses of the project's visible pairs that a person judged (length bias
 * reads no other), in columns grown as read: at 10M items, 2M judged, all pairs as arrays of numbers held
 * ~470 MB while the review was read; these hold 24 bytes a judged pair.
 */
export function pairLengths(db: Db, projectId: number): PairLengths {
  let out: PairLengths = { length: 0, itemId: new Float64Array(1024), first: new Float64Array(1024), second: new Float64Array(1024) };
  rowFunctions(db);
  onLengths = (id, a, b) => {
    if (out.length === out.itemId.length) {
      const grow = (old: Float64Array) => {
        const next = new Float64Array(old.length * 2);
        next.set(old);
        return next;
      };
      out = { length: out.length, itemId: grow(out.itemId), first: grow(out.first), second: grow(out.second) };
    }
    out.itemId[out.length] = id;
    out.first[out.length] = a;
    out.second[out.length++] = b;
  };
  try {
    db.prepare(
      `SELECT count(arbiter_review_lengths(a.item_id, length(a.content), length(b.content))) FROM item i
       JOIN response a ON a.item_id = i.id AND a.idx = 0
       JOIN response b ON b.item_id = i.id AND b.idx = 1
       WHERE i.project_id = @project AND ${VISIBLE} AND i.response_count = 2
         AND EXISTS (SELECT 1 FROM label_head h JOIN annotator p ON p.id = h.annotator_id WHERE h.item_id = i.id AND h.task = 'pairwise' AND h.done = 1 AND p.kind = 'human')`,
    )
      .pluck()
      .get({ project: projectId });
  } finally {
    onLengths = null;
  }
  const { length } = out;
  return { length, itemId: out.itemId.slice(0, length), first: out.first.slice(0, length), second: out.second.slice(0, length) };
}
