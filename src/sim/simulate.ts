// The simulation loop, apart from the policies: replay a trace of page ids through one model.
import type { BufferPoolModel, SimulationResult } from './types';

/** A clock that works in Node and in the browser without importing either. */
const now = (): number => (globalThis as { performance?: { now(): number } }).performance?.now() ?? Date.now();

export function replay(model: BufferPoolModel, trace: Int32Array): SimulationResult {
  const started = now();
  const hits = model.run(trace);
  const seconds = (now() - started) / 1000;
  return {
    model: model.name,
    pool: model.capacity,
    accesses: trace.length,
    hits,
    misses: trace.length - hits,
    missRatio: trace.length ? (trace.length - hits) / trace.length : 0,
    seconds,
    accessesPerSecond: seconds > 0 ? trace.length / seconds : Infinity,
    counters: model.counters(),
  };
}
