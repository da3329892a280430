// The one interface every buffer-pool policy implements. Page ids are non-negative 31-bit integers; an
// engine model may read structure from them (InnoDB: the page number within its tablespace).

export interface BufferPoolModel {
  readonly name: string;
  /** Buffers (pages) in the pool. */
  readonly capacity: number;
  /** One page request by process 0 with the default strategy; true on a hit. */
  access(page: number): boolean;
  /**
   * Every request of a trace; returns the hits. Each policy has its own copy of this loop so that its
   * call to access() stays monomorphic (one shared loop over four classes runs markedly slower).
   */
  run(trace: Int32Array): number;
  /** Whether a page is cached now (no side effects). */
  contains(page: number): boolean;
  /** Counters, named as the engine names them. */
  counters(): Record<string, number>;
  /** Every page currently cached, for residency ("which blocks"). */
  cachedPages(): number[];
}

export interface SimulationResult {
  model: string;
  pool: number;
  accesses: number;
  hits: number;
  misses: number;
  missRatio: number;
  seconds: number;
  accessesPerSecond: number;
  counters: Record<string, number>;
}
