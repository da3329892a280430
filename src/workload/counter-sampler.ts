// The server's page requests and reads, read around a workload run and its probe, from a connection of its
// own that sends nothing but these reads of the server's statistics.
import type { ConnectionTarget } from '../db/connection-url';
import { connectPostgres } from '../db/postgres';
import { connectMysql } from '../db/mysql';

export interface Counters {
  requests: number;
  reads: number;
  /** PostgreSQL with track_io_timing on: ms spent reading (blk_read_time); else absent. */
  readTimeMs?: number;
}

const POSTGRES_COUNTERS = `SELECT blks_hit::float8 AS hit, blks_read::float8 AS read, blk_read_time::float8 AS read_time,
  current_setting('track_io_timing') = 'on' AS timed FROM pg_stat_database WHERE datname = current_database()`;
const INNODB_COUNTERS = `SHOW GLOBAL STATUS WHERE Variable_name IN ('Innodb_buffer_pool_read_requests', 'Innodb_buffer_pool_reads')`;

export type CounterReader = { read(): Promise<Counters>; close(): Promise<void> };

/** A connection that reads the counters, for reading them often. */
export async function openCounterReader(target: ConnectionTarget): Promise<CounterReader> {
  if (target.engine === 'postgresql') {
    const c = await connectPostgres(target);
    // The connection's start-up and its first reading of the view read catalog pages (about 300): reported
    // now (PostgreSQL 15 and later), they fall before the counts it reads, not a second later into the window
    // being measured.
    await c.query(POSTGRES_COUNTERS);
    await c.query(`SELECT pg_stat_force_next_flush() WHERE current_setting('server_version_num')::int >= 150000`).catch(() => undefined);
    return {
      async read() {
        const row = (await c.query(POSTGRES_COUNTERS)).rows[0];
        return { requests: row.hit + row.read, reads: row.read, ...(row.timed ? { readTimeMs: row.read_time } : {}) };
      },
      close: () => c.end(),
    };
  }
  const c = await connectMysql(target);
  return {
    async read() {
      const [rows] = await c.query(INNODB_COUNTERS);
      const m = new Map((rows as Array<{ Variable_name: string; Value: string }>).map((r) => [r.Variable_name, Number(r.Value)]));
      return { requests: m.get('Innodb_buffer_pool_read_requests') ?? 0, reads: m.get('Innodb_buffer_pool_reads') ?? 0 };
    },
    close: () => c.end(),
  };
}

/** The server's page requests and reads so far: the database's (PostgreSQL) or the instance's (InnoDB). */
export async function readCounters(target: ConnectionTarget): Promise<Counters> {
  const reader = await openCounterReader(target);
  try {
    return await reader.read();
  } finally {
    await reader.close();
  }
}

/**
 * PostgreSQL's sessions report their counters when they end (and at most once a second while they run):
 * read until two readings a moment apart agree, so the exited sessions' counts are in. The same reader
 * reads before and after what is measured: a connection per reading added its own start-up's catalog
 * reads (about 300 requests) to the next reading, inside the window, and the readings never agreed, so
 * each wait took its full five seconds.
 */
export async function settledCounters(reader: CounterReader, engine: ConnectionTarget['engine'], signal: AbortSignal | undefined): Promise<Counters> {
  let last = await reader.read();
  for (let i = 0; i < 20 && !signal?.aborted; i++) {
    await new Promise((r) => setTimeout(r, engine === 'postgresql' ? 250 : 0));
    const now = await reader.read();
    if (engine !== 'postgresql' || (now.requests === last.requests && now.reads === last.reads)) return now;
    last = now;
  }
  return last;
}
