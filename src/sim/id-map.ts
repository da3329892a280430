// Exact numbering of 64-bit object ids (two 32-bit halves) in order of first appearance: open addressing
// with linear probing, grown by doubling at a load of 3/4. A slot is three adjacent integers (low half,
// high half, number + 1; 0 marks an empty slot), so a lookup touches one cache line, not three.
// No allocation per lookup: the ids come as 32-bit integers straight from the file's blocks.

const STRIDE = 3;

export class IdMap {
  private slots: Int32Array;
  private mask: number;
  private shift: number;
  private count = 0;

  constructor(initialSlots: number) {
    let bits = 4;
    while (1 << bits < initialSlots) bits++;
    this.slots = new Int32Array(STRIDE << bits);
    this.mask = (1 << bits) - 1;
    this.shift = 32 - bits;
  }

  get size(): number {
    return this.count;
  }

  /**
   * Numbers `records` ids read from `words`: the low half at `first + k × step`, the high half just after
   * it when `wide`, else 0. Writes them to `out` from `at`. One loop, inlined by hand: it runs per record.
   */
  numberAll(words: Int32Array, first: number, step: number, wide: boolean, records: number, out: Int32Array, at: number): void {
    let { slots, mask, shift } = this;
    for (let k = 0, w = first; k < records; k++, w += step) {
      const lo = words[w];
      const hi = wide ? words[w + 1] : 0;
      let i = home(lo, hi, shift);
      let n: number;
      for (;;) {
        const s = i * STRIDE;
        n = slots[s + 2];
        if (n === 0 || (slots[s] === lo && slots[s + 1] === hi)) break;
        i = (i + 1) & mask;
      }
      if (n === 0) {
        n = this.insert(i, lo, hi) + 1;
        ({ slots, mask, shift } = this);
      }
      out[at + k] = n - 1;
    }
  }

  /** Puts a new id in the empty slot `i`; returns its number. */
  private insert(i: number, lo: number, hi: number): number {
    if (this.count >= 0x7ffffffe) throw new Error('a trace with more than 2^31 distinct ids');
    const assigned = this.count++;
    const s = i * STRIDE;
    this.slots[s] = lo;
    this.slots[s + 1] = hi;
    this.slots[s + 2] = assigned + 1;
    if (this.count * 4 > this.mask * 3) this.grow();
    return assigned;
  }

  private grow(): void {
    const old = this.slots;
    const bits = 33 - this.shift;
    this.slots = new Int32Array(STRIDE << bits);
    this.mask = (1 << bits) - 1;
    this.shift = 32 - bits;
    for (let s = 0; s < old.length; s += STRIDE) {
      if (old[s + 2] === 0) continue;
      let i = home(old[s], old[s + 1], this.shift);
      while (this.slots[i * STRIDE + 2] !== 0) i = (i + 1) & this.mask;
      this.slots.set(old.subarray(s, s + STRIDE), i * STRIDE);
    }
  }
}

function home(lo: number, hi: number, shift: number): number {
  return Math.imul(lo ^ Math.imul(hi, 0x85ebca6b), 0x9e3779b1) >>> shift;
}
