// What the queries BufferLens sends after the last run share (explain-after-runs.ts, key-ranges.ts, lookup-keys.ts): a
// read-only transaction, as a reading run's, under the session's statement time limit, rolled back whatever
// happens. A failure leaves that fact out of the prediction (the fallback) and is named in the report.
import type { Connection } from 'mysql2/promise';

export async function readOnlyAfterRuns<T>(conn: Connection, what: string, failures: string[], fallback: T, read: () => Promise<T>): Promise<T> {
  try {
    await conn.query('START TRANSACTION READ ONLY');
    return await read();
  } catch (err) {
    failures.push(`${what} could not be read after the runs (${(err as Error).message.split('\n')[0]}): the prediction models it instead`);
    return fallback;
  } finally {
    await conn.query('ROLLBACK').catch(() => undefined);
  }
}
