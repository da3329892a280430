// Which pages of each table and index sit in the InnoDB buffer pool, from INNODB_BUFFER_PAGE_LRU.
// That view walks the whole pool, so callers guard it by pool size.
import type { Connection } from 'mysql2/promise';
import type { ResidencySnapshot, TrackedRelation } from '../engine-session';
import { fromFilename, toFilename } from './filename';
import { isStatsDenied } from './privileges';
import type { InnodbServerInfo } from './server-info';

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

/**
 * The statement's relations as the user may read them: per index (statistics), per table (tablespace
 * sizes, without the statistics), or none (neither: no residency to read).
 */
export async function relationsAsAllowed(
  conn: Connection,
  tables: Array<{ schema: string; table: string }>,
  info: Pick<InnodbServerInfo, 'product' | 'pageSize'>,
  viewsReadable: boolean,
  warnings: string[],
): Promise<{ relations: InnodbRelation[]; statsDenied: boolean }> {
  try {
    return { relations: await resolveInnodbRelations(conn, tables), statsDenied: false };
  } catch (err) {
    if (!isStatsDenied(err)) throw err;
    if (!viewsReadable) return { relations: [], statsDenied: true };
    warnings.push(
      'residency per table, sized by its tablespace file (all its indexes together): the measuring user may not read mysql.innodb_index_stats, which ' +
      'names and sizes each index',
    );
    const spaces = info.product === 'mariadb' ? 'information_schema.INNODB_SYS_TABLESPACES' : 'information_schema.INNODB_TABLESPACES';
    return { relations: await tablesFromTablespaces(conn, tables, spaces, info.pageSize), statsDenied: true };
  }
}

export const relationKey = (innodbName: string, index: string) => `${innodbName}|${index}`;
/** The index name of a relation that stands for all of a table's indexes (tablesFromTablespaces). */
export const ALL_INDEXES = '*';

/** Every relation's size (its statistics) and, when `withCache`, its cached pages, keyed by the report's name. */
export async function readInnodbResidency(conn: Connection, rels: InnodbRelation[], withCache: boolean): Promise<ResidencySnapshot> {
  const out: ResidencySnapshot = new Map(rels.map((r) => [r.name, { pages: r.pages, cached: 0, ranges: [] }]));
  if (rels.length === 0 || !withCache) return out;
  const byKey = new Map(rels.map((r) => [relationKey(r.innodbName, r.index), out.get(r.name)!]));
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
    const entry = byKey.get(relationKey(r.t, r.i)) ?? byKey.get(relationKey(r.t, ALL_INDEXES));
    if (!entry) continue;
    entry.cached += Number(r.n);
    entry.ranges.push([Number(r.s), Number(r.e)]);
  }
  return out;
}

/** Why the residency was not read: a pool larger than the limit, which INNODB_BUFFER_PAGE_LRU walks whole. */
export function residencySkippedNote(poolPages: number, limit: number): string {
  return (
    `residency not read: the buffer pool holds ${poolPages.toLocaleString('en-US')} pages, above the limit of ${limit.toLocaleString('en-US')}; ` +
    'INNODB_BUFFER_PAGE_LRU walks the whole pool (--residency=always reads it anyway)'
  );
}
