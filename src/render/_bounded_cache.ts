/**
 * A string-keyed cache with a hard bound and no per-hit bookkeeping.
 *
 * @module
 */

/** Bounds for a {@linkcode BoundedCache}. */
export interface BoundedCacheOptions {
  /** Entries one generation may hold at first. @default {8192} */
  maxEntries?: number;
  /** Key characters (UTF-16 code units) one generation may hold at first. @default {4_194_304} */
  maxKeyChars?: number;
  /**
   * How many times both bounds may double, when the texts in use outgrow a
   * generation. @default {3} (8× the first bounds: 65,536 texts)
   */
  maxDoublings?: number;
}

/**
 * Two generations: hits in the old one are promoted to the young one, and
 * when the young one fills up it becomes the old one and the old one is
 * dropped. That approximates LRU with O(1) work per call (a true LRU would
 * delete and re-insert on every hit) and never holds more than two
 * generations' worth, so texts that change every step cannot grow memory.
 *
 * The bounds grow to fit the working set, never past `maxDoublings`: when
 * the young generation fills up and three quarters of what filled it were
 * promoted from the old one (texts read again, as a registry's sections are
 * on every render), the texts in use do not fit a generation, and rotating
 * would drop texts that the next render needs (with 2,048 texts a
 * generation, a registry of 5,000 sections parsed every section on every
 * render). So both bounds double instead. Texts that change every step are
 * never promoted: they rotate through at the first bounds. A registry that
 * reads W texts per render keeps them all when W ≤ 1.25 × the current bound
 * (10,240 texts at first); past that, the promotions that would trigger
 * growth do not happen and renders parse again: a bound on memory wins.
 */
export class BoundedCache<V> {
  #young = new Map<string, V>();
  #old = new Map<string, V>();
  #youngChars = 0;
  /** Entries and key characters promoted into the young generation. */
  #promoted = 0;
  #promotedChars = 0;
  #maxEntries: number;
  #maxKeyChars: number;
  #doublingsLeft: number;

  constructor(options: BoundedCacheOptions = {}) {
    this.#maxEntries = options.maxEntries ?? 8192;
    this.#maxKeyChars = options.maxKeyChars ?? 4_194_304;
    this.#doublingsLeft = options.maxDoublings ?? 3;
  }

  /** The most entries the cache can hold at its current bounds. */
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
    if (old !== undefined) {
      this.set(key, old);
      this.#promoted++;
      this.#promotedChars += key.length;
    }
    return old;
  }

  set(key: string, value: V): void {
    if (
      this.#young.size >= this.#maxEntries ||
      this.#youngChars + key.length > this.#maxKeyChars
    ) {
      if (this.#outgrown()) {
        this.#doublingsLeft--;
        this.#maxEntries *= 2;
        this.#maxKeyChars *= 2;
      } else {
        this.#old = this.#young;
        this.#young = new Map();
        this.#youngChars = 0;
      }
      this.#promoted = 0;
      this.#promotedChars = 0;
    }
    this.#young.set(key, value);
    this.#youngChars += key.length;
  }

  /** Whether texts read again filled 3/4 of a generation: see the class. */
  #outgrown(): boolean {
    return this.#doublingsLeft > 0 &&
      (4 * this.#promoted >= 3 * this.#maxEntries ||
        4 * this.#promotedChars >= 3 * this.#maxKeyChars);
  }

  clear(): void {
    this.#young.clear();
    this.#old.clear();
    this.#youngChars = 0;
    this.#promoted = 0;
    this.#promotedChars = 0;
  }
}
