// Which pages of each table and index sit in the InnoDB buffer pool, from INNODB_BUFFER_PAGE_LRU.
// That view walks the whole pool, so callers guard it by pool size.
import type { Connection } from 'mysql2/promise';
import type { ResidencySnapshot, TrackedRelation } from '../engine-session';
import { fromFilename, toFilename } from './filename';

export interface InnodbRelation extends TrackedRelation {
  /** `db`.`table` as InnoDB's information_schema spells it. */
  innodbName: string;
  schema: string;
  table: string;
  index: string;
  /** Shown name: db.table for the clustered index, db.table.index for a secondary one. */
  name: string;
  kind: 'table' | 'index';
  /** Leaf and non-leaf pages, from persistent statistics (mysql.innodb_index_stats 'size'). */
  pages: number;
}

/** The measuring user may not read mysql.innodb_index_stats (errno 1142/1143: SELECT command denied). */
export const isStatsDenied = (err: unknown): boolean => [1142, 1143].includes((err as { errno?: number }).errno ?? 0);

/**
 * The tables alone, sized by their tablespace files (every index of a table together), for a user who may
 * not read the index statistics: residency per table instead of per index, and no prediction.
 */
export async function tablesFromTablespaces(
  conn: Connection,
  tables: Array<{ schema: string; table: string }>,
  spaceView: string,
  pageSize: number,
): Promise<InnodbRelation[]> {
  if (tables.length === 0) return [];
  const [rows] = await conn.query(`SELECT NAME AS name, FILE_SIZE AS bytes FROM ${spaceView} WHERE NAME IN (?)`, [
    tables.map((t) => `${toFilename(t.schema)}/${toFilename(t.table)}`),
  ]);
  const bytes = new Map((rows as Array<{ name: string; bytes: number }>).map((r) => [r.name.split('/').map(fromFilename).join('/'), Number(r.bytes)]));
  return tables.map((t) => ({
    innodbName: `\`${t.schema}\`.\`${t.table}\``,
    schema: t.schema,
    table: t.table,
    index: ALL_INDEXES,
    name: `${t.schema}.${t.table}`,
    kind: 'table' as const,
    pages: Math.floor((bytes.get(`${t.schema}/${t.table}`) ?? 0) / pageSize),
  }));
}

export async function resolveInnodbRelations(conn: Connection, tables: Array<{ schema: string; table: string }>): Promise<InnodbRelation[]> {
  if (tables.length === 0) return [];
  const [rows] = await conn.query(
    `SELECT database_name AS s, table_name AS t, index_name AS i, stat_value AS pages
       FROM mysql.innodb_index_stats
      WHERE stat_name = 'size' AND (database_name, table_name) IN (${tables.map(() => '(?, ?)').join(', ')})
      ORDER BY database_name, table_name, index_name <> 'PRIMARY' AND index_name <> 'GEN_CLUST_INDEX', index_name`,
    tables.flatMap((t) => [t.schema, t.table]),
  );
  return (rows as Array<{ s: string; t: string; i: string; pages: number }>).map((r) => {
    const clustered = r.i === 'PRIMARY' || r.i === 'GEN_CLUST_INDEX';
    return {
      innodbName: `\`${r.s}\`.\`${r.t}\``,
      schema: r.s,
      table: r.t,
      index: r.i,
      name: clustered ? `${r.s}.${r.t}` : `${r.s}.${r.t}.${r.i}`,
      kind: clustered ? 'table' : 'index',
      pages: Number(r.pages),
    };
  });
}

const key = (innodbName: string, index: string) => `${innodbName}|${index}`;
/** The index name of a relation that stands for all of a table's indexes (tablesFromTablespaces). */
const ALL_INDEXES = '*';

/** Every relation's size (its statistics) and, when `withCache`, its cached pages, keyed by the report's name. */
export async function readInnodbResidency(conn: Connection, rels: InnodbRelation[], withCache: boolean): Promise<ResidencySnapshot> {
  const out: ResidencySnapshot = new Map(rels.map((r) => [r.name, { pages: r.pages, cached: 0, ranges: [] }]));
  if (rels.length === 0 || !withCache) return out;
  const byKey = new Map(rels.map((r) => [key(r.innodbName, r.index), out.get(r.name)!]));
  const names = [...new Set(rels.map((r) => r.innodbName))];
  const [rows] = await conn.query(
    `SELECT TABLE_NAME AS t, INDEX_NAME AS i, MIN(PAGE_NUMBER) AS s, MAX(PAGE_NUMBER) AS e, COUNT(*) AS n
       FROM (SELECT TABLE_NAME, INDEX_NAME, PAGE_NUMBER,
                    PAGE_NUMBER - ROW_NUMBER() OVER (PARTITION BY TABLE_NAME, INDEX_NAME ORDER BY PAGE_NUMBER) AS g
               FROM information_schema.INNODB_BUFFER_PAGE_LRU
              WHERE TABLE_NAME IN (?)) x
      GROUP BY TABLE_NAME, INDEX_NAME, g
      ORDER BY TABLE_NAME, INDEX_NAME, s`,
    [names],
  );
  for (const r of rows as Array<{ t: string; i: string; s: number; e: number; n: number }>) {
    // A table tracked as a whole (ALL_INDEXES) counts the pages of every index of it.
    const entry = byKey.get(key(r.t, r.i)) ?? byKey.get(key(r.t, ALL_INDEXES));
    if (!entry) continue;
    entry.cached += Number(r.n);
    entry.ranges.push([Number(r.s), Number(r.e)]);
  }
  return out;
}

/**
 * The LRU list as the prediction's starting state: its length, the position where the old sublist begins,
 * and each cached page of the relations with its position from the head. One more walk of the pool, read
 * only where residency is (the pool is under the residency limit).
 */
export async function readLruSeed(
  conn: Connection,
  rels: InnodbRelation[],
): Promise<{ length: number; firstOld: number | null; pages: Array<[number, number, number]> }> {
  const [summary] = await conn.query(
    `SELECT COUNT(*) AS n, MIN(CASE WHEN IS_OLD = 'YES' THEN LRU_POSITION END) AS firstOld FROM information_schema.INNODB_BUFFER_PAGE_LRU`,
  );
  const { n, firstOld } = (summary as Array<{ n: number; firstOld: number | null }>)[0];
  const pages: Array<[number, number, number]> = [];
  if (rels.length) {
    const index = new Map(rels.map((r, i) => [key(r.innodbName, r.index), i]));
    const [rows] = await conn.query(
      `SELECT TABLE_NAME AS t, INDEX_NAME AS i, PAGE_NUMBER AS p, LRU_POSITION AS pos FROM information_schema.INNODB_BUFFER_PAGE_LRU WHERE TABLE_NAME IN (?)`,
      [[...new Set(rels.map((r) => r.innodbName))]],
    );
    for (const r of rows as Array<{ t: string; i: string; p: number; pos: number }>) {
      const i = index.get(key(r.t, r.i));
      if (i !== undefined) pages.push([i, Number(r.p), Number(r.pos)]);
    }
  }
  return { length: Number(n), firstOld: firstOld === null ? null : Number(firstOld), pages };
}
