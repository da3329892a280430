// A writing transaction's own pages on InnoDB: the rollback segment it takes and that segment's undo log.
// Transactions take the segments in turn (trx_assign_rseg_low: round robin over TRX_SYS_N_RSEGS, 128); each
// segment has its header page and the page of the undo log it keeps cached for the next transaction to take
// it, where the records go and where purge reads them back. Taken as three pages that stay cached, the model
// put the MariaDB tpcb-like workload at 1.1 pages read per transaction at 16 MB where 4.3 were measured:
// under oltp_read_write the system tablespace, which holds them, was read 4.1 times a transaction at 16 MB,
// 2.2 at 32 MB and not at all from 64 MB (performance_schema's file reads, MariaDB 10.11). Pure.
import type { RollbackSegments } from './shapes';

/**
 * A writing transaction's gets beyond its rows: its first change reads the rollback segment's header, the
 * undo log's header and its first page (FIRST_WRITE_GETS of the single-statement model), and its commit the
 * undo log's and the segment's headers again.
 */
const TRANSACTION_WRITE_PAGES = 5;
/** TRX_SYS_N_RSEGS: the rollback segments transactions take in turn. */
const ROLLBACK_SEGMENTS = 128;
/** A segment's pages an area apart, so that turns taken in order make no sequential reads (read-ahead). */
const SEGMENT_STRIDE = 64;

export const TRANSACTION_NOTE =
  `The transaction's first change and its commit: ${TRANSACTION_WRITE_PAGES} gets of the rollback segment's and the undo log's headers; ` +
  `transactions take the ${ROLLBACK_SEGMENTS} rollback segments in turn, each with its own header and undo log page, where the records go and purge ` +
  `reads them back.`;

/** The segments' pages from `base` on; the transaction system's header page is every transaction's. */
export function rollbackSegments(base: number): RollbackSegments {
  const header = (r: number) => base + SEGMENT_STRIDE * (r + 1) + 1;
  const undoPage = (r: number) => base + SEGMENT_STRIDE * (r + 1) + 2;
  const trxSys = base + 5;
  return { count: ROLLBACK_SEGMENTS, pages: (r) => [header(r), undoPage(r), trxSys, header(r), undoPage(r)], undoPage };
}
