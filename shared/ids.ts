// The one id helper, for core and the renderer alike: UUIDv7 (RFC 9562), 48-bit Unix milliseconds, then
// a 12-bit counter (rand_a) that keeps ids made in the same millisecond in order, then 62 random bits.
// A label revision's id is made where the label is made (the renderer) so a retried save is recognised;
// core makes the rest (bulk imports make hundreds of thousands), so random bytes come from a pooled
// buffer: one getRandomValues per 512 ids. Web Crypto only (a browser and Node alike). Content hashes
// (an item's uid, the same on every machine) are another thing, kept in core for node:crypto's synchronous
// SHA-256: electron/core/base/uid.ts says why.
const POOL_IDS = 512;
const pool = new Uint8Array(POOL_IDS * 8);
let poolOffset = pool.length;
let lastMs = -1;
let counter = 0;

const BYTE_HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));
const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');

function randomBytes8(): Uint8Array {
  if (poolOffset >= pool.length) {
    crypto.getRandomValues(pool);
    poolOffset = 0;
  }
  const slice = pool.subarray(poolOffset, poolOffset + 8);
  poolOffset += 8;
  return slice;
}

export function uuidv7(now = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    counter = 0;
  } else if (++counter > 0xfff) {
    // Over 4096 ids in one millisecond: borrow the next millisecond, so order still holds.
    lastMs++;
    counter = 0;
  }
  const r = randomBytes8();
  const ms = hex(lastMs, 12);
  const variantHigh = (r[0]! & 0x3f) | 0x80;
  return (
    `${ms.slice(0, 8)}-${ms.slice(8, 12)}-7${hex(counter, 3)}-${BYTE_HEX[variantHigh]}${BYTE_HEX[r[1]!]}-` +
    `${BYTE_HEX[r[2]!]}${BYTE_HEX[r[3]!]}${BYTE_HEX[r[4]!]}${BYTE_HEX[r[5]!]}${BYTE_HEX[r[6]!]}${BYTE_HEX[r[7]!]}`
  );
}
