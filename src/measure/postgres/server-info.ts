// What the server is and can do: read once per measurement, before run 1.
import type { Client } from 'pg';

export interface PostgresServerInfo {
  version: string;
  major: number;
  blockSize: number;
  settings: Record<string, string | number | null>;
  isSuperuser: boolean;
  /** pg_buffercache installed in this database, and its version. */
  buffercache: string | null;
  /** pg_buffercache is available to install (CREATE EXTENSION) on this server. */
  buffercacheAvailable: boolean;
  canCreateExtension: boolean;
  /**
   * The schema of pg_visibility where installed in this database and this user may read the visibility
   * map with it (superusers and pg_stat_scan_tables), else null.
   */
  visibility: string | null;
  /** pg_visibility is available to install on this server. */
  visibilityAvailable: boolean;
  hasStatIo: boolean;
  canSetTrackIoTiming: boolean;
  canForceStatsFlush: boolean;
  evictRelation: boolean;
  evictBuffer: boolean;
}

const SETTINGS = [
  'shared_buffers',
  'block_size',
  'effective_io_concurrency',
  'maintenance_io_concurrency',
  'io_combine_limit',
  'io_method',
  'io_workers',
  'max_parallel_workers_per_gather',
  'max_parallel_workers',
  'max_connections',
  'track_io_timing',
  'synchronize_seqscans',
  'data_checksums',
  'wal_log_hints',
  'max_worker_processes',
  'autovacuum_worker_slots',
  'max_wal_senders',
];

export async function readServerInfo(client: Client): Promise<PostgresServerInfo> {
  const r = await client.query({
    text: `SELECT current_setting('server_version') AS version,
                  current_setting('server_version_num')::int AS num,
                  current_setting('block_size')::int AS block_size,
                  (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) AS superuser,
                  (SELECT extversion FROM pg_extension WHERE extname = 'pg_buffercache') AS buffercache,
                  EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_buffercache') AS buffercache_available,
                  (SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
                    WHERE e.extname = 'pg_visibility'
                      AND (pg_has_role('pg_stat_scan_tables', 'USAGE') OR (SELECT rolsuper FROM pg_roles WHERE rolname = current_user))) AS visibility,
                  EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_visibility') AS visibility_available,
                  has_database_privilege(current_database(), 'CREATE') AS can_create,
                  to_regclass('pg_catalog.pg_stat_io') IS NOT NULL AS has_stat_io,
                  to_regproc('pg_catalog.pg_stat_force_next_flush') IS NOT NULL AS has_flush,
                  (SELECT json_object_agg(name, current_setting(name)) FROM pg_settings WHERE name = ANY($1)) AS settings,
                  (SELECT setting::bigint FROM pg_settings WHERE name = 'shared_buffers') AS nbuffers`,
    values: [SETTINGS],
  });
  const row = r.rows[0];
  const major = Math.floor(row.num / 10000);
  const superuser = row.superuser === true;
  const info: PostgresServerInfo = {
    version: row.version,
    major,
    blockSize: row.block_size,
    settings: { ...(row.settings ?? {}), shared_buffers_pages: Number(row.nbuffers) },
    isSuperuser: superuser,
    buffercache: row.buffercache,
    buffercacheAvailable: row.buffercache_available,
    canCreateExtension: superuser || row.can_create === true,
    visibility: row.visibility ?? null,
    visibilityAvailable: row.visibility_available === true,
    hasStatIo: row.has_stat_io,
    canSetTrackIoTiming: superuser,
    canForceStatsFlush: row.has_flush && superuser,
    evictRelation: false,
    evictBuffer: false,
  };
  if (!superuser) {
    const p = await client.query(
      major >= 15
        ? `SELECT has_parameter_privilege('track_io_timing', 'SET') AS io,
                  to_regproc('pg_catalog.pg_stat_force_next_flush') IS NOT NULL
                  AND has_function_privilege('pg_catalog.pg_stat_force_next_flush()', 'EXECUTE') AS flush`
        : `SELECT false AS io, false AS flush`,
    );
    info.canSetTrackIoTiming = p.rows[0].io === true;
    info.canForceStatsFlush = p.rows[0].flush === true;
  }
  if (info.buffercache) {
    const f = await client.query(
      `SELECT to_regproc('pg_buffercache_evict_relation') IS NOT NULL AS rel, to_regproc('pg_buffercache_evict') IS NOT NULL AS buf`,
    );
    info.evictRelation = f.rows[0].rel;
    info.evictBuffer = f.rows[0].buf;
  }
  return info;
}

/** How to get pg_buffercache, said plainly. */
export function buffercacheAdvice(info: PostgresServerInfo): string {
  if (!info.buffercacheAvailable) {
    return "pg_buffercache is not installed on this server (it ships with PostgreSQL's contrib package, e.g. Debian's postgresql-contrib); residency is not " +
      "reported";
  }
  return info.canCreateExtension
    ? 'pg_buffercache is not enabled in this database: run CREATE EXTENSION pg_buffercache (or pass --create-extension); residency is not reported'
    : 'pg_buffercache is not enabled in this database and this user may not create it: ask an administrator to run CREATE EXTENSION pg_buffercache; ' +
      'residency is not reported';
}
