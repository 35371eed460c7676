/**
 * A string-keyed cache bounded by entries and by characters, with no
 * per-hit bookkeeping.
 *
 * @module
 */

/** Bounds for a {@linkcode BoundedCache}. */
export interface BoundedCacheOptions {
  /** Entries one generation may hold at first. @default {2048} */
  maxEntries?: number;
  /**
   * Characters (UTF-16 code units) one generation may hold at first: each
   * key's, plus what {@linkcode BoundedCache.charge} adds for its value.
   * @default {4_194_304}
   */
  maxChars?: number;
  /**
   * How many times both bounds may double, when the texts in use outgrow a
   * generation. @default {3} (8× the first bounds: 32,768 texts)
   */
  maxDoublings?: number;
}

/**
 * Two generations: a hit in the old one moves the entry to the young one,
 * and when the young one is full it becomes the old one and the old one is
 * dropped. That approximates LRU with O(1) work per call and never holds
 * more than two generations, so keys that change every step cannot grow
 * memory, nor can values that grow after they were stored: their growth is
 * charged to the young generation, where every entry in use sits.
 *
 * The bounds double (at most `maxDoublings` times) instead of rotating when
 * three quarters of what filled the young generation was moved up from the
 * old one: the keys in use do not fit a generation, and rotating would drop
 * keys the next call needs. Keys that change every step are never moved up,
 * so they rotate through at the first bounds.
 */
export class BoundedCache<V> {
  #young = new Map<string, V>();
  #old = new Map<string, V>();
  /** Characters accounted to each generation. */
  #chars: [young: number, old: number] = [0, 0];
  /** Entries and characters moved up since the young generation was new. */
  #promoted: [entries: number, chars: number] = [0, 0];
  /** Entries and characters one generation may hold now. */
  #max: [entries: number, chars: number];
  #doublingsLeft: number;
  readonly #weigh: (value: V) => number;

  /**
   * @param options The bounds.
   * @param weigh The characters a value holds besides its key when it is
   *   stored or moved up (a long text's length).
   */
  constructor(
    options: BoundedCacheOptions = {},
    weigh: (value: V) => number = () => 0,
  ) {
    this.#max = [options.maxEntries ?? 2048, options.maxChars ?? 4_194_304];
    this.#doublingsLeft = options.maxDoublings ?? 3;
    this.#weigh = weigh;
  }

  /** The most entries the cache can hold at its current bounds. */
  get maxSize(): number {
    return 2 * this.#max[0];
  }

  /** The most characters the cache can account for at its current bounds. */
  get maxChars(): number {
    return 2 * this.#max[1];
  }

  /** How many entries it holds now. */
  get size(): number {
    return this.#young.size + this.#old.size;
  }

  /** The characters it accounts for now (keys and charged values; at least what it holds). */
  get chars(): number {
    return this.#chars[0] + this.#chars[1];
  }

  get(key: string): V | undefined {
    const hit = this.#young.get(key);
    if (hit !== undefined) return hit;
    const old = this.#old.get(key);
    if (old !== undefined) {
      // Left in the old generation too (and counted twice) until it goes.
      this.#promoted[0]++;
      this.#promoted[1] += key.length + this.#weigh(old);
      this.set(key, old);
    }
    return old;
  }

  set(key: string, value: V): void {
    this.charge(key.length + this.#weigh(value));
    this.#young.set(key, value);
  }

  /**
   * Accounts `chars` more to an entry that was just read (a value that
   * grew). Rotates first when they would not fit the young generation, or
   * grows instead when entries read again filled 3/4 of it: see the class.
   */
  charge(chars: number): void {
    const max = this.#max;
    if (this.#young.size >= max[0] || this.#chars[0] + chars > max[1]) {
      const promoted = this.#promoted;
      if (
        this.#doublingsLeft > 0 &&
        (4 * promoted[0] >= 3 * max[0] || 4 * promoted[1] >= 3 * max[1])
      ) this.#double();
      else {
        this.#old = this.#young;
        this.#young = new Map();
        this.#chars = [0, this.#chars[0]];
      }
      this.#promoted = [0, 0];
    }
    this.#chars[0] += chars;
  }

  /**
   * Doubles the bounds (at most `maxDoublings` times in all) until
   * `entries` entries and `chars` characters fit one generation: what one
   * call of the owner (one render) read must still be there at the next.
   */
  fit(entries: number, chars: number): void {
    while (
      this.#doublingsLeft > 0 &&
      (entries > this.#max[0] || chars > this.#max[1])
    ) this.#double();
  }

  #double(): void {
    this.#doublingsLeft--;
    this.#max = [2 * this.#max[0], 2 * this.#max[1]];
  }
}
