// How a table's rows are stored, read after the last run: their records' average bytes (variable-length
// columns hold what they hold, not what they declare) and the pages their long values take outside them.
// InnoDB stores a column off the record's page when the record would not fit in half a page (DYNAMIC and
// COMPRESSED rows: the whole value, a 20-byte pointer left in the record), on pages allocated from the
// clustered index's leaf segment, which n_leaf_pages counts: a table with long values has fewer leaves than
// the statistics say (a full scan of the schema corpus's seed 1 read 5,644 pages where n_leaf_pages said
// 10,437: 4,800 values of 12 kB, a page each). The records' bytes set the clustered index's rows per leaf,
// which tell an index filled in key order (15/16 full) from one filled at random. LENGTH reads a value
// whole, off-page pages included, so only a sample is read, in a read-only transaction (a write's runs were
// rolled back), scaled to the rows counted: SAMPLE_SLICES runs of rows from places spread over the leading
// key column's range where it is a whole number, else the first SAMPLE_ROWS rows in key order. The first rows
// alone are a table's oldest where its key grows with time, and a block of neighbours anyway: on the schema
// corpus's seed 106 (2.0 % of the rows with a 12 kB value) they held 2.32 %, and its full scans were
// predicted 640 leaves short.
import type { Connection } from 'mysql2/promise';
import type { InnodbIndexFacts } from '../../predict/innodb/facts';
import { quoteMysqlName as quote } from '../../sql/quote';
import { readOnlyAfterRuns } from './after-runs';
import { columnBytes } from './catalog';
import { readColumnRange } from './key-ranges';

/** Tables of up to this many rows (statistics) are counted: COUNT(*) reads the smallest index, a second or so. */
const COUNT_ROWS_UP_TO = 5_000_000;
/** Rows read for the sample: a few hundred leaves at most, and the long values they hold. */
export const SAMPLE_ROWS = 10_000;
/** Places the sample's rows are read from, SAMPLE_ROWS / SAMPLE_SLICES consecutive rows each. */
export const SAMPLE_SLICES = 20;
/** A page's own header and trailer (FIL_PAGE_DATA, FIL_PAGE_DATA_END) and an off-page page's header (BTR_BLOB_HDR_SIZE). */
const OFF_PAGE_OVERHEAD = 38 + 8 + 8;
/** What an empty index page holds beyond its header, directory and the infimum and supremum (page_get_free_space_of_empty). */
const PAGE_FIXED_BYTES = 120 + 8 + 4;
/** A record's header, transaction id and roll pointer, beside its columns' bytes (DYNAMIC format). */
const RECORD_OVERHEAD = 5 + 6 + 7;
/** What stays in the record of a value stored off its page. */
const OFF_PAGE_POINTER = 20;
const LONG_TYPES = new Set(['tinytext', 'text', 'mediumtext', 'longtext', 'tinyblob', 'blob', 'mediumblob', 'longblob', 'json']);

interface ColumnRow {
  c: string;
  t: string;
  octets: number | null;
  precision: number | null;
  nullable: string;
}

/** Per clustered index (its report name): the pages its off-page values take, and its records' average bytes. */
export async function readRowStorage(
  conn: Connection,
  indexes: InnodbIndexFacts[],
  pageSize: number,
  failures: string[],
): Promise<Record<string, InnodbRowStorage>> {
  const out: Record<string, InnodbRowStorage> = {};
  for (const f of indexes.filter((x) => x.clustered && x.rows > 0)) {
    const schema = f.reportName.split('.')[0];
    const lead = f.keyColumns?.[0];
    const span = lead && f.rows > 2 * SAMPLE_ROWS ? await readColumnRange(conn, schema, f.table, lead, failures) : undefined;
    const read = await readOnlyAfterRuns(conn, `the stored lengths of ${f.table}`, failures, undefined, async () => {
      const [format] = await conn.query('SELECT ROW_FORMAT AS r FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?', [schema, f.table]);
      const rowFormat = String((format as Array<{ r: string }>)[0]?.r ?? '').toLowerCase();
      if (rowFormat !== 'dynamic' && rowFormat !== 'compressed') return undefined;
      const [cols] = await conn.query(
        'SELECT COLUMN_NAME AS c, DATA_TYPE AS t, CHARACTER_OCTET_LENGTH AS octets, NUMERIC_PRECISION AS `precision`, IS_NULLABLE AS nullable ' +
          'FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION',
        [schema, f.table],
      );
      const all = cols as ColumnRow[];
      // Fixed-width columns are as declared: only variable lengths need the rows read.
      if (!all.some((x) => VARIABLE.test(x.t))) return undefined;
      const table = `${quote(schema)}.${quote(f.table)}`;
      const sliced = lead && span && span[1] > span[0] ? { column: lead, span, order: f.keyColumns! } : undefined;
      const [rows] = await conn.query(lengthsQuery(table, all, pageSize, sliced));
      const r = (rows as Array<{ pages: unknown; bytes: unknown; n: unknown }>)[0];
      const sampled = Number(r?.n ?? 0);
      if (sampled <= 0) return undefined;
      // A sample of the whole table is the table. Otherwise its off-page pages are scaled to the rows, counted
      // where there are any (the leaves are the difference of two large numbers: the statistics' sampled row
      // count, a few per cent off, would move them by far more); COUNT(*) reads the smallest index, no values.
      const pages = Number(r?.pages ?? 0);
      // The rows counted where the statistics' sample is a few per cent off and counting is cheap: how full
      // the leaves are (a sorted build's full leaves against an insert-grown index's) rests on the count.
      const whole = !sliced && sampled < SAMPLE_ROWS;
      const counted = whole ? sampled : pages > 0 || f.rows <= COUNT_ROWS_UP_TO ? await countRows(conn, `${quote(schema)}.${quote(f.table)}`) : undefined;
      const scale = Math.max(1, (counted ?? sampled) / sampled);
      return {
        offPagePages: Math.round(pages * scale),
        recordBytes: Math.round(Number(r?.bytes ?? 0)),
        sampled,
        ...(counted !== undefined ? { rows: counted } : {}),
      };
    });
    if (read && Number.isSafeInteger(read.offPagePages) && read.recordBytes > 0) out[f.reportName] = read;
  }
  return out;
}

async function countRows(conn: Connection, table: string): Promise<number> {
  const [rows] = await conn.query(`SELECT COUNT(*) AS n FROM ${table}`);
  return Number((rows as Array<{ n: unknown }>)[0]?.n ?? 0);
}

export interface InnodbRowStorage {
  offPagePages: number;
  recordBytes: number;
  /** Rows the sample read. */
  sampled: number;
  /** The table's rows, counted (absent for a table too large to count after every measurement). */
  rows?: number;
}

const VARIABLE = /^(var(char|binary)|(tiny|medium|long)?(text|blob)|json)$/i;

/**
 * One pass over the table: each row's bytes (its columns' lengths and the record's own fields); where a row
 * is too long for half a page, its longest long value leaves it (a 20-byte pointer stays) and takes pages of
 * its own. The longest value leaves first, and one does in almost every row that is too long.
 */
function lengthsQuery(table: string, all: ColumnRow[], pageSize: number, sliced?: Slices): string {
  const long = all.filter((x) => LONG_TYPES.has(x.t.toLowerCase()) || (/^var(char|binary)$/i.test(x.t) && Number(x.octets ?? 0) > 255));
  const length = (c: string) => `COALESCE(LENGTH(${quote(c)}), 0)`;
  // Fixed-width columns take their width (LENGTH of a number is its digits); a variable one its bytes and
  // one length byte, two where it may pass 255 bytes; the record's header a bit per nullable column.
  const variable = all.filter((x) => VARIABLE.test(x.t));
  const fixed = all.filter((x) => !VARIABLE.test(x.t)).reduce((a, x) => a + columnBytes(x.t, x.octets, x.precision), 0);
  const lengthBytes = variable.reduce((a, x) => a + (Number(x.octets ?? 0) > 255 || LONG_TYPES.has(x.t.toLowerCase()) ? 2 : 1), 0);
  const nullBitmap = Math.ceil(all.filter((x) => x.nullable === 'YES').length / 8);
  const rowBytes = `(${variable.map((x) => length(x.c)).join(' + ')} + ${fixed + lengthBytes + nullBitmap + RECORD_OVERHEAD})`;
  const longest = long.length === 0 ? '0' : long.length === 1 ? length(long[0].c) : `GREATEST(${long.map((x) => length(x.c)).join(', ')})`;
  const row = sliced
    ? slicedRows(`SELECT ${rowBytes} AS rb, ${longest} AS lg FROM ${table}`, sliced)
    : `SELECT ${rowBytes} AS rb, ${longest} AS lg FROM ${table} LIMIT ${SAMPLE_ROWS}`;
  const over = `rb > ${Math.floor((pageSize - PAGE_FIXED_BYTES) / 2)} AND lg > 0`;
  return (
    `SELECT COUNT(*) AS n, COALESCE(SUM(CASE WHEN ${over} THEN CEIL(lg / ${pageSize - OFF_PAGE_OVERHEAD}) ELSE 0 END), 0) AS pages, ` +
    `AVG(CASE WHEN ${over} THEN rb - lg + ${OFF_PAGE_POINTER} ELSE rb END) AS bytes FROM (${row}) s`
  );
}

interface Slices {
  column: string;
  span: [number, number];
  /** The clustered key's columns: each slice reads its rows in key order from where it starts. */
  order: string[];
}

/** The sample's rows as SAMPLE_SLICES runs of consecutive rows, each from a place spread over the leading column's range. */
function slicedRows(select: string, { column, span: [lo, hi], order }: Slices): string {
  const per = Math.ceil(SAMPLE_ROWS / SAMPLE_SLICES);
  const starts = [...new Set(Array.from({ length: SAMPLE_SLICES }, (_, k) => lo + Math.floor(((hi - lo) * k) / SAMPLE_SLICES)))];
  const keyOrder = order.map((c) => quote(c)).join(', ');
  return starts.map((at) => `(${select} WHERE ${quote(column)} >= ${at} ORDER BY ${keyOrder} LIMIT ${per})`).join(' UNION ALL ');
}
