// UUIDv7 (RFC 9562): 48-bit Unix milliseconds, then a 12-bit counter (rand_a) that keeps ids made in
// the same millisecond in order, then 62 random bits. Random bytes come from a pooled buffer: one
// randomFillSync per 512 ids instead of one per id (bulk imports make hundreds of thousands).
import { randomFillSync } from 'node:crypto';

const POOL_IDS = 512;
const pool = Buffer.alloc(POOL_IDS * 8);
let poolOffset = pool.length;
let lastMs = -1;
let counter = 0;

function randomBytes8(): Buffer {
  if (poolOffset >= pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const slice = pool.subarray(poolOffset, poolOffset + 8);
  poolOffset += 8;
  return slice;
}

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');

export function uuidv7(now = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    counter = 0;
  } else if (++counter > 0xfff) {
    // Over 4096 ids in one millisecond: borrow the next millisecond, so order still holds.
    lastMs++;
    counter = 0;
  }
  const random = randomBytes8();
  const ms = hex(lastMs, 12);
  const variantHigh = (random[0]! & 0x3f) | 0x80;
  return (
    `${ms.slice(0, 8)}-${ms.slice(8, 12)}-7${hex(counter, 3)}-` +
    `${hex(variantHigh, 2)}${hex(random[1]!, 2)}-${random.subarray(2, 8).toString('hex')}`
  );
}
