// The state before run 1 from two walks of the buffer pool instead of four. INNODB_BUFFER_PAGE_LRU is filled by
// walking every page of the pool each time a query names it (about 40 ms per 8,192 pages, growing with the
// pool), and run 1's starting state needs four things from it: the statement's cached pages (residency), their
// LRU positions with the list's length and old-sublist start (the prediction's seed), and the undo logs' pages.
// One aggregate gives the list's summary; one filtered read gives the rest, sorted out here. A single query
// with window functions over the view was tried and measured: MariaDB materialises the whole view for it, 240×
// slower than the four reads on a 256 MB pool (bench/pool-walk.bench.ts).
import type { Connection } from 'mysql2/promise';
import type { ResidencySnapshot } from '../engine-session';
import { toFilename } from './filename';
import { ALL_INDEXES, relationKey, type InnodbRelation } from './residency';

export interface LruSeed {
  length: number;
  /** The first old page's position from the head (the view numbers from the tail; see seedOf). */
  firstOld: number | null;
  /** Positions count from the head (recordings made before 2026-12-07 kept the view's, from the tail). */
  headFirst?: boolean;
  /**
   * [relation index in the session's list, page number, LRU position from the head, ms since its first access (-1: never
   * accessed, read ahead), the freed-page clock when it was last put at the head].
   */
  pages: Array<[number, number, number, number, number]>;
  /**
   * The tables' long values stored off their rows' pages (BLOB pages), as `pages` lists index pages: the relation is
   * the table's clustered index. The view names no table or index for them; they are read by the tables' tablespaces.
   */
  longValues?: Array<[number, number, number, number, number]>;
  /** The pool's freed-page clock as far as its pages show it (0: nothing evicted since start-up, so nothing is made young). */
  freedPageClock: number;
  /** The list's latest first access (ut_time_ms as the view gives it, 32 bits), which the ages count from. */
  lastAccessMs?: number;
  /**
   * How long before run 1 that latest first access was: where the server's clock is this machine's
   * (sinceOnThisClock), the ages count from run 1 instead. Absent: unknown, taken as none.
   */
  sinceLastAccessMs?: number;
}

/** Sets how long before now the seed's latest first access was, where the server's clock is this machine's. */
export function countAgesFromNow(seed: LruSeed | undefined): void {
  const since = sinceOnThisClock(seed?.lastAccessMs);
  if (seed && since !== undefined) seed.sinceLastAccessMs = since;
}

/** An hour: a gap on a clock that is not the server's would fall in it by chance once in 1,200 tries. */
const PLAUSIBLE_GAP_MS = 3_600_000;

/**
 * Milliseconds since the server's `lastAccessMs`, where its clock is this machine's: InnoDB's ut_time_ms is
 * the host's monotonic clock in ms, truncated to 32 bits, as process.hrtime is, so a server on this host
 * (or in a container sharing its kernel) shares it. A difference outside [0, an hour) says it does not.
 */
export function sinceOnThisClock(lastAccessMs: number | undefined): number | undefined {
  if (!lastAccessMs) return undefined;
  const now = Number((process.hrtime.bigint() / 1_000_000n) % 4_294_967_296n);
  const d = (now - lastAccessMs + 4_294_967_296) % 4_294_967_296;
  return d < PLAUSIBLE_GAP_MS ? d : undefined;
}

export interface PoolWalk {
  residency: ResidencySnapshot;
  seed: LruSeed;
  /** Per relation (by name), its cached index pages counted by fill (cachedFills). */
  fills: Map<string, number[]>;
  /** The undo logs' tablespaces' own pages (MariaDB), in LRU order: what readUndoState reads. */
  undoPages: Array<{ t: string; p: number }> | undefined;
}

/** The page types of the undo tablespaces that readUndoState counts. */
export const UNDO_PAGE_TYPES = ['SYSTEM', 'UNDO_LOG', 'FILE_SPACE_HEADER', 'IBUF_BITMAP', 'INODE'];

interface WalkRow {
  t: string | null;
  i: string | null;
  p: number;
  pos: number;
  pt: string;
  sp: number;
  at: number;
  fc: number;
  ds: number | null;
  /** A page of a long value stored off its row's page, in a table's tablespace (t is that table). */
  longValue?: boolean;
}

/** The page types of long values stored off their rows' pages: the old format's and MySQL 8's LOB pages. */
export const LONG_VALUE_PAGE_TYPES = [
  'BLOB',
  'COMPRESSED_BLOB',
  'COMPRESSED_BLOB2',
  'LOB_FIRST',
  'LOB_DATA',
  'LOB_INDEX',
  'ZLOB_FIRST',
  'ZLOB_DATA',
  'ZLOB_INDEX',
  'ZLOB_FRAG',
];

/**
 * `undoSpaces`: the highest tablespace id holding undo logs (MariaDB), or undefined where they are not read.
 * `tableSpaces`: each table's tablespace id → the table as the view names it (`db`.`table`), whose long values are read.
 */
export async function readPoolWalk(
  conn: Connection,
  rels: InnodbRelation[],
  undoSpaces: number | undefined,
  pageSize = 16384,
  tableSpaces = new Map<number, string>(),
): Promise<PoolWalk> {
  const [summary] = await conn.query(
    `SELECT COUNT(*) AS n, MAX(CASE WHEN IS_OLD = 'YES' THEN LRU_POSITION END) AS lastOld, MAX(ACCESS_TIME) AS lastAccess,
            MAX(FREE_PAGE_CLOCK) AS clock
       FROM information_schema.INNODB_BUFFER_PAGE_LRU`,
  );
  const names = [...new Set(rels.map((r) => r.innodbName))];
  const [result] = await conn.query(
    `SELECT TABLE_NAME AS t, INDEX_NAME AS i, PAGE_NUMBER AS p, LRU_POSITION AS pos, PAGE_TYPE AS pt, SPACE AS sp,
            ACCESS_TIME AS at, FREE_PAGE_CLOCK AS fc, DATA_SIZE AS ds
       FROM information_schema.INNODB_BUFFER_PAGE_LRU
      WHERE TABLE_NAME IN (?) OR (SPACE <= ? AND PAGE_TYPE IN (?)) OR (SPACE IN (?) AND PAGE_TYPE IN (?))
      ORDER BY LRU_POSITION`,
    [names.length ? names : [''], undoSpaces ?? -1, UNDO_PAGE_TYPES, tableSpaces.size ? [...tableSpaces.keys()] : [-1], LONG_VALUE_PAGE_TYPES],
  );
  const rows = (result as WalkRow[]).map((r) =>
    r.t === null && LONG_VALUE_PAGE_TYPES.includes(r.pt) && tableSpaces.has(Number(r.sp)) ? { ...r, t: tableSpaces.get(Number(r.sp))!, longValue: true } : r,
  );
  const list = (summary as ListSummary[])[0];
  return {
    residency: residencyOf(
      rels,
      rows.filter((r) => !r.longValue),
    ),
    seed: seedOf(rels, rows, list, tableSpaces.size > 0),
    fills: cachedFills(rels, rows, pageSize),
    undoPages:
      undoSpaces === undefined
        ? undefined
        : rows.filter((r) => Number(r.sp) <= undoSpaces && UNDO_PAGE_TYPES.includes(r.pt)).map((r) => ({ t: r.pt, p: Number(r.p) })),
  };
}

/**
 * Each table's tablespace id (a partitioned table's, every partition's) → the table as INNODB_BUFFER_PAGE_LRU
 * names it, from InnoDB's dictionary view: where the walk finds the pages of its long values. Empty where the
 * view cannot be read; the prediction then says what it assumes of them.
 */
export async function readTableSpaces(conn: Connection, rels: InnodbRelation[], product: 'mariadb' | 'mysql'): Promise<Map<number, string>> {
  const byFile = new Map(rels.map((r) => [`${toFilename(r.schema)}/${toFilename(r.table)}`, r.innodbName]));
  if (byFile.size === 0) return new Map();
  const view = product === 'mariadb' ? 'information_schema.INNODB_SYS_TABLES' : 'information_schema.INNODB_TABLES';
  try {
    // A partition's file is the table's name, '#P#' (MySQL: '#p#') and the partition's: '#' is encoded in any other name.
    const [rows] = await conn.query(`SELECT NAME AS name, SPACE AS space FROM ${view} WHERE SUBSTRING_INDEX(NAME, '#', 1) IN (?)`, [[...byFile.keys()]]);
    return new Map((rows as Array<{ name: string; space: number }>).map((r) => [Number(r.space), byFile.get(r.name.split('#')[0])!]));
  } catch {
    return new Map();
  }
}

interface ListSummary {
  n: number;
  /** The old page nearest the head, as the view numbers positions (from the tail). */
  lastOld: number | null;
  lastAccess: number | null;
  clock: number | null;
}

/**
 * A page's first access in ms (ut_time_ms, as the view gives it) as an age from the list's latest first
 * access; how long before run 1 that one was is measured at run 1's start (sinceOnThisClock), where it can be.
 * Positions counted from the head: the view walks the list from its tail (LRU_POSITION 0 leaves first).
 * The two reads are two walks, so a page read between them may number past the first's count.
 */
function seedOf(rels: InnodbRelation[], rows: WalkRow[], list: ListSummary | undefined, longValuesRead: boolean): LruSeed {
  const index = new Map(rels.map((r, i) => [relationKey(r.innodbName, r.index), i]));
  const clustered = new Map(rels.flatMap((r, i) => (r.kind === 'table' ? [[r.innodbName, i] as const] : [])));
  const now = Number(list?.lastAccess ?? 0);
  const length = rows.reduce((a, r) => Math.max(a, Number(r.pos) + 1), Number(list?.n ?? 0));
  const pages: LruSeed['pages'] = [];
  const longValues: LruSeed['pages'] = [];
  for (const r of rows) {
    const i = r.longValue ? clustered.get(r.t ?? '') : index.get(relationKey(r.t ?? '', r.i ?? ''));
    const at = Number(r.at ?? 0);
    if (i !== undefined)
      (r.longValue ? longValues : pages).push([i, Number(r.p), length - 1 - Number(r.pos), at > 0 ? Math.max(0, now - at) : -1, Number(r.fc ?? 0)]);
  }
  return {
    length,
    firstOld: list?.lastOld == null ? null : length - 1 - Number(list.lastOld),
    headFirst: true,
    pages,
    ...(longValuesRead ? { longValues } : {}),
    freedPageClock: Number(list?.clock ?? 0),
    ...(now > 0 ? { lastAccessMs: now } : {}),
  };
}

/** Bins of a page's record bytes over its size: the last holds the pages a sorted build filled (95 % and more). */
export const FILL_BINS = 20;

/**
 * Per relation, how full its cached index pages are (DATA_SIZE, the records' bytes): counts per twentieth of
 * the page. Which leaves are full decides how many inserts split one, and no statistic tells it: an index
 * built by sorting and split here and there since averages the fill of one grown by random inserts.
 */
function cachedFills(rels: InnodbRelation[], rows: WalkRow[], pageSize: number): Map<string, number[]> {
  const byKey = new Map(rels.map((r) => [relationKey(r.innodbName, r.index), r.name]));
  const out = new Map<string, number[]>();
  for (const r of rows) {
    if (r.longValue) continue;
    const name = r.t !== null && r.i !== null ? byKey.get(relationKey(r.t, r.i)) : undefined;
    if (!name || r.pt !== 'INDEX' || r.ds === null) continue;
    const bins = out.get(name) ?? new Array<number>(FILL_BINS).fill(0);
    bins[Math.min(FILL_BINS - 1, Math.floor((Number(r.ds) / pageSize) * FILL_BINS))]++;
    out.set(name, bins);
  }
  return out;
}

/** The indexes' facts with their cached pages' fills, where the walk read them. */
export function withCachedFills<F extends { reportName: string }>(indexes: F[], fills: Map<string, number[]> | undefined): F[] {
  return indexes.map((f) => (fills?.has(f.reportName) ? { ...f, cachedFills: fills.get(f.reportName)! } : f));
}

/** Per relation, its cached pages and their runs of consecutive page numbers, as readInnodbResidency groups them. */
function residencyOf(rels: InnodbRelation[], rows: WalkRow[]): ResidencySnapshot {
  const out: ResidencySnapshot = new Map(rels.map((r) => [r.name, { pages: r.pages, cached: 0, ranges: [] }]));
  const byKey = new Map(rels.map((r) => [relationKey(r.innodbName, r.index), out.get(r.name)!]));
  const pagesOf = new Map<string, { table: string; pages: number[] }>();
  for (const r of rows) {
    if (r.t === null || r.i === null) continue;
    const k = relationKey(r.t, r.i);
    if (!byKey.has(k) && !byKey.has(relationKey(r.t, ALL_INDEXES))) continue;
    const list = pagesOf.get(k) ?? { table: r.t, pages: [] };
    list.pages.push(Number(r.p));
    pagesOf.set(k, list);
  }
  for (const k of [...pagesOf.keys()].sort()) {
    const { table, pages } = pagesOf.get(k)!;
    const entry = byKey.get(k) ?? byKey.get(relationKey(table, ALL_INDEXES))!;
    pages.sort((a, b) => a - b);
    entry.cached += pages.length;
    for (let s = 0; s < pages.length;) {
      let e = s;
      while (e + 1 < pages.length && pages[e + 1] === pages[e] + 1) e++;
      entry.ranges.push([pages[s], pages[e]]);
      s = e + 1;
    }
  }
  return out;
}
