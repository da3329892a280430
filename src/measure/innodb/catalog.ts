// Index statistics and tablespace sizes for the InnoDB prediction, and the pool's other pages.
import type { Connection } from 'mysql2/promise';
import type { InnodbIndexFacts } from '../../predict/innodb/predictor';
import { cachedOf, type InnodbRelation, type InnodbResidency } from './residency';
import type { InnodbServerInfo } from './server-info';

export async function readInnodbFacts(conn: Connection, info: InnodbServerInfo, rels: InnodbRelation[], residency: InnodbResidency): Promise<InnodbIndexFacts[]> {
  if (rels.length === 0) return [];
  const tables = [...new Set(rels.map((r) => `${r.schema}\u0000${r.table}`))].map((k) => k.split('\u0000'));
  const [stats] = await conn.query(
    `SELECT database_name AS s, table_name AS t, index_name AS i,
            MAX(CASE WHEN stat_name = 'n_leaf_pages' THEN stat_value END) AS leaf,
            MAX(CASE WHEN stat_name = 'size' THEN stat_value END) AS size
       FROM mysql.innodb_index_stats WHERE (database_name, table_name) IN (${tables.map(() => '(?, ?)').join(', ')})
      GROUP BY database_name, table_name, index_name`,
    tables.flat(),
  );
  const spaceTable = info.product === 'mariadb' ? 'information_schema.INNODB_SYS_TABLESPACES' : 'information_schema.INNODB_TABLESPACES';
  const [spaces] = await conn.query(`SELECT NAME AS name, FILE_SIZE AS bytes FROM ${spaceTable} WHERE NAME IN (?)`, [tables.map(([s, t]) => `${s}/${t}`)]);
  const statRows = stats as Array<{ s: string; t: string; i: string; leaf: number; size: number }>;
  const spaceBytes = new Map((spaces as Array<{ name: string; bytes: number }>).map((r) => [r.name, Number(r.bytes)]));
  return rels.map((r) => {
    const st = statRows.find((x) => x.s === r.schema && x.t === r.table && x.i === r.index);
    return {
      reportName: r.name,
      table: r.table,
      index: r.index,
      clustered: r.kind === 'table',
      leafPages: Number(st?.leaf ?? 0),
      sizePages: Number(st?.size ?? r.pages),
      spacePages: Math.floor((spaceBytes.get(`${r.schema}/${r.table}`) ?? 0) / info.pageSize) || Number.MAX_SAFE_INTEGER,
      cachedBefore: cachedOf(residency, r).ranges,
    };
  });
}

export async function poolPagesInUse(conn: Connection, info: InnodbServerInfo): Promise<number> {
  const [rows] = await conn.query(`SELECT VARIABLE_VALUE AS v FROM ${info.statusTable} WHERE VARIABLE_NAME = ?`, [
    info.product === 'mariadb' ? 'INNODB_BUFFER_POOL_PAGES_DATA' : 'Innodb_buffer_pool_pages_data',
  ]);
  return Number((rows as Array<{ v: string }>)[0]?.v ?? 0);
}
