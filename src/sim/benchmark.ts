// `bufferlens bench`: every model on standard generated traces, with a plain Map-based LRU as the
// baseline measured in the same run. Prints rates and ratios; never asserts a time.
import { lruMissRatioCurve } from './lru-mrc';
import { makeModel, MODEL_NAMES } from './models';
import { replay } from './simulate';
import { hitHeavy, missHeavy } from './traces';

export interface BenchResult {
  model: string;
  trace: string;
  pool: number;
  accesses: number;
  seconds: number;
  accessesPerSecond: number;
  missRatio: number;
  /** accessesPerSecond / the Map-LRU baseline's on the same trace. */
  ratioToBaseline?: number;
}

const now = (): number => (globalThis as { performance?: { now(): number } }).performance?.now() ?? Date.now();

/** The usual JavaScript LRU: a Map re-inserted on every hit, the oldest key evicted. The baseline. */
function mapLru(trace: Int32Array, pool: number): { seconds: number; misses: number } {
  const map = new Map<number, true>();
  let misses = 0;
  const t0 = now();
  for (let i = 0; i < trace.length; i++) {
    const p = trace[i];
    if (map.has(p)) map.delete(p);
    else {
      misses++;
      if (map.size >= pool) map.delete(map.keys().next().value as number);
    }
    map.set(p, true);
  }
  return { seconds: (now() - t0) / 1000, misses };
}

export function runBenchmark(accesses = 10_000_000, pool = 65_536, baselineAccesses = 1_000_000): { results: BenchResult[]; mrcSeconds: number } {
  const traces = { 'miss-heavy': missHeavy(accesses, pool), 'hit-heavy': hitHeavy(accesses, pool) };
  const results: BenchResult[] = [];
  for (const [traceName, trace] of Object.entries(traces)) {
    const sample = trace.subarray(0, Math.min(baselineAccesses, trace.length));
    const base = mapLru(sample, pool);
    const baseRate = sample.length / base.seconds;
    results.push({
      model: 'map-lru (baseline)',
      trace: traceName,
      pool,
      accesses: sample.length,
      seconds: base.seconds,
      accessesPerSecond: baseRate,
      missRatio: base.misses / sample.length,
      ratioToBaseline: 1,
    });
    for (const name of MODEL_NAMES) {
      const r = replay(makeModel(name, pool), trace);
      results.push({
        model: name,
        trace: traceName,
        pool,
        accesses: r.accesses,
        seconds: r.seconds,
        accessesPerSecond: r.accessesPerSecond,
        missRatio: r.missRatio,
        ratioToBaseline: r.accessesPerSecond / baseRate,
      });
    }
  }
  const t0 = now();
  lruMissRatioCurve(traces['miss-heavy']);
  return { results, mrcSeconds: (now() - t0) / 1000 };
}
