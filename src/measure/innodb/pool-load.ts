// A buffer pool that loads its dump at startup (innodb_buffer_pool_load_at_startup) fills in the background
// for seconds after the server accepts connections: a residency read then may find none of the statement's
// pages yet, and run 1 would be called cold while pages keep arriving. Innodb_buffer_pool_load_status says
// whether a load runs ("Loading buffer pool(s) from …", "Loaded 1234/5678 pages"; buf0dump.cc).
import type { Connection } from 'mysql2/promise';

const POLL_MS = 100;
/** How long a measurement waits for a startup load of the buffer pool to finish. */
export const POOL_LOAD_WAIT_MS = 10_000;

/** Whether the status says a load is under way (neither finished, aborted nor never started). */
export function poolLoading(status: string): boolean {
  return /^Loading buffer pool|^Loaded \d+\/\d+ pages/i.test(status.trim());
}

async function loadStatus(conn: Connection, statusTable: string): Promise<string> {
  const [rows] = await conn.query(`SELECT VARIABLE_VALUE AS v FROM ${statusTable} WHERE VARIABLE_NAME = 'Innodb_buffer_pool_load_status'`);
  return String((rows as Array<{ v: string | null }>)[0]?.v ?? '');
}

/**
 * Waits while the pool loads, at most `limitMs`, saying so about once a second; the status when it is
 * still loading after that (run 1 is then not cold), undefined when no load runs.
 */
export async function waitForPoolLoad(
  conn: Connection,
  statusTable: string,
  limitMs: number,
  signal?: AbortSignal,
  progress?: (message: string) => void,
): Promise<string | undefined> {
  const start = Date.now();
  let told = -Infinity;
  for (let status = await loadStatus(conn, statusTable); poolLoading(status); status = await loadStatus(conn, statusTable)) {
    if (Date.now() - start >= limitMs || signal?.aborted) return status;
    if (Date.now() - told >= 1000) {
      progress?.(`waiting for InnoDB's buffer pool to load its dump: ${status}`);
      told = Date.now();
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return undefined;
}

/** Why run 1 cannot be called cold (the pool still loads after the wait), said among the warnings; undefined when it can. */
export async function poolStillLoading(
  conn: Connection,
  statusTable: string,
  options: { signal?: AbortSignal; onProgress?: (message: string) => void },
  warnings: string[],
): Promise<string | undefined> {
  const loading = await waitForPoolLoad(conn, statusTable, POOL_LOAD_WAIT_MS, options.signal, options.onProgress);
  if (!loading) return undefined;
  const why = `the buffer pool was still loading its dump at startup ("${loading}")`;
  warnings.push(`${why}: pages may arrive during the runs, so run 1 is not called cold even where none was cached yet`);
  return why;
}
