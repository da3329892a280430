// page id → buffer slot, for the pages currently in a simulated pool. Simulated page ids are dense in
// runs (a relation's blocks), so the table is direct first: the id's high bits pick a chunk of 4,096 slots,
// allocated when first used, and a lookup is two array reads. Pages scattered over more chunks than the
// memory budget allows (a trace of arbitrary ids) move it, once, to open addressing with linear probing and
// backward-shift deletion over typed arrays: no allocation per access, no tombstones.
// Page ids are non-negative 31-bit integers.

const CHUNK_BITS = 12;
const CHUNK = 1 << CHUNK_BITS;
const CHUNK_MASK = CHUNK - 1;
/** Directory entries to begin with; it doubles as higher ids arrive, up to every 31-bit id's chunk. */
const FIRST_DIRECTORY = 64;
const FULL_DIRECTORY = 1 << (31 - CHUNK_BITS);

export class PageTable {
  /**
   * Chunk number + 1 of each 4,096-page range of ids, 0 where none; undefined once hashed. It grows with the
   * highest id seen: a pool built per prediction draw would otherwise zero 2 MB it mostly never reads.
   */
  private directory: Int32Array | undefined = new Int32Array(FIRST_DIRECTORY);
  private readonly chunks: Int32Array[] = [];
  /** Chunks allowed before hashing: at most about twice the hash table's memory, and never fewer than 256. */
  private readonly chunkBudget: number;
  private hash: HashPageTable | undefined;

  constructor(private readonly maxEntries: number) {
    this.chunkBudget = Math.max(256, Math.ceil(maxEntries / 256));
  }

  /** The slot holding `page`, or -1. */
  get(page: number): number {
    const dir = this.directory;
    if (dir === undefined) return this.hash!.get(page);
    const d = page >>> CHUNK_BITS;
    if (d >= dir.length) return -1;
    const k = dir[d];
    return k === 0 ? -1 : this.chunks[k - 1][page & CHUNK_MASK];
  }

  set(page: number, slot: number): void {
    if (this.directory === undefined) return this.hash!.set(page, slot);
    const dir = (page >>> CHUNK_BITS) < this.directory.length ? this.directory : this.grown(page >>> CHUNK_BITS);
    let k = dir[page >>> CHUNK_BITS];
    if (k === 0) {
      if (this.chunks.length >= this.chunkBudget) {
        this.toHash();
        return this.hash!.set(page, slot);
      }
      this.chunks.push(new Int32Array(CHUNK).fill(EMPTY));
      k = dir[page >>> CHUNK_BITS] = this.chunks.length;
    }
    this.chunks[k - 1][page & CHUNK_MASK] = slot;
  }

  delete(page: number): void {
    const dir = this.directory;
    if (dir === undefined) return this.hash!.delete(page);
    const d = page >>> CHUNK_BITS;
    const k = d < dir.length ? dir[d] : 0;
    if (k !== 0) this.chunks[k - 1][page & CHUNK_MASK] = EMPTY;
  }

  /** The directory doubled until it has entry `d`. */
  private grown(d: number): Int32Array {
    let size = this.directory!.length;
    while (size <= d) size *= 2;
    const dir = new Int32Array(Math.min(size, FULL_DIRECTORY));
    dir.set(this.directory!);
    this.directory = dir;
    return dir;
  }

  clear(): void {
    if (this.directory === undefined) this.hash!.clear();
    else for (const c of this.chunks) c.fill(EMPTY);
  }

  private toHash(): void {
    const hash = new HashPageTable(this.maxEntries);
    const dir = this.directory!;
    for (let d = 0; d < dir.length; d++) {
      const k = dir[d];
      if (k === 0) continue;
      const c = this.chunks[k - 1];
      for (let i = 0; i < CHUNK; i++) if (c[i] !== EMPTY) hash.set(d * CHUNK + i, c[i]);
    }
    this.hash = hash;
    this.directory = undefined;
    this.chunks.length = 0;
  }
}

const EMPTY = -1;

/** The open-addressing table, for pages too scattered for the direct one. */
class HashPageTable {
  private readonly keys: Int32Array;
  private readonly values: Int32Array;
  private readonly mask: number;
  private readonly shift: number;

  /**
   * Sized for at most `maxEntries` pages at a time (the pool's capacity). The load factor stays ≤ 1/4:
   * short probe runs keep both lookups and backward-shift deletions (one per eviction) cheap.
   */
  constructor(maxEntries: number) {
    let bits = 4;
    while (1 << bits < maxEntries * 4) bits++;
    this.keys = new Int32Array(1 << bits).fill(EMPTY);
    this.values = new Int32Array(1 << bits);
    this.mask = (1 << bits) - 1;
    this.shift = 32 - bits;
  }

  private home(page: number): number {
    return Math.imul(page, 0x9e3779b1) >>> this.shift;
  }

  /** The slot holding `page`, or -1. */
  get(page: number): number {
    const keys = this.keys;
    let i = this.home(page);
    for (;;) {
      const k = keys[i];
      if (k === page) return this.values[i];
      if (k === EMPTY) return -1;
      i = (i + 1) & this.mask;
    }
  }

  set(page: number, slot: number): void {
    const keys = this.keys;
    let i = this.home(page);
    for (;;) {
      const k = keys[i];
      if (k === page || k === EMPTY) {
        keys[i] = page;
        this.values[i] = slot;
        return;
      }
      i = (i + 1) & this.mask;
    }
  }

  delete(page: number): void {
    const keys = this.keys;
    const values = this.values;
    const mask = this.mask;
    let i = this.home(page);
    for (;;) {
      const k = keys[i];
      if (k === EMPTY) return;
      if (k === page) break;
      i = (i + 1) & mask;
    }
    // Backward shift: pull later entries of the probe run into the hole when their home allows it.
    let hole = i;
    let j = (i + 1) & mask;
    for (;;) {
      const k = keys[j];
      if (k === EMPTY) break;
      const h = this.home(k);
      const between = hole <= j ? h > hole && h <= j : h > hole || h <= j;
      if (!between) {
        keys[hole] = k;
        values[hole] = values[j];
        hole = j;
      }
      j = (j + 1) & mask;
    }
    keys[hole] = EMPTY;
  }

  clear(): void {
    this.keys.fill(EMPTY);
  }
}
