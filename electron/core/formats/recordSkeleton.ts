// What a format keeps of a record's own shape, so that its export writes the record back as it came:
// the record with the fields Arbiter stores elsewhere (prompt, responses, ratings, critiques) set to null
// in their places, kept in the item's metadata. Filling it puts the current values back in the same key
// order, so a round trip changes neither the fields a file had nor their order.
import type { ItemRecord } from '../../../shared/domain';
import { hasOwn, isPlainObject, setOwn } from './validate';

type Json = Record<string, unknown>;

/** The record with `stored` fields set to null (a placeholder that keeps their place). */
export function skeleton(record: Json, stored: readonly string[]): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(record)) setOwn(out, key, stored.includes(key) ? null : value);
  return out;
}

/**
 * The base's keys in order with `values` put in, then the keys of `values` the base lacks. A key whose
 * value in `values` is undefined is left out (a placeholder with nothing to fill it).
 */
export function fill(base: Json | null | undefined, values: Json): Json {
  const out: Json = {};
  if (base) {
    for (const key of Object.keys(base)) {
      const value = hasOwn(values, key) ? values[key] : base[key];
      if (value !== undefined) setOwn(out, key, value);
    }
  }
  for (const [key, value] of Object.entries(values)) if (!(base && hasOwn(base, key)) && value !== undefined) setOwn(out, key, value);
  return out;
}

/** A format's kept record in an item's metadata, or null (an item from another format). */
export function keptRecord(item: ItemRecord, key: string): Json | null {
  const kept = item.metadata[key];
  return isPlainObject(kept) ? kept : null;
}
