// A private PostgreSQL server holding acc (createPgAccounts: pgbench's accounts in small) and a statement
// measured on it as BufferLens measures (rolled back, no timing, no what-if). The range-update prediction
// tests share this set-up.
import { LocalPostgres, type PostgresBinaries } from '../../src/local-server/postgres';
import type { MeasureOptions } from '../../src/measure/options';
import { createPgAccounts } from './sql';

/** The range UPDATE of 2,001 rows through the primary key that the pgbench check measures. */
export const ACC_RANGE_UPDATE = 'UPDATE acc SET abalance = abalance - 1 WHERE aid BETWEEN 50000 AND 52000';

export function asMeasured(sql: string, runs = 3): MeasureOptions {
  return { sql, runs, cold: 'no', commit: false, timing: false, timeoutMs: 120_000, whatIf: false };
}

/** A server with 32 MB of shared buffers and autovacuum off, holding acc; the caller stops it. */
export async function startWithAccounts(binaries: PostgresBinaries): Promise<LocalPostgres> {
  const server = await LocalPostgres.start({ binaries, settings: { shared_buffers: '32MB', autovacuum: false } });
  try {
    await createPgAccounts(server.url());
    return server;
  } catch (e) {
    await server.stop();
    throw e;
  }
}
