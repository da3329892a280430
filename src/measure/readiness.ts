// What BufferLens needs of a server beyond a connection, checked as Test Connection runs: each need met
// or not, why it matters, and the SQL that meets it. Reading catalogs only: nothing is changed.
import type { Client } from 'pg';
import type { Connection } from 'mysql2/promise';
import type { ConnectionTarget } from '../db/connection-url';
import { connectPostgres } from '../db/postgres';
import { connectMysql } from '../db/mysql';

export interface Need {
  ok: boolean;
  /** What it gives, e.g. "residency (which pages are cached) and warm predictions". */
  what: string;
  /** The SQL that meets it, when it is not met and SQL can. */
  fix?: string;
  /** A limit of the server that no grant lifts (eviction): said, not counted as missing. */
  note?: boolean;
}

const quoteIdent = (s: string) => `"${s.replace(/"/g, '""')}"`;
const quoteLiteral = (s: string) => `'${s.replace(/'/g, "''")}'`;

async function postgresNeeds(c: Client): Promise<Need[]> {
  const r = (
    await c.query(`SELECT current_user AS u, current_database() AS db, current_setting('server_version_num')::int AS v,
              (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) AS superuser,
              EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_buffercache') AS buffercache,
              EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_buffercache') AS available,
              pg_has_role(current_user, 'pg_monitor', 'MEMBER') AS monitor`)
  ).rows[0] as { u: string; db: string; v: number; superuser: boolean; buffercache: boolean; available: boolean; monitor: boolean };
  const needs: Need[] = [];
  needs.push(
    r.buffercache
      ? { ok: true, what: 'pg_buffercache is installed: residency (which pages are cached) and the warm starting state of predictions' }
      : {
          ok: false,
          what: `pg_buffercache is not installed in ${r.db}: no residency, and predictions assume nothing was ` +
            `cached${r.available ? '' : " (the server does not ship it: install PostgreSQL's contrib package)"}`,
          ...(r.available ? { fix: 'CREATE EXTENSION pg_buffercache;' } : {}),
        },
  );
  needs.push(
    r.superuser || r.monitor
      ? { ok: true, what: `${r.u} may read pg_buffercache and the statistics views (pg_monitor or superuser)` }
      : { ok: false, what: `${r.u} may not read pg_buffercache (it needs pg_monitor)`, fix: `GRANT pg_monitor TO ${quoteIdent(r.u)};` },
  );
  if (r.v >= 170000) {
    needs.push(
      r.superuser
        ? { ok: true, what: `${r.u} may evict relations, so run 1 can be cold (pg_buffercache_evict needs a superuser)` }
        : { ok: false, note: true, what: `${r.u} may not evict relations (pg_buffercache_evict needs a superuser): run 1 is measured as found, not cold` },
    );
  } else {
    needs.push({ ok: false, note: true, what: `PostgreSQL ${Math.floor(r.v / 10000)} cannot evict one relation: run 1 is cold only right after a restart` });
  }
  return needs;
}

async function mysqlNeeds(c: Connection): Promise<Need[]> {
  const [[me]] = (await c.query('SELECT CURRENT_USER() AS u')) as unknown as [[{ u: string }]];
  const [user, host] = String(me.u).split('@');
  const account = `${quoteLiteral(user)}@${quoteLiteral(host ?? '%')}`;
  const can = async (sql: string) =>
    c.query(sql).then(
      () => true,
      () => false,
    );
  return [
    (await can('SELECT NAME FROM information_schema.INNODB_METRICS LIMIT 1'))
      ? { ok: true, what: `${user} may read InnoDB's information_schema views (PROCESS): residency and change-buffer metrics` }
      : {
          ok: false,
          what: `${user} may not read InnoDB's information_schema views (they need PROCESS): no residency`,
          fix: `GRANT PROCESS ON *.* TO ${account};`,
        },
    (await can('SELECT 1 FROM mysql.innodb_index_stats LIMIT 1'))
      ? { ok: true, what: `${user} may read mysql.innodb_index_stats: index sizes and the prediction` }
      : {
          ok: false,
          what: `${user} may not read mysql.innodb_index_stats: residency per table only, and no prediction`,
          fix: `GRANT SELECT ON mysql.innodb_index_stats TO ${account};`,
        },
    { ok: false, note: true, what: 'InnoDB cannot evict one table: run 1 is cold only right after a restart with innodb_buffer_pool_load_at_startup=OFF' },
  ];
}

/** Checks what measuring needs on the server the target names. */
export async function serverNeeds(target: ConnectionTarget): Promise<Need[]> {
  if (target.engine === 'postgresql') {
    const c = await connectPostgres(target);
    try {
      return await postgresNeeds(c);
    } finally {
      await c.end().catch(() => undefined);
    }
  }
  const c = await connectMysql(target);
  try {
    return await mysqlNeeds(c);
  } finally {
    await c.end().catch(() => undefined);
  }
}
