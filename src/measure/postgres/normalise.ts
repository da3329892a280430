// The three numbers for PostgreSQL, with their meaning per version. README's table says the same.
import type { BufferCounters, Reads, ReadsNotes } from '../../shared/report';

export function readAheadNote(major: number): string {
  if (major <= 16) {
    return `PostgreSQL ${major} has no read-ahead into shared buffers: it reads block by block (and only hints the kernel for bitmap heap scans); the ` +
      `kernel's own readahead is invisible to its counters`;
  }
  const base = `PostgreSQL ${major} reads ahead through read streams, but counts blocks read ahead as ordinary reads: no counter separates them`;
  return major >= 18
    ? `${base}; pg_stat_io counts read operations and bytes (raw: io.reads vs io.read_bytes), which shows how reads were combined, not how many were prefetched`
    : `${base}; pg_stat_io counts blocks, not operations`;
}

/** `total`: the statement's buffers (the plan root's, with data-modifying CTEs that ran after it). */
export function normalisePostgres(major: number, total: BufferCounters): { measured: Reads; notes: ReadsNotes } {
  const t = total;
  const readTime = t.readTimeMs === null ? '' : `; read time ${t.readTimeMs.toFixed(3)} ms (track_io_timing)`;
  return {
    measured: {
      logicalReads: t.sharedHit + t.sharedRead,
      physicalReads: t.sharedRead,
      readAhead: null,
    },
    notes: {
      logicalReads: 'EXPLAIN shared hit + shared read of the execution (planning apart; temporary tables use local buffers, counted apart)',
      physicalReads: `EXPLAIN shared read: blocks brought into shared buffers; such a read may have been served by the OS page cache, not the disk${readTime}`,
      readAhead: readAheadNote(major),
    },
  };
}
