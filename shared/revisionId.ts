// A label revision's id, made where the label is made (the renderer) so a retried save is recognised:
// a UUIDv7 (RFC 9562) from the clock and 74 random bits. The core's pooled generator (electron/core/
// uuidv7.ts) serves bulk imports; this one runs in a browser too.
export function newRevisionId(now = Date.now()): string {
  const random = crypto.getRandomValues(new Uint8Array(10));
  const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  const ms = now.toString(16).padStart(12, '0');
  random[0] = (random[0]! & 0x0f) | 0x70; // version 7
  random[2] = (random[2]! & 0x3f) | 0x80; // variant 10
  const r = hex(random);
  return `${ms.slice(0, 8)}-${ms.slice(8, 12)}-${r.slice(0, 4)}-${r.slice(4, 8)}-${r.slice(8, 20)}`;
}
