// Index statistics, key columns and tablespace sizes for the InnoDB prediction, and the pool's other pages.
import type { Connection } from 'mysql2/promise';
import type { InnodbIndexFacts } from '../../predict/innodb/facts';
import type { ResidencySnapshot } from '../engine-session';
import type { InnodbRelation } from './residency';
import { isProcessDenied } from './privileges';
import type { InnodbServerInfo } from './server-info';
import { fromFilename, toFilename } from './filename';

export async function readInnodbFacts(
  conn: Connection,
  info: InnodbServerInfo,
  rels: InnodbRelation[],
  residency: ResidencySnapshot,
): Promise<InnodbIndexFacts[]> {
  if (rels.length === 0) return [];
  const tables = [...new Set(rels.map((r) => `${r.schema}\u0000${r.table}`))].map((k) => k.split('\u0000'));
  const [stats] = await conn.query(
    `SELECT database_name AS s, table_name AS t, index_name AS i,
            MAX(CASE WHEN stat_name = 'n_leaf_pages' THEN stat_value END) AS leaf,
            MAX(CASE WHEN stat_name = 'size' THEN stat_value END) AS size,
            MAX(CASE WHEN stat_name LIKE 'n_diff\\_pfx%' THEN stat_value END) AS keyRows
       FROM mysql.innodb_index_stats WHERE (database_name, table_name) IN (${tables.map(() => '(?, ?)').join(', ')})
      GROUP BY database_name, table_name, index_name`,
    tables.flat(),
  );
  const spaceTable = info.product === 'mariadb' ? 'information_schema.INNODB_SYS_TABLESPACES' : 'information_schema.INNODB_TABLESPACES';
  // Without PROCESS the tablespace sizes are unknown: the model then places no bound of the file.
  const [spaces] = await conn
    .query(`SELECT NAME AS name, FILE_SIZE AS bytes FROM ${spaceTable} WHERE NAME IN (?)`, [tables.map(([s, t]) => `${toFilename(s)}/${toFilename(t)}`)])
    .catch((err: unknown) => {
      if (isProcessDenied(err)) return [[]];
      throw err;
    });
  const statRows = stats as Array<{ s: string; t: string; i: string; leaf: number; size: number; keyRows: number }>;
  const spaceBytes = new Map((spaces as Array<{ name: string; bytes: number }>).map((r) => [r.name.split('/').map(fromFilename).join('/'), Number(r.bytes)]));
  const shapes = await readIndexShapes(conn, tables, info.product);
  return rels.map((r) => {
    const st = statRows.find((x) => x.s === r.schema && x.t === r.table && x.i === r.index);
    const clusteredStats = statRows.find((x) => x.s === r.schema && x.t === r.table && (x.i === 'PRIMARY' || x.i === 'GEN_CLUST_INDEX'));
    const shape = shapeOf(shapes, r.schema, r.table, r.index, r.kind === 'table');
    return {
      reportName: r.name,
      table: r.table,
      index: r.index,
      clustered: r.kind === 'table',
      leafPages: Number(st?.leaf ?? 0),
      sizePages: Number(st?.size ?? r.pages),
      spacePages: Math.floor((spaceBytes.get(`${r.schema}/${r.table}`) ?? 0) / info.pageSize) || Number.MAX_SAFE_INTEGER,
      cachedBefore: residency.get(r.name)?.ranges ?? [],
      // The whole key's distinct values: a composite key's first column alone counts its distinct values, not rows.
      rows: Number(clusteredStats?.keyRows ?? 0),
      ...shape,
    };
  });
}

interface ColumnRow {
  s: string;
  t: string;
  c: string;
  type: string;
  octets: number | null;
  precision: number | null;
  extra: string;
}

interface KeyPartRow {
  s: string;
  t: string;
  i: string;
  c: string;
  nonUnique: number;
}

async function readIndexShapes(conn: Connection, tables: string[][], product: 'mysql' | 'mariadb'): Promise<{ columns: ColumnRow[]; keyParts: KeyPartRow[] }> {
  const where = `(TABLE_SCHEMA, TABLE_NAME) IN (${tables.map(() => '(?, ?)').join(', ')})`;
  const [columns] = await conn.query(
    `SELECT TABLE_SCHEMA AS s, TABLE_NAME AS t, COLUMN_NAME AS c, DATA_TYPE AS type, CHARACTER_OCTET_LENGTH AS octets,
            NUMERIC_PRECISION AS \`precision\`, EXTRA AS extra
       FROM information_schema.COLUMNS WHERE ${where}`,
    tables.flat(),
  );
  // Key parts from InnoDB's own dictionary views: information_schema.STATISTICS would open each table and
  // read its root page, and nothing before run 1 may touch the statement's pages.
  const v = product === 'mariadb' ? 'INNODB_SYS_' : 'INNODB_';
  const [fields] = await conn.query(
    `SELECT t.NAME AS tn, i.NAME AS i, i.TYPE AS type, f.NAME AS c
       FROM information_schema.${v}TABLES t
       JOIN information_schema.${v}INDEXES i ON i.TABLE_ID = t.TABLE_ID
       JOIN information_schema.${v}FIELDS f ON f.INDEX_ID = i.INDEX_ID
      WHERE t.NAME IN (?)
      ORDER BY i.INDEX_ID, f.POS`,
    [tables.map(([s, t]) => `${toFilename(s)}/${toFilename(t)}`)],
  );
  const keyParts = (fields as Array<{ tn: string; i: string; type: number; c: string }>).map((f) => {
    const [s, t] = f.tn.split('/').map(fromFilename);
    // TYPE: 1 clustered, 2 unique (DICT_CLUSTERED, DICT_UNIQUE).
    return { s, t, i: f.i, c: f.c, nonUnique: Number(f.type) & 2 ? 0 : 1 };
  });
  return { columns: columns as ColumnRow[], keyParts };
}

/** Bytes a column's value takes in a record; variable-length columns counted at half their maximum. */
export function columnBytes(type: string, octets: number | null, precision: number | null): number {
  switch (type.toLowerCase()) {
    case 'tinyint':
    case 'year':
      return 1;
    case 'smallint':
    case 'enum':
      return 2;
    case 'mediumint':
    case 'date':
    case 'time':
      return 3;
    case 'int':
    case 'integer':
    case 'float':
    case 'timestamp':
      return 4;
    case 'datetime':
      return 5;
    case 'bigint':
    case 'double':
    case 'set':
      return 8;
    case 'decimal':
      return Math.ceil(((precision ?? 10) * 4) / 9);
    case 'char':
    case 'binary':
      return Math.max(1, octets ?? 1);
    default:
      return octets ? Math.max(1, Math.ceil(Number(octets) / 2)) + 1 : 8;
  }
}

/** Whether the index is unique, its key's bytes, a record's data bytes, and whether inserts append to it. */
export function shapeOf(
  shapes: { columns: ColumnRow[]; keyParts: KeyPartRow[] },
  schema: string,
  table: string,
  index: string,
  clustered: boolean,
): {
  unique: boolean;
  keyBytes: number;
  entryBytes: number;
  autoIncrementKey: boolean;
  keyColumns: string[];
  columnBytes?: Record<string, number>;
  blobColumns?: string[];
} {
  const cols = shapes.columns.filter((c) => c.s === schema && c.t === table);
  const bytesOf = (name: string) => {
    const c = cols.find((x) => x.c === name);
    return c ? columnBytes(c.type, c.octets, c.precision) : 8;
  };
  const parts = shapes.keyParts.filter((k) => k.s === schema && k.t === table);
  const primary = parts.filter((k) => k.i === 'PRIMARY').map((k) => k.c);
  const own = parts.filter((k) => k.i === index).map((k) => k.c);
  const pkBytes = primary.length ? primary.reduce((a, c) => a + bytesOf(c), 0) : 6; // DB_ROW_ID
  const RECORD_HEADER = 5;
  if (clustered) {
    const rowBytes = cols.reduce((a, c) => a + columnBytes(c.type, c.octets, c.precision), 0) + (primary.length ? 0 : 6) + 6 + 7; // DB_TRX_ID, DB_ROLL_PTR
    const first = primary[0] ? cols.find((c) => c.c === primary[0]) : undefined;
    return {
      unique: true,
      keyBytes: pkBytes,
      entryBytes: rowBytes + RECORD_HEADER,
      autoIncrementKey: primary.length === 0 || (first !== undefined && /auto_increment/i.test(first.extra ?? '')),
      keyColumns: primary,
      columnBytes: Object.fromEntries(cols.map((c) => [c.c, columnBytes(c.type, c.octets, c.precision)])),
      // What InnoDB's row template takes as a BLOB (DATA_BLOB: every BLOB and TEXT type, JSON in MariaDB).
      blobColumns: cols.filter((c) => /blob|text|^json$/i.test(c.type)).map((c) => c.c),
    };
  }
  const keyBytes = own.reduce((a, c) => a + bytesOf(c), 0) + primary.filter((c) => !own.includes(c)).reduce((a, c) => a + bytesOf(c), 0);
  const unique = parts.some((k) => k.i === index && Number(k.nonUnique) === 0);
  return { unique, keyBytes, entryBytes: keyBytes + RECORD_HEADER, autoIncrementKey: false, keyColumns: own };
}

/**
 * The tables in the server's table cache, as schema/table. Read first thing: the catalog queries that
 * follow put the statement's tables there without opening them in InnoDB, so only a reading taken before
 * them tells which tables run 1 will open (after a restart: InnoDB's definition and statistics loaded).
 * SHOW OPEN TABLES reads the cache only; InnoDB's INNODB_SYS_TABLESTATS would load each table itself.
 */
export async function openTables(conn: Connection): Promise<Set<string>> {
  const [rows] = await conn.query('SHOW OPEN TABLES');
  return new Set((rows as Array<{ Database: string; Table: string }>).map((r) => `${r.Database}/${r.Table}`));
}

/** A global status variable as a number, named as MySQL spells it (MariaDB's view spells it in capitals). */
async function statusNumber(conn: Connection, info: InnodbServerInfo, name: string): Promise<number> {
  const [rows] = await conn.query(`SELECT VARIABLE_VALUE AS v FROM ${info.statusTable} WHERE VARIABLE_NAME = ?`, [
    info.product === 'mariadb' ? name.toUpperCase() : name,
  ]);
  return Number((rows as Array<{ v: string }>)[0]?.v);
}

/**
 * The pages the pool really has (Innodb_buffer_pool_pages_total): a few fewer than its size in pages, since
 * the pool's own block descriptors come out of the same memory (2,028 of 2,048 for 32 MiB on MariaDB 10.11).
 */
export async function poolFrames(conn: Connection, info: InnodbServerInfo): Promise<number | undefined> {
  const n = await statusNumber(conn, info, 'Innodb_buffer_pool_pages_total');
  return Number.isSafeInteger(n) && n > 0 && n <= info.poolPages ? n : undefined;
}

export async function poolPagesInUse(conn: Connection, info: InnodbServerInfo): Promise<number> {
  return (await statusNumber(conn, info, 'Innodb_buffer_pool_pages_data')) || 0;
}
