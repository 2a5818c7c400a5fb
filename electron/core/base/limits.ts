// Every bound Arbiter puts on what a page, a file or a request can make it hold, in one table: each entry
// has a default, a unit and a sentence (the README's "Limits" table says the same). Any of them can be
// changed with an environment variable named after it: ARBITER_ and the name in UPPER_SNAKE_CASE
// (uploadMaxBytes → ARBITER_UPLOAD_MAX_BYTES). The variable is read when the limit is used, so it works
// alike for `arbiter serve`, the other commands, the desktop app and task workers (which inherit it).
//
// Values: bytes as a plain number or with a unit (512KiB, 64MiB, 16GiB, 1TiB; KB/MB/GB are powers of
// 1000); durations as milliseconds or with a unit (500ms, 90s, 15m, 2h); counts as plain integers.
//
// Adding a limit is one line in LIMITS; read it with `limit('name')`.
import type { ApiName } from '../../../shared/api';
import { invalidInput } from './errors';

type Unit = 'bytes' | 'duration' | 'count';

interface LimitSpec {
  unit: Unit;
  /** The value when no environment variable sets one. */
  value: number;
  /** The smallest value that makes sense (a lower one is refused with a sentence). */
  min: number;
  /** What it bounds, for people (README, error messages). */
  what: string;
}

const KiB = 1024;
const MiB = 1024 * KiB;
const GiB = 1024 * MiB;
const SECOND = 1000;
const MINUTE = 60 * SECOND;

const bytes = (value: number, what: string, min = 1): LimitSpec => ({ unit: 'bytes', value, min, what });
const count = (value: number, what: string, min = 1): LimitSpec => ({ unit: 'count', value, min, what });
const duration = (value: number, what: string, min = SECOND): LimitSpec => ({ unit: 'duration', value, min, what });

export const LIMITS = {
  uploadMaxBytes: bytes(16 * GiB, 'the largest file one upload may announce (the app and the browser host)'),
  uploadsMaxOpen: count(8, 'uploads open at once (started and not yet imported, merged or discarded)'),
  diskReserveBytes: bytes(1 * GiB, 'free space an upload must leave on the disk that holds the database', 0),
  uploadIdleMs: duration(15 * MINUTE, 'how long an upload may receive nothing before it is removed'),
  bodyMaxBytes: bytes(1 * MiB, "the largest request body for most of the browser host's operations", 1 * KiB),
  uploadChunkBodyMaxBytes: bytes(6 * MiB, 'the largest uploadChunk request body (a 4 MiB piece is 5.6 MB in base64)', 6 * MiB),
  largeBodyMaxBytes: bytes(32 * MiB, 'the largest body for operations that carry long text (previews, rubrics, guidelines, critiques, steps, pasted imports)', 1 * MiB),
  requestsMaxInFlight: count(16, 'request bodies the browser host reads at once; one more is answered 503'),
  recordMaxBytes: bytes(64 * MiB, 'the longest record an import reads (a line, a JSON array element, a parquet row); a longer one stops the import with its line number', 1 * KiB),
  recordMaxDepth: count(100, 'how deeply lists and objects may nest in an imported record; a deeper record is an invalid line', 8),
  imageMaxBytes: bytes(64 * MiB, 'the largest image an import stores (a file, a data URI, a Parquet cell); a larger one is an invalid line naming it', 1 * KiB),
  imageMaxPixels: count(100_000_000, 'the most pixels (width × height) an image may have; a larger one (a decompression bomb) is an invalid line naming it', 1_000_000),
  videoMaxBytes: bytes(4 * GiB, 'the largest video an import stores (copied and hashed as a stream, never whole in memory); a larger one is an invalid line naming it', 1 * KiB),
  imageDisplayMaxEdge: count(4096, 'the longest edge of the copy a page is sent of a bigger image (the original stays as it is for exports)', 256),
  hubPullBatchBytes: bytes(16 * MiB, 'the most revision text one batch of a team sync reads from the hub (the batch stops there; a line over recordMaxBytes is skipped, never read)', 1 * KiB),
  hubDeferredMax: count(10_000, 'revisions from the team hub kept waiting to merge (an item or rubric version this project lacks); more are dropped, counted in the sync summary'),
  hubDeferredMaxAgeMs: duration(14 * 24 * 60 * MINUTE, 'how long a revision from the team hub may wait to merge; older ones are dropped, counted in the sync summary'),
  backupsKept: count(5, "copies of the database kept in backups/ (made before each project delete) and among `arbiter backup`'s default-named copies; after each new copy the oldest go"),
} as const satisfies Record<string, LimitSpec>;

export type LimitName = keyof typeof LIMITS;

/** The environment variable that sets a limit: uploadMaxBytes → ARBITER_UPLOAD_MAX_BYTES. */
export function limitEnvName(name: LimitName): string {
  return `ARBITER_${name.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`;
}

const BYTE_UNITS: Record<string, number> = { b: 1, kb: 1e3, mb: 1e6, gb: 1e9, tb: 1e12, kib: KiB, mib: MiB, gib: GiB, tib: 1024 * GiB };
const TIME_UNITS: Record<string, number> = { ms: 1, s: SECOND, m: MINUTE, h: 60 * MINUTE };

function parseValue(unit: Unit, text: string): number | null {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  if (!match) return null;
  const number = Number(match[1]);
  const suffix = match[2]!.toLowerCase();
  const scale = unit === 'count' ? (suffix === '' ? 1 : undefined) : suffix === '' ? 1 : (unit === 'bytes' ? BYTE_UNITS : TIME_UNITS)[suffix];
  if (scale === undefined) return null;
  const value = Math.round(number * scale);
  return Number.isSafeInteger(value) ? value : null;
}

const EXAMPLES: Record<Unit, string> = { bytes: 'a size such as 512MiB or 4GiB', duration: 'a duration such as 90s or 15m', count: 'a whole number such as 8' };

/** A limit's value: its environment variable when set (checked), else its default. */
export function limit(name: LimitName, env: NodeJS.ProcessEnv = process.env): number {
  const spec: LimitSpec = LIMITS[name];
  const variable = limitEnvName(name);
  const raw = env[variable];
  if (raw === undefined || raw.trim() === '') return spec.value;
  const value = parseValue(spec.unit, raw);
  if (value === null) throw invalidInput(`${variable} is "${raw}", which is not ${EXAMPLES[spec.unit]}. Fix or unset it, then start again.`);
  if (value < spec.min) throw invalidInput(`${variable} is ${raw}, below its smallest useful value (${formatLimit(spec.unit, spec.min)}). Raise it or unset it, then start again.`);
  return value;
}

/** Reads every limit once, so a mistyped variable stops start-up with its sentence instead of a later request. */
export function checkLimits(env: NodeJS.ProcessEnv = process.env): void {
  for (const name of Object.keys(LIMITS) as LimitName[]) limit(name, env);
}

/** A limit's value as people read it: "16 GiB", "15 min", "8". */
export function formatLimit(unit: Unit, value: number): string {
  if (unit === 'count') return String(value);
  if (unit === 'duration') {
    if (value % (60 * MINUTE) === 0) return `${value / (60 * MINUTE)} h`;
    if (value % MINUTE === 0) return `${value / MINUTE} min`;
    if (value % SECOND === 0) return `${value / SECOND} s`;
    return `${value} ms`;
  }
  return formatBytes(value);
}

/** A byte count as people read it: "512 B", "4 MiB", "1.5 GiB". */
export function formatBytes(value: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let scaled = value;
  let i = 0;
  while (scaled >= 1024 && i < units.length - 1) {
    scaled /= 1024;
    i++;
  }
  const text = i === 0 || Number.isInteger(scaled) ? String(scaled) : scaled.toFixed(1);
  return `${text} ${units[i]}`;
}

/** Operations whose body may be longer than bodyMaxBytes: what each may carry is long text by design. */
const LARGE_BODY_OPERATIONS: ReadonlySet<ApiName> = new Set<ApiName>([
  'previewImport',
  'importContent',
  'createProject',
  'saveGuidelines',
  'saveRubric',
  'saveCritique',
  'saveSteps',
]);

/** The largest request body the browser host reads for an operation, and the limit that sets it. */
export function bodyLimitFor(operation: string, env: NodeJS.ProcessEnv = process.env): { bytes: number; name: LimitName } {
  const name: LimitName =
    operation === 'uploadChunk' ? 'uploadChunkBodyMaxBytes' : LARGE_BODY_OPERATIONS.has(operation as ApiName) ? 'largeBodyMaxBytes' : 'bodyMaxBytes';
  return { bytes: limit(name, env), name };
}
