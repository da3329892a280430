// Where the runs' undo logs come from, read before run 1 without touching a page: whether the server ran
// any write since it started (the rollback segments are then taken from the same first slot as after every
// restart), which pages of the undo logs' tablespaces the pool holds (a restart in a small pool leaves the
// segments' headers and the kept logs' pages out), and, from their order, which segments kept a log.
// MariaDB only: MySQL keeps its undo logs in separate tablespaces the model does not lay out.
import type { Connection } from 'mysql2/promise';
import type { UndoState } from '../../predict/innodb/facts';
import type { InnodbServerInfo } from './server-info';

/** Statements that start a write transaction in InnoDB (each takes the next rollback segment). */
const WRITE_COMMANDS = [
  'insert',
  'insert_select',
  'update',
  'update_multi',
  'delete',
  'delete_multi',
  'replace',
  'replace_select',
  'load',
  'create_table',
  'alter_table',
  'drop_table',
  'create_index',
  'drop_index',
  'truncate',
  'rename_table',
  'create_db',
  'drop_db',
];

/** The highest tablespace id holding undo logs: MariaDB numbers its undo tablespaces from 1; with none, every rollback segment is in the system tablespace. */
export function undoSpacesOf(info: InnodbServerInfo): number | undefined {
  return info.product === 'mariadb' ? Number(info.settings.innodb_undo_tablespaces ?? 0) || 0 : undefined;
}

/** `pages`: the undo tablespaces' pages in LRU order (readPoolWalk), undefined where the pool was not read. */
export async function readUndoState(
  conn: Connection,
  info: InnodbServerInfo,
  pages: Array<{ t: string; p: number }> | undefined,
): Promise<UndoState | undefined> {
  if (info.product !== 'mariadb') return undefined;
  const [status] = await conn.query(`SELECT SUM(VARIABLE_VALUE) AS n FROM ${info.statusTable} WHERE VARIABLE_NAME IN (?)`, [
    WRITE_COMMANDS.map((c) => `COM_${c.toUpperCase()}`),
  ]);
  const counted = (status as Array<{ n: string | number | null }>)[0]?.n;
  // Without the counters (a server that hides them) nothing says whether a write ran: no undo state.
  if (counted === null || counted === undefined || !Number.isFinite(Number(counted))) return undefined;
  const writesSinceStartup = Number(counted);
  if (!pages) return { writesSinceStartup };
  const undoSpaces = undoSpacesOf(info)!;
  const count = (t: string, beyondFirst = false) => pages.filter((x) => x.t === t && (!beyondFirst || x.p > 2)).length;
  const keptLogSlots = undoSpaces === 0 ? keptLogs(pages) : undefined;
  return {
    writesSinceStartup,
    spaces: 1 + undoSpaces,
    systemPagesCached: count('SYSTEM'),
    logPagesCached: count('UNDO_LOG'),
    spaceHeadersCached: count('FILE_SPACE_HEADER'),
    bitmapsCached: count('IBUF_BITMAP'),
    // Page 2 is the first inode page, which the system's own segments fill; the undo logs' come after.
    inodePagesCached: count('INODE', true),
    ...(keptLogSlots ? { keptLogSlots } : {}),
  };
}

/** The system tablespace's own SYSTEM pages that are not rollback segment headers (the change buffer's header, the dictionary header). */
const NOT_SEGMENT_HEADERS = new Set([3, 7]);
const SEGMENTS = 128;

/**
 * The rollback segments that kept a one-page log, where the pool holds every segment's header: a restart
 * reads each header in turn and, right after it, the logs it keeps, and the LRU list (INNODB_BUFFER_PAGE_LRU
 * from the tail, oldest first) keeps that order. The headers were allocated in segment order when the
 * system tablespace was created, so their page numbers, sorted, give the segment of each.
 */
export function keptLogs(pagesOldestFirst: Array<{ t: string; p: number }>): number[] | undefined {
  const headers = pagesOldestFirst.filter((x) => x.t === 'SYSTEM' && !NOT_SEGMENT_HEADERS.has(x.p)).map((x) => x.p);
  if (headers.length !== SEGMENTS) return undefined;
  const slotOf = new Map([...headers].sort((a, b) => a - b).map((p, i) => [p, i]));
  const out = new Set<number>();
  let current: number | undefined;
  for (const x of pagesOldestFirst) {
    if (x.t === 'SYSTEM') current = slotOf.get(x.p);
    else if (x.t === 'UNDO_LOG' && current !== undefined) out.add(current);
  }
  return [...out].sort((a, b) => a - b);
}
