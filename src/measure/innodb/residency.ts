// Which pages of each table and index sit in the InnoDB buffer pool, from INNODB_BUFFER_PAGE_LRU.
// That view walks the whole pool, so callers guard it by pool size.
import type { Connection } from 'mysql2/promise';

export interface InnodbRelation {
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

export type InnodbResidency = Map<string, { cached: number; ranges: Array<[number, number]> }>;

const key = (innodbName: string, index: string) => `${innodbName}|${index}`;

export async function readInnodbResidency(conn: Connection, rels: InnodbRelation[]): Promise<InnodbResidency> {
  const out: InnodbResidency = new Map();
  if (rels.length === 0) return out;
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
    const k = key(r.t, r.i);
    const entry = out.get(k) ?? { cached: 0, ranges: [] };
    entry.cached += Number(r.n);
    entry.ranges.push([Number(r.s), Number(r.e)]);
    out.set(k, entry);
  }
  return out;
}

export function cachedOf(res: InnodbResidency, rel: InnodbRelation) {
  return res.get(key(rel.innodbName, rel.index)) ?? { cached: 0, ranges: [] };
}
