// The relations a PostgreSQL statement reads and writes, from its text and the catalogs: every name in it
// that is a table (a view standing for the tables behind it, through its rewrite rule's dependencies).
// Nothing here plans the statement: planning reads index metapages and probes index ends, and nothing
// BufferLens sends before run 1 may touch the statement's pages.
import type { Client } from 'pg';
import { maskSql } from '../../sql/mask';
import type { RelationRef } from './plan';

const quote = (part: string) => `"${part.replace(/"/g, '""')}"`;

/** Names and schema.names in the statement, quoted as PostgreSQL reads them (bare names fold to lower case). */
export function relationNames(statement: string): string[] {
  const ident = String.raw`(?:"((?:[^"]|""){1,63})"|([A-Za-z_][\w$]{0,62}))`;
  const re = new RegExp(String.raw`(?<![\w$."])${ident}(?:\s*\.\s*${ident})?`, 'g');
  const part = (q: string | undefined, bare: string | undefined) => quote(q !== undefined ? q.replace(/""/g, '"') : bare!.toLowerCase());
  const out = new Set<string>();
  for (const m of maskSql(statement, 'postgresql').matchAll(re)) {
    out.add(m[3] !== undefined || m[4] !== undefined ? `${part(m[1], m[2])}.${part(m[3], m[4])}` : part(m[1], m[2]));
    if (out.size >= 5000) break;
  }
  return [...out];
}

/** The names a data-changing statement writes: INSERT INTO, UPDATE, DELETE FROM, MERGE INTO targets. */
export function writtenNames(statement: string): string[] {
  const target = String.raw`((?:"(?:[^"]|""){1,63}"|[A-Za-z_][\w$]{0,62})(?:\s*\.\s*(?:"(?:[^"]|""){1,63}"|[A-Za-z_][\w$]{0,62}))?)`;
  const re = new RegExp(String.raw`\b(?:INSERT\s+INTO|UPDATE(?:\s+ONLY)?|DELETE\s+FROM(?:\s+ONLY)?|MERGE\s+INTO)\s+${target}`, 'gi');
  return [...maskSql(statement, 'postgresql').matchAll(re)].flatMap((m) => relationNames(m[1]).slice(-1));
}

/** The tables behind the names (views resolved to their base tables, recursively). */
export async function statementTables(client: Client, names: string[]): Promise<Array<RelationRef & { oid: number }>> {
  if (!names.length) return [];
  const r = await client.query({
    text: `WITH RECURSIVE named AS (
             SELECT to_regclass(n) AS oid FROM unnest($1::text[]) n
           ), reaches AS (
             -- A view reaches the relations its query reads; a partitioned (or inheritance) parent its children.
             SELECT rw.ev_class AS parent, d.refobjid AS child, true AS via_view
               FROM pg_rewrite rw
               JOIN pg_depend d ON d.objid = rw.oid AND d.classid = 'pg_rewrite'::regclass AND d.refclassid = 'pg_class'::regclass
              WHERE d.refobjid <> rw.ev_class
             UNION ALL
             SELECT inhparent, inhrelid, false FROM pg_inherits
           ), rels AS (
             SELECT c.oid, c.relkind FROM pg_class c JOIN named ON named.oid = c.oid
             UNION
             SELECT base.oid, base.relkind FROM rels
               JOIN reaches e ON e.parent = rels.oid
               JOIN pg_class base ON base.oid = e.child
              WHERE e.via_view = (rels.relkind = 'v')
           )
           SELECT DISTINCT c.oid::int AS oid, n.nspname AS schema, c.relname AS name
             FROM rels JOIN pg_class c ON c.oid = rels.oid JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE c.relkind IN ('r', 'm', 't')`,
    values: [names],
  });
  return r.rows.map((row) => ({ oid: row.oid, schema: row.schema, name: row.name, kind: 'table' as const }));
}
