// Engine-faithful miss-ratio curves across pool sizes by miniature simulation (Waldspurger et al.,
// SHARDS-style spatial sampling): keep the accesses whose sampling unit hashes below a threshold, and
// run the real policy with the pool scaled by the same rate. The unit is a whole group of consecutive
// pages (an InnoDB extent, 64 pages), not a single page, so sequential runs, rings and read-ahead survive
// the sampling.
import type { BufferPoolModel } from './types';

export interface MiniSimOptions {
  /** Fraction of sampling units kept, e.g. 0.1. */
  rate: number;
  /** Pages per sampling unit. */
  unitPages?: number;
}

/** Whether the sampling unit of `page` is kept at a threshold out of 1,000,000. */
export function keepsUnit(page: number, unitPages: number, threshold: number): boolean {
  const unit = Math.floor(page / unitPages);
  return (Math.imul(unit ^ (unit >>> 16), 0x45d9f3b) >>> 0) % 1_000_000 < threshold;
}

export function sampleTrace(trace: Int32Array, options: MiniSimOptions): Int32Array {
  const unit = options.unitPages ?? 64;
  const threshold = Math.round(options.rate * 1_000_000);
  let n = 0;
  for (let i = 0; i < trace.length; i++) if (keepsUnit(trace[i], unit, threshold)) n++;
  const out = new Int32Array(n);
  let j = 0;
  for (let i = 0; i < trace.length; i++) if (keepsUnit(trace[i], unit, threshold)) out[j++] = trace[i];
  return out;
}

/** Miss ratio per pool size from mini-simulations over one sampled trace. */
export function miniSimCurve(trace: Int32Array, sizes: number[], make: (pool: number) => BufferPoolModel, options: MiniSimOptions): number[] {
  const sampled = sampleTrace(trace, options);
  return sizes.map((size) => {
    const model = make(Math.max(1, Math.round(size * options.rate)));
    let misses = 0;
    for (let i = 0; i < sampled.length; i++) if (!model.access(sampled[i])) misses++;
    return sampled.length ? misses / sampled.length : 0;
  });
}

/** Full simulation per size, for the error report. */
export function fullCurve(trace: Int32Array, sizes: number[], make: (pool: number) => BufferPoolModel): number[] {
  return sizes.map((size) => {
    const model = make(size);
    let misses = 0;
    for (let i = 0; i < trace.length; i++) if (!model.access(trace[i])) misses++;
    return trace.length ? misses / trace.length : 0;
  });
}
