// The simulation loop, apart from the policies: replay a trace of page ids through one model, whole or
// block by block as a file is read (then only the model's own work is timed, not the reading).
import type { BufferPoolModel, SimulationResult } from './types';

/** A clock that works in Node and in the browser without importing either. */
const now = (): number => (globalThis as { performance?: { now(): number } }).performance?.now() ?? Date.now();

export class Replay {
  private accesses = 0;
  private hits = 0;
  private seconds = 0;

  constructor(private readonly model: BufferPoolModel) {}

  /** The next requests of the trace. */
  feed(block: Int32Array): void {
    const started = now();
    this.hits += this.model.run(block);
    this.seconds += (now() - started) / 1000;
    this.accesses += block.length;
  }

  result(): SimulationResult {
    const { model, accesses, hits, seconds } = this;
    return {
      model: model.name,
      pool: model.capacity,
      accesses,
      hits,
      misses: accesses - hits,
      missRatio: accesses ? (accesses - hits) / accesses : 0,
      seconds,
      accessesPerSecond: seconds > 0 ? accesses / seconds : Infinity,
      counters: model.counters(),
    };
  }
}

export function replay(model: BufferPoolModel, trace: Int32Array): SimulationResult {
  const r = new Replay(model);
  r.feed(trace);
  return r.result();
}
