// Which product and release the server is, and the settings that explain its buffer-pool numbers.
import type { Connection } from 'mysql2/promise';

export type InnodbProduct = 'mysql' | 'mariadb';

export interface InnodbServerInfo {
  product: InnodbProduct;
  version: string;
  /** [major, minor, patch] of the product's own numbering. */
  release: [number, number, number];
  pageSize: number;
  poolPages: number;
  settings: Record<string, string | number | null>;
  /** Where global status lives: performance_schema on MySQL, information_schema on MariaDB. */
  statusTable: string;
  /** MariaDB's ANALYZE FORMAT=JSON reports r_engine_stats. */
  hasEngineStats: boolean;
  /** MySQL 8.0.18+: EXPLAIN ANALYZE. */
  hasExplainAnalyze: boolean;
}

const SETTINGS = [
  'innodb_buffer_pool_size',
  'innodb_page_size',
  'innodb_buffer_pool_instances',
  'innodb_old_blocks_pct',
  'innodb_old_blocks_time',
  'innodb_read_ahead_threshold',
  'innodb_random_read_ahead',
  'innodb_change_buffering',
  'innodb_change_buffer_max_size',
  'innodb_buffer_pool_load_at_startup',
  'innodb_lru_scan_depth',
  'innodb_undo_tablespaces',
  'eq_range_index_dive_limit',
];

export function parseProduct(version: string, comment: string): { product: InnodbProduct; release: [number, number, number] } {
  const m = /(\d+)\.(\d+)\.(\d+)/.exec(version);
  const release: [number, number, number] = m ? [Number(m[1]), Number(m[2]), Number(m[3])] : [0, 0, 0];
  return { product: /mariadb/i.test(version) || /mariadb/i.test(comment) ? 'mariadb' : 'mysql', release };
}

export function atLeast(release: [number, number, number], ...want: number[]): boolean {
  for (let i = 0; i < 3; i++) {
    if ((release[i] ?? 0) !== (want[i] ?? 0)) return (release[i] ?? 0) > (want[i] ?? 0);
  }
  return true;
}

export async function readInnodbServerInfo(conn: Connection): Promise<InnodbServerInfo> {
  const [rows] = await conn.query(`SELECT VERSION() AS version, @@version_comment AS comment`);
  const { version, comment } = (rows as Array<{ version: string; comment: string }>)[0];
  const { product, release } = parseProduct(version, comment);
  const [vars] = await conn.query(
    `SELECT VARIABLE_NAME AS name, VARIABLE_VALUE AS value
       FROM ${product === 'mysql' ? 'performance_schema.global_variables' : 'information_schema.GLOBAL_VARIABLES'}
      WHERE VARIABLE_NAME IN (?)`,
    [SETTINGS.map((s) => (product === 'mysql' ? s : s.toUpperCase()))],
  );
  const settings: Record<string, string | number | null> = {};
  for (const s of SETTINGS) settings[s] = null;
  for (const { name, value } of vars as Array<{ name: string; value: string }>) {
    const n = Number(value);
    settings[name.toLowerCase()] = value !== '' && Number.isFinite(n) ? n : value;
  }
  const pageSize = Number(settings.innodb_page_size) || 16384;
  return {
    product,
    version,
    release,
    pageSize,
    poolPages: Math.floor(Number(settings.innodb_buffer_pool_size) / pageSize),
    settings,
    statusTable: product === 'mysql' ? 'performance_schema.global_status' : 'information_schema.GLOBAL_STATUS',
    hasEngineStats: product === 'mariadb' && atLeast(release, 10, 9, 0),
    hasExplainAnalyze: product === 'mysql' && atLeast(release, 8, 0, 18),
  };
}
