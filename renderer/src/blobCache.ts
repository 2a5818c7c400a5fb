// A small least-recently-used cache of the images the page has fetched (blob: URLs in the browser host).
// Bounded by count and by bytes; what falls out is disposed of (the URL revoked), except an entry that
// something on screen holds (pinned): it stays until released, then the cache trims itself again.

export interface BlobCacheOptions<V> {
  /** Most entries kept (pinned ones may exceed it while held). */
  maxEntries: number;
  /** Most bytes kept, summed over the entries' sizes. */
  maxBytes: number;
  /** Called once for each value that leaves the cache (evicted, replaced, or cleared). */
  dispose(value: V): void;
}

interface Entry<V> {
  value: V;
  bytes: number;
}

export class BlobCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly pins = new Map<string, number>();
  private total = 0;

  constructor(private readonly options: BlobCacheOptions<V>) {}

  get size(): number {
    return this.entries.size;
  }

  get bytes(): number {
    return this.total;
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  /** The value, now the most recently used; undefined when absent. */
  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Keeps a value as the most recently used, then trims the least recently used past the bounds. */
  set(key: string, value: V, bytes: number): void {
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.total -= old.bytes;
      if (old.value !== value) this.options.dispose(old.value);
    }
    this.entries.set(key, { value, bytes: Math.max(0, bytes) });
    this.total += Math.max(0, bytes);
    this.trim();
  }

  /**
   * Holds a key (before or after its value arrives): it is not evicted while held. Returns the release;
   * calling it twice releases once.
   */
  pin(key: string): () => void {
    this.pins.set(key, (this.pins.get(key) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.pins.get(key) ?? 1) - 1;
      if (left > 0) this.pins.set(key, left);
      else this.pins.delete(key);
      this.trim();
    };
  }

  isPinned(key: string): boolean {
    return this.pins.has(key);
  }

  /** Drops every entry that is not held. */
  clear(): void {
    for (const [key, entry] of [...this.entries]) {
      if (this.pins.has(key)) continue;
      this.entries.delete(key);
      this.total -= entry.bytes;
      this.options.dispose(entry.value);
    }
  }

  private trim(): void {
    if (this.entries.size <= this.options.maxEntries && this.total <= this.options.maxBytes) return;
    // Oldest first (a Map iterates in insertion order, and get() re-inserts).
    for (const [key, entry] of [...this.entries]) {
      if (this.entries.size <= this.options.maxEntries && this.total <= this.options.maxBytes) return;
      if (this.pins.has(key)) continue;
      this.entries.delete(key);
      this.total -= entry.bytes;
      this.options.dispose(entry.value);
    }
  }
}
