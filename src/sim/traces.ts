// Generated page-access traces: the standard benchmark traces and building blocks for scenarios.
import { SeededRandom } from './random';

/** Pages first..first+count-1 in order. */
export function sequential(first: number, count: number): Int32Array {
  const t = new Int32Array(count);
  for (let i = 0; i < count; i++) t[i] = first + i;
  return t;
}

/**
 * Miss-heavy: 80 % skewed random accesses over a working set ~10× the pool, 20 % in sequential runs
 * (scans of 64–1,024 pages) over the same set.
 */
export function missHeavy(length: number, pool: number, seed = 1): Int32Array {
  const rnd = new SeededRandom(seed);
  const universe = pool * 10;
  const t = new Int32Array(length);
  let i = 0;
  while (i < length) {
    if (rnd.next() < 0.2) {
      const start = rnd.int(universe);
      const run = 64 + rnd.int(960);
      for (let k = 0; k < run && i < length; k++) t[i++] = (start + k) % universe;
    } else {
      // Skew: squaring a uniform draw favours low page ids.
      const u = rnd.next();
      t[i++] = Math.floor(u * u * universe);
    }
  }
  return t;
}

/** Hit-heavy: a working set of half the pool, accessed at random. */
export function hitHeavy(length: number, pool: number, seed = 2): Int32Array {
  const rnd = new SeededRandom(seed);
  const ws = Math.max(1, Math.floor(pool / 2));
  const t = new Int32Array(length);
  for (let i = 0; i < length; i++) t[i] = rnd.int(ws);
  return t;
}

/** Uniformly random pages in [0, universe). */
export function uniform(length: number, universe: number, seed = 3): Int32Array {
  const rnd = new SeededRandom(seed);
  const t = new Int32Array(length);
  for (let i = 0; i < length; i++) t[i] = rnd.int(universe);
  return t;
}
