// The functions a PostgreSQL statement reaches beyond the names it calls, resolved from the catalogs: the
// operators it writes (each one's function), the relations it names that rewrite it (a view's query, a
// rule's actions, a row-level policy's expressions; through pg_depend, recursively: a view over a view),
// a written table's CHECK constraints and its columns' domain checks, casts to user types, and an
// aggregate's support functions. What is found goes to the same check as a called function.
import type { Client } from 'pg';

/** Operator tokens in text whose literals and comments are blanked out (a - or / alone is arithmetic, still a token). */
export function operatorTokens(masked: string): string[] {
  const out = new Set<string>();
  for (const m of masked.matchAll(/[+\-*/<>=~!@#%^&|`?]{1,63}/g)) out.add(m[0]);
  return [...out];
}

/** The functions behind the operators written: builtin ones are passed over by the caller, as for calls. */
export async function operatorFunctions(client: Client, tokens: string[]): Promise<number[]> {
  if (!tokens.length) return [];
  const r = await client.query<{ oid: number }>({
    text: `SELECT DISTINCT o.oprcode::oid::int AS oid FROM pg_operator o WHERE o.oprname = ANY($1::text[]) AND o.oprcode <> 0`,
    values: [tokens],
  });
  return r.rows.map((x) => x.oid);
}

/**
 * Functions the named relations reach through their rewrite rules (a view's _RETURN, a rule's DO ALSO or
 * INSTEAD actions) and row-level policies, through the objects those depend on: functions directly,
 * operators through their functions, and other relations recursively. Also returns the relations a rule
 * of a written table writes (their triggers run too).
 */
export async function rewrittenReach(client: Client, relationOids: number[], writes = false): Promise<{ functions: number[]; relations: number[] }> {
  const functions = new Set<number>();
  const seen = new Set<number>(relationOids);
  let pending = [...relationOids];
  for (let depth = 0; pending.length && depth < 8; depth++) {
    const r = await client.query<{ kind: string; oid: number }>({
      text: `WITH objs AS (
               SELECT 'pg_rewrite'::regclass AS classid, oid FROM pg_rewrite WHERE ev_class = ANY($1::oid[])
               UNION ALL SELECT 'pg_policy'::regclass, oid FROM pg_policy WHERE polrelid = ANY($1::oid[])
               -- A written row passes its table's CHECK constraints and its columns' domains' checks.
               UNION ALL SELECT 'pg_constraint'::regclass, c.oid FROM pg_constraint c WHERE $2 AND c.contype = 'c' AND (c.conrelid = ANY($1::oid[])
                 OR c.contypid IN (SELECT a.atttypid FROM pg_attribute a WHERE a.attrelid = ANY($1::oid[]) AND a.attnum > 0)))
             SELECT CASE d.refclassid WHEN 'pg_proc'::regclass THEN 'f' WHEN 'pg_operator'::regclass THEN 'o' ELSE 'r' END AS kind,
                    CASE d.refclassid WHEN 'pg_operator'::regclass THEN (SELECT oprcode::oid FROM pg_operator WHERE oid = d.refobjid)
                                      ELSE d.refobjid END::int AS oid
               FROM objs JOIN pg_depend d ON d.classid = objs.classid AND d.objid = objs.oid
              WHERE d.refclassid IN ('pg_proc'::regclass, 'pg_operator'::regclass, 'pg_class'::regclass) AND d.deptype = 'n'`,
      values: [pending, writes],
    });
    pending = [];
    for (const row of r.rows) {
      if (row.kind !== 'r') functions.add(row.oid);
      else if (!seen.has(row.oid)) {
        seen.add(row.oid);
        pending.push(row.oid);
      }
    }
  }
  return { functions: [...functions], relations: [...seen] };
}

/** The relations the statement names, where they exist (names quoted as relationNames gives them). */
export async function namedRelationOids(client: Client, names: string[]): Promise<number[]> {
  if (!names.length) return [];
  const r = await client.query<{ oid: number }>({
    text: `SELECT DISTINCT to_regclass(n)::oid::int AS oid FROM unnest($1::text[]) n WHERE to_regclass(n) IS NOT NULL`,
    values: [names],
  });
  return r.rows.map((x) => x.oid);
}

/** Type names a statement casts to (x::name, CAST(x AS name)), in text whose literals and comments are blanked out. */
export function castTargets(masked: string): string[] {
  const out = new Set<string>();
  const name = String.raw`((?:"(?:[^"]|""){1,63}"|[A-Za-z_][\w$]{0,62})(?:\s*\.\s*(?:"(?:[^"]|""){1,63}"|[A-Za-z_][\w$]{0,62}))?)`;
  for (const m of masked.matchAll(new RegExp(String.raw`::\s*${name}|\bAS\s+${name}\s*\)`, 'gi'))) out.add((m[1] ?? m[2]).replace(/\s+/g, ''));
  return [...out];
}

/** The functions of user-defined casts to the named types (a cast calls its function implicitly). */
export async function castFunctions(client: Client, types: string[]): Promise<number[]> {
  if (!types.length) return [];
  const r = await client.query<{ oid: number }>({
    text: `SELECT DISTINCT c.castfunc::int AS oid FROM pg_cast c
            WHERE c.castfunc <> 0 AND c.casttarget IN (SELECT to_regtype(n) FROM unnest($1::text[]) n WHERE to_regtype(n) IS NOT NULL)`,
    values: [types],
  });
  return r.rows.map((x) => x.oid);
}

/** An aggregate's support functions (transition, final, combine, serialise, moving-aggregate ones). */
export async function aggregateSupport(client: Client, aggregateOids: number[]): Promise<number[]> {
  if (!aggregateOids.length) return [];
  const r = await client.query<{ oid: number }>({
    text: `SELECT DISTINCT f::oid::int AS oid FROM pg_aggregate a,
                  unnest(ARRAY[a.aggtransfn, a.aggfinalfn, a.aggcombinefn, a.aggserialfn, a.aggdeserialfn,
                               a.aggmtransfn, a.aggminvtransfn, a.aggmfinalfn]::oid[]) f
            WHERE a.aggfnoid = ANY($1::oid[]) AND f <> 0`,
    values: [aggregateOids],
  });
  return r.rows.map((x) => x.oid);
}
