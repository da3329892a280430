// The exact LRU miss-ratio curve for every pool size in one pass (Mattson's stack distances), with a
// Fenwick tree over access times: O(log n) per access. LRU is a stack algorithm, so hit(C) is the share of
// accesses with stack distance < C. The engine policies are not stack algorithms: see mini-sim.ts.

export interface MissRatioCurve {
  /** Pool sizes (pages), ascending. */
  sizes: number[];
  missRatios: number[];
  accesses: number;
  distinctPages: number;
}

/** Open-addressing map page → position on the compacted timeline. */
class Positions {
  private keys: Int32Array;
  private values: Int32Array;
  private mask: number;
  count = 0;

  constructor() {
    this.keys = new Int32Array(1 << 16).fill(-1);
    this.values = new Int32Array(1 << 16);
    this.mask = (1 << 16) - 1;
  }

  /** Sets the page's position and returns the previous one, or -1. */
  swap(page: number, position: number): number {
    let i = Math.imul(page, 0x9e3779b1) & this.mask;
    for (;;) {
      const k = this.keys[i];
      if (k === page) {
        const old = this.values[i];
        this.values[i] = position;
        return old;
      }
      if (k === -1) {
        this.keys[i] = page;
        this.values[i] = position;
        if (++this.count * 2 > this.keys.length) this.grow();
        return -1;
      }
      i = (i + 1) & this.mask;
    }
  }

  private grow(): void {
    const keys = this.keys;
    const values = this.values;
    this.keys = new Int32Array(keys.length * 2).fill(-1);
    this.values = new Int32Array(keys.length * 2);
    this.mask = this.keys.length - 1;
    this.count = 0;
    for (let i = 0; i < keys.length; i++) if (keys[i] !== -1) this.swap(keys[i], values[i]);
  }
}

/**
 * Stack distances on a compacted timeline. Each access takes the next position; when a page is accessed
 * again its previous position is marked superseded in a Fenwick tree, so the distinct pages seen since
 * then are (positions after it) − (superseded positions after it): one query and one update per access.
 * When the timeline is full, the live positions are renumbered 0..k-1 (the tree starts empty again), so
 * the tree stays a few times the number of distinct pages instead of the trace length.
 */
export function lruMissRatioCurve(trace: Int32Array, sizes?: number[]): MissRatioCurve {
  const n = trace.length;
  const positions = new Positions();
  let cap = 1 << 16;
  let superseded = new Int32Array(cap + 1); // Fenwick tree over positions
  let supersededTotal = 0;
  let owner = new Int32Array(cap);
  let alive = new Uint8Array(cap);
  let hist = new Float64Array(cap + 2); // hist[d]: re-accesses at stack distance d (1-based)
  let next = 0;
  let live = 0;
  for (let t = 0; t < n; t++) {
    const p = trace[t];
    if (next === cap) {
      const newCap = live * 2 > cap ? cap * 2 : cap;
      const newOwner = new Int32Array(newCap);
      const newAlive = new Uint8Array(newCap);
      let k = 0;
      for (let i = 0; i < next; i++) {
        if (alive[i]) {
          newOwner[k] = owner[i];
          newAlive[k] = 1;
          positions.swap(owner[i], k);
          k++;
        }
      }
      superseded = new Int32Array(newCap + 1);
      supersededTotal = 0;
      if (newCap !== cap) {
        const h = new Float64Array(newCap + 2);
        h.set(hist);
        hist = h;
      }
      cap = newCap;
      owner = newOwner;
      alive = newAlive;
      next = k;
    }
    const prev = positions.swap(p, next);
    if (prev >= 0) {
      let upToPrev = 0;
      for (let i = prev + 1; i > 0; i -= i & -i) upToPrev += superseded[i];
      const distinctSince = next - prev - 1 - (supersededTotal - upToPrev);
      hist[distinctSince + 1]++;
      for (let i = prev + 1; i <= cap; i += i & -i) superseded[i]++;
      supersededTotal++;
      alive[prev] = 0;
      live--;
    }
    owner[next] = p;
    alive[next] = 1;
    next++;
    live++;
  }
  const distinct = positions.count;
  const wanted = sizes ?? defaultSizes(distinct);
  const cumulative = new Float64Array(distinct + 2);
  for (let d = 1; d <= distinct; d++) cumulative[d] = cumulative[d - 1] + (hist[d] ?? 0);
  return {
    sizes: wanted,
    missRatios: wanted.map((c) => (n ? (n - cumulative[Math.min(Math.max(c, 0), distinct)]) / n : 0)),
    accesses: n,
    distinctPages: distinct,
  };
}

function defaultSizes(distinct: number): number[] {
  const out: number[] = [];
  for (let i = 1; i <= 64; i++) out.push(Math.max(1, Math.round((distinct * i) / 64)));
  return [...new Set(out)];
}
