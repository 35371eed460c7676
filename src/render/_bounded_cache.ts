/**
 * A string-keyed cache with a hard bound and no per-hit bookkeeping.
 *
 * @module
 */

/** Bounds for a {@linkcode BoundedCache}. */
export interface BoundedCacheOptions {
  /** Entries one generation may hold. @default {2048} */
  maxEntries?: number;
  /** Key characters (UTF-16 code units) one generation may hold. @default {4_194_304} */
  maxKeyChars?: number;
}

/**
 * Two generations: hits in the old one are promoted to the young one, and
 * when the young one fills up it becomes the old one and the old one is
 * dropped. That approximates LRU with O(1) work per call (a true LRU would
 * delete and re-insert on every hit) and never holds more than two
 * generations' worth, so texts that change every step cannot grow memory.
 */
export class BoundedCache<V> {
  #young = new Map<string, V>();
  #old = new Map<string, V>();
  #youngChars = 0;
  readonly #maxEntries: number;
  readonly #maxKeyChars: number;

  constructor(options: BoundedCacheOptions = {}) {
    this.#maxEntries = options.maxEntries ?? 2048;
    this.#maxKeyChars = options.maxKeyChars ?? 4_194_304;
  }

  /** The most entries the cache can ever hold. */
  get maxSize(): number {
    return 2 * this.#maxEntries;
  }

  /** How many entries it holds now. */
  get size(): number {
    return this.#young.size + this.#old.size;
  }

  get(key: string): V | undefined {
    const hit = this.#young.get(key);
    if (hit !== undefined) return hit;
    const old = this.#old.get(key);
    if (old !== undefined) this.set(key, old);
    return old;
  }

  set(key: string, value: V): void {
    if (
      this.#young.size >= this.#maxEntries ||
      this.#youngChars + key.length > this.#maxKeyChars
    ) {
      this.#old = this.#young;
      this.#young = new Map();
      this.#youngChars = 0;
    }
    this.#young.set(key, value);
    this.#youngChars += key.length;
  }

  clear(): void {
    this.#young.clear();
    this.#old.clear();
    this.#youngChars = 0;
  }
}
