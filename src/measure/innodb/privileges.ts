// What the measuring user may read, and what a measurement gives without it: InnoDB's information_schema
// views need PROCESS (residency, metrics, tablespaces, the dictionary's key columns); the prediction needs
// SELECT on mysql.innodb_index_stats. Each denial is said once, with the GRANT that lifts it.
import type { Connection } from 'mysql2/promise';

/** The measuring user may not read mysql.innodb_index_stats (errno 1142/1143: SELECT command denied). */
export const isStatsDenied = (err: unknown): boolean => [1142, 1143].includes((err as { errno?: number }).errno ?? 0);

/** The server refused for want of PROCESS (errno 1227), which InnoDB's information_schema views need. */
export const isProcessDenied = (err: unknown): boolean => (err as { errno?: number }).errno === 1227;

/** Whether the measuring user may read InnoDB's information_schema views (residency, metrics, tablespaces). */
export async function mayReadInnodbViews(conn: Connection): Promise<boolean> {
  try {
    await conn.query("SELECT COUNT(*) FROM information_schema.INNODB_METRICS WHERE NAME = 'trx_rseg_history_len'");
    return true;
  } catch (err) {
    if (isProcessDenied(err)) return false;
    throw err;
  }
}

/** What a measurement without PROCESS gives and lacks, and the GRANT that gives the rest. */
export function withoutProcessWarning(account: string): string {
  return `measured without PROCESS, which InnoDB's information_schema views need: the three numbers are measured as usual, but no residency (which pages are ` +
    `cached), no change-buffer metrics and no wait for purge (GRANT PROCESS ON *.* TO ${account} gives them; Test Connection shows every grant measuring ` +
    `uses)`;
}

/** Why there is no prediction for a user denied the dictionary views (PROCESS) or the index statistics, and the GRANT. */
export function predictionDenied(processDenied: boolean, account: string): string {
  return processDenied
    ? `the measuring user may not read InnoDB's dictionary views, where the prediction finds each index's key columns; GRANT PROCESS ON *.* TO ` +
      `${account} enables it`
    : `the measuring user may not read mysql.innodb_index_stats, which the prediction needs; GRANT SELECT ON mysql.innodb_index_stats TO ${account} enables it`;
}

/** The account the server matched the login to, quoted for a GRANT: 'user'@'host'. */
export async function currentAccount(conn: Connection): Promise<string> {
  const [rows] = await conn.query('SELECT CURRENT_USER() AS u');
  const text = String((rows as Array<{ u: string }>)[0]?.u ?? 'user@%');
  const at = text.lastIndexOf('@');
  return `'${text.slice(0, at)}'@'${text.slice(at + 1)}'`;
}

/** Said where the measuring user holds every privilege: what a measuring user needs instead. */
export const ALL_PRIVILEGES_WARNING =
  "measured with ALL PRIVILEGES or SUPER: nothing but BufferLens's own checks stands between the statement and the data; a measuring " +
  'user needs only PROCESS, SELECT on mysql.innodb_index_stats and on the tables (Test Connection prints the GRANTs)';
