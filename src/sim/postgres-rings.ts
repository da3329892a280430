// Ring (BufferAccessStrategy) sizes per PostgreSQL version, in buffers; freelist.c GetAccessStrategy*.

export type StrategyKind = 'bulkread' | 'bulkwrite' | 'vacuum';

export interface PostgresRingSettings {
  /** shared_buffers in buffers (NBuffers). */
  nbuffers: number;
  blockSize?: number;
  /** PG 17+: io_combine_limit in blocks (default 16). */
  ioCombineLimit?: number;
  /** PG 18 default 16, earlier 1. */
  effectiveIoConcurrency?: number;
  maxConnections?: number;
  autovacuumWorkerSlots?: number;
  maxWorkerProcesses?: number;
  maxWalSenders?: number;
  /** PG 16+: vacuum_buffer_usage_limit in kB. */
  vacuumBufferUsageLimitKb?: number;
}

/** PG 18 GetPinLimit(): NBuffers / (MaxBackends + NUM_AUXILIARY_PROCS), with 6 + 32 I/O worker slots. */
export function pinLimit(s: PostgresRingSettings): number {
  const maxBackends = (s.maxConnections ?? 100) + (s.autovacuumWorkerSlots ?? 16) + (s.maxWorkerProcesses ?? 8) + (s.maxWalSenders ?? 10) + 2;
  return Math.floor(s.nbuffers / (maxBackends + 38));
}

export function ringBuffers(major: number, kind: StrategyKind, s: PostgresRingSettings): number {
  const blockKb = (s.blockSize ?? 8192) / 1024;
  let kb: number;
  switch (kind) {
    case 'bulkread':
      if (major >= 18) {
        const wanted = 256 + blockKb * (s.ioCombineLimit ?? 16) * (s.effectiveIoConcurrency ?? 16);
        kb = Math.min(wanted, Math.max(256, pinLimit(s) * blockKb));
      } else kb = 256;
      break;
    case 'bulkwrite':
      kb = 16 * 1024;
      break;
    case 'vacuum':
      kb = major >= 16 ? (s.vacuumBufferUsageLimitKb ?? (major >= 17 ? 2048 : 256)) : 256;
      break;
  }
  return Math.max(1, Math.min(Math.floor(kb / blockKb), Math.floor(s.nbuffers / 8)));
}

/** heapam.c initscan: a seq scan uses BULKREAD only when the relation has more than NBuffers/4 blocks. */
export function seqScanUsesRing(relationBlocks: number, nbuffers: number): boolean {
  return relationBlocks > Math.floor(nbuffers / 4);
}
