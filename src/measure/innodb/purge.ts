// InnoDB's purge removes what committed writes left behind (delete-marked index records, old versions) in
// background threads that read and write pages of the same buffer pool. The counters BufferLens reads are
// global, so purge running during a run adds its page requests and reads to the statement's: measured
// after a mixed workload, a covering COUNT took 347 and 503 gets where it takes 31, and a warm range read
// 27 pages it had cached. The history list length says how much purge has left; BufferLens waits for it
// to drain before the residency snapshot and run 1 (reading the metric touches no page).
import type { Connection } from 'mysql2/promise';

/** How long a measurement waits for purge before it goes ahead and says the counters may include it. */
export const PURGE_WAIT_MS = 10_000;
const POLL_MS = 100;

/** Committed transactions whose undo logs purge has not processed (trx_rseg_history_len); undefined where the metric is off. */
export async function historyLength(conn: Connection): Promise<number | undefined> {
  // MariaDB says whether a metric is on in ENABLED (1), MySQL in STATUS ('enabled').
  const [rows] = await conn.query("SELECT * FROM information_schema.INNODB_METRICS WHERE NAME = 'trx_rseg_history_len'");
  const row = (rows as Array<{ COUNT: number | string | null; ENABLED?: number | string; STATUS?: string }>)[0];
  const on = row !== undefined && (Number(row.ENABLED) === 1 || /^enabled$/i.test(String(row.STATUS ?? '')));
  return on && row.COUNT !== null ? Number(row.COUNT) : undefined;
}

export interface PurgeWait {
  /** History length when the wait began and when it ended. */
  before: number;
  after: number;
  waitedMs: number;
}

/**
 * Waits until the history list is empty, at most `limitMs`, saying so through `progress` about once a
 * second (a wait of seconds must not look like a hang); undefined when there was nothing to wait for,
 * 'unknown' when the server does not count its history list (the metric disabled).
 */
export async function waitForPurge(
  conn: Connection,
  limitMs: number,
  signal?: AbortSignal,
  progress?: (message: string) => void,
): Promise<PurgeWait | 'unknown' | undefined> {
  const before = await historyLength(conn);
  if (before === undefined) return 'unknown';
  if (before === 0) return undefined;
  const start = Date.now();
  let after = before;
  let told = -Infinity;
  while (after > 0 && Date.now() - start < limitMs && !signal?.aborted) {
    if (Date.now() - told >= 1000) {
      progress?.(`waiting for InnoDB's purge: ${after.toLocaleString('en-US')} committed transactions to process`);
      told = Date.now();
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    after = (await historyLength(conn)) ?? 0;
  }
  return { before, after, waitedMs: Date.now() - start };
}

/** What the report says about the wait: a note when purge drained, a warning when it did not or could not be seen. */
export function purgeWaitWarning(w: PurgeWait | 'unknown', when: string): string {
  if (w === 'unknown') {
    return `${when}, InnoDB's history list length was not available (INNODB_METRICS trx_rseg_history_len is disabled; innodb_monitor_enable = ` +
      `'trx_rseg_history_len' turns it on): BufferLens could not wait for purge, and the global counters may include its page requests and reads`;
  }
  const n = (x: number) => x.toLocaleString('en-US');
  const seconds = (w.waitedMs / 1000).toFixed(1);
  if (w.after === 0) {
    return `${when}, InnoDB's purge had the undo logs of ${n(w.before)} committed transactions to process; BufferLens waited ${seconds} s for it to finish, ` +
      `so that its background page requests do not count in the runs`;
  }
  return `${when}, InnoDB's purge still had ${n(w.after)} committed transactions to process after ${seconds} s (${n(w.before)} at first; other sessions keep ` +
    `writing): purge runs in the background, and the global counters may include its page requests and reads`;
}
