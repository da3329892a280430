// Which blocks of each relation sit in shared buffers, from pg_buffercache, in one query.
import type { Client } from 'pg';
import type { RelationRef } from './plan';
import type { ResidencySnapshot, TrackedRelation } from '../engine-session';
import { quotePostgresName } from '../../sql/quote';

export interface PgRelation extends TrackedRelation {
  oid: number;
  filenode: number;
}

/** The plan's relations, each table with its indexes and TOAST table (and TOAST index). */
export async function resolveRelations(client: Client, refs: RelationRef[]): Promise<PgRelation[]> {
  const names = refs.map((r) => (r.schema ? `${quotePostgresName(r.schema)}.${quotePostgresName(r.name)}` : quotePostgresName(r.name)));
  const indexesOfTables = refs
    .filter((r) => r.kind === 'table')
    .map((r) => (r.schema ? `${quotePostgresName(r.schema)}.${quotePostgresName(r.name)}` : quotePostgresName(r.name)));
  const r = await client.query({
    text: `WITH named AS (
             SELECT to_regclass(n) AS oid FROM unnest($1::text[]) n
           ), tables AS (
             SELECT to_regclass(n) AS oid FROM unnest($2::text[]) n
           ), related AS (
             SELECT oid FROM named WHERE oid IS NOT NULL
             UNION SELECT i.indexrelid FROM pg_index i JOIN tables t ON i.indrelid = t.oid
             UNION SELECT c.reltoastrelid FROM pg_class c JOIN tables t ON c.oid = t.oid WHERE c.reltoastrelid <> 0
             UNION SELECT i.indexrelid FROM pg_index i JOIN pg_class c ON i.indrelid = c.reltoastrelid JOIN tables t ON c.oid = t.oid
           )
           SELECT c.oid::int AS oid, c.oid::regclass::text AS name, c.relkind::text AS relkind, pg_relation_filenode(c.oid)::int AS filenode
             FROM related JOIN pg_class c ON c.oid = related.oid
            WHERE pg_relation_filenode(c.oid) IS NOT NULL
            ORDER BY c.relkind = 'i', c.oid::regclass::text`,
    values: [names, indexesOfTables],
  });
  return r.rows.map((row) => ({
    oid: row.oid,
    name: row.name,
    kind: row.relkind === 'i' ? 'index' : row.relkind === 'r' || row.relkind === 'm' || row.relkind === 't' ? 'table' : 'other',
    filenode: row.filenode,
  }));
}

/** Sizes of the relations and, with pg_buffercache, their cached blocks, keyed by the report's name. */
export async function readResidency(client: Client, rels: PgRelation[], withBuffercache: boolean): Promise<ResidencySnapshot> {
  const out: ResidencySnapshot = new Map();
  if (rels.length === 0) return out;
  // One pass over pg_buffercache for all relations (its function materialises every buffer header, so
  // per-relation subqueries would pay that once each); gaps-and-islands turns block numbers into ranges
  // on the server, a block map without shipping one row per buffer.
  const r = await client.query({
    text: `WITH rels AS (
             SELECT oid, pg_relation_filenode(oid) AS filenode,
                    (pg_relation_size(oid) / current_setting('block_size')::int)::int AS pages
               FROM unnest($1::oid[]) AS oid
           )${
             withBuffercache
               ? `, cached AS (
             SELECT relfilenode, relblocknumber,
                    relblocknumber - row_number() OVER (PARTITION BY relfilenode ORDER BY relblocknumber) AS g
               FROM pg_buffercache
              WHERE relforknumber = 0 AND relfilenode IN (SELECT filenode FROM rels)
                AND reldatabase = (SELECT oid FROM pg_database WHERE datname = current_database())
           ), ranges AS (
             SELECT relfilenode, json_agg(json_build_array(s, e) ORDER BY s) AS ranges
               FROM (SELECT relfilenode, min(relblocknumber)::int AS s, max(relblocknumber)::int AS e FROM cached GROUP BY relfilenode, g) x
              GROUP BY relfilenode
           )`
               : ''
           }
           SELECT rels.oid::int AS oid, rels.pages, ${withBuffercache ? 'ranges.ranges' : 'NULL AS ranges'}
             FROM rels ${withBuffercache ? 'LEFT JOIN ranges ON ranges.relfilenode = rels.filenode' : ''}`,
    values: [rels.map((x) => x.oid)],
  });
  const nameOf = new Map(rels.map((x) => [x.oid, x.name]));
  for (const row of r.rows) {
    const ranges = (row.ranges ?? []) as Array<[number, number]>;
    out.set(nameOf.get(row.oid)!, { pages: row.pages, ranges, cached: ranges.reduce((a, [s, e]) => a + e - s + 1, 0) });
  }
  return out;
}

/**
 * Shared buffers buffer by buffer, for the prediction's starting state: a usage count per buffer ('-' when
 * free), each cached block of the relations with its buffer id, and which of those are dirty (written since
 * the last checkpoint, where no VACUUM ran since). One more scan of the buffer headers, read only where
 * residency is (under its limit).
 */
export async function readBufferSeed(
  client: Client,
  rels: PgRelation[],
): Promise<{ usage: string; blocks: Array<[number, number, number]>; dirty: Array<[number, number]> }> {
  const r = await client.query({
    text: `SELECT string_agg(CASE WHEN relfilenode IS NULL THEN '-' ELSE least(usagecount, 5)::text END, '' ORDER BY bufferid) AS usage FROM pg_buffercache`,
  });
  const index = new Map(rels.map((rel, i) => [rel.filenode, i]));
  const b = await client.query({
    text: `SELECT relfilenode::int AS f, relblocknumber::int AS block, bufferid::int - 1 AS buffer, isdirty AS dirty FROM pg_buffercache
            WHERE relforknumber = 0 AND relfilenode = ANY($1::oid[])
              AND reldatabase = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    values: [rels.map((x) => x.filenode)],
  });
  // A VACUUM dirties the pages it marks all-visible: where one ran since the last checkpoint (one at least
  // every checkpoint_timeout, and at the server's start), a dirty page says nothing of its visibility.
  const v = await client.query<{ oid: number }>({
    text: `SELECT o::int AS oid FROM unnest($1::oid[]) o
            WHERE greatest(pg_stat_get_last_vacuum_time(o), pg_stat_get_last_autovacuum_time(o))
                  > greatest(pg_postmaster_start_time(), now() - current_setting('checkpoint_timeout')::interval)`,
    values: [rels.map((x) => x.oid)],
  });
  const vacuumedSince = new Set(v.rows.map((row) => row.oid));
  const blocks: Array<[number, number, number]> = [];
  const dirty: Array<[number, number]> = [];
  for (const row of b.rows) {
    const i = index.get(row.f);
    if (i !== undefined) blocks.push([i, row.block, row.buffer]);
    if (i !== undefined && row.dirty === true && !vacuumedSince.has(rels[i].oid)) dirty.push([i, row.block]);
  }
  return { usage: r.rows[0].usage ?? '', blocks, dirty };
}
