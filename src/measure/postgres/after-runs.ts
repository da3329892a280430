// What the queries BufferLens sends after the last run share (heap-blocks.ts, lookup-rows.ts,
// index-window.ts, key-range.ts): a read-only transaction under the measurement's statement timeout, rolled
// back whatever happens (a failure leaves that fact out of the prediction, so it gives the fallback, and is
// named in the report's warnings),
// and where an index's leading column is.
import type { Client } from 'pg';
import type { PlanNode } from '../../shared/report';
import { quotePostgresName } from '../../sql/quote';

/** Per connection, what the queries after the runs could not read, with why: the report says so. */
const failures = new WeakMap<Client, string[]>();

export function afterRunsFailures(client: Client): string[] {
  return failures.get(client) ?? [];
}

export async function readOnly<T>(client: Client, timeoutMs: number, fallback: T, read: () => Promise<T>, what = 'a query after the runs'): Promise<T> {
  try {
    await client.query('BEGIN READ ONLY');
    await client.query(`SET LOCAL statement_timeout = ${Math.max(1, Math.round(timeoutMs))}`);
    return await read();
  } catch (err) {
    const why = (err as Error).message.split('\n')[0];
    const list = failures.get(client) ?? [];
    list.push(`${what} could not be read after the runs (${why}): the prediction models it instead`);
    failures.set(client, list);
    return fallback;
  } finally {
    await client.query('ROLLBACK').catch(() => undefined);
  }
}

/** The first object id a database's own objects get (FirstNormalObjectId): those below are the server's. */
const FIRST_NORMAL_OID = 16384;

/**
 * An index's table (schema-qualified, quoted) and its first key column (quoted), from the catalogs, and
 * whether that column's type is built in (its comparison and text output are the server's own code).
 */
export async function indexLeadColumn(client: Client, indexOid: number): Promise<{ table: string; column: string; builtIn: boolean } | undefined> {
  const r = await client.query<{ schema: string; table: string; column: string; built_in: boolean }>({
    text: `SELECT tn.nspname AS schema, t.relname AS table, a.attname AS column, a.atttypid < ${FIRST_NORMAL_OID} AS built_in
             FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid JOIN pg_namespace tn ON tn.oid = t.relnamespace
             JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
            WHERE i.indexrelid = $1`,
    values: [indexOid],
  });
  const w = r.rows[0];
  if (!w) return undefined;
  return { table: `${quotePostgresName(w.schema)}.${quotePostgresName(w.table)}`, column: quotePostgresName(w.column), builtIn: w.built_in === true };
}

/**
 * The rows a scan alone visits: its index condition, and a partial index's predicate, which the planner
 * leaves out of the condition where the statement implies it (`status = 1` under `WHERE status = 1`).
 */
export function aloneCondition(alone: { indexCond: string }, index: { predicate?: string } | undefined): string {
  return index?.predicate ? `${alone.indexCond} AND (${index.predicate})` : alone.indexCond;
}

/** The plan's scan nodes, in plan order. */
export function scanNodes(n: PlanNode, out: PlanNode[] = []): PlanNode[] {
  if (/Scan$/.test(n.nodeType)) out.push(n);
  for (const c of n.children) scanNodes(c, out);
  return out;
}

/** How many nodes of the plan are of this type. */
export const countNodes = (n: PlanNode, type: string): number => (n.nodeType === type ? 1 : 0) + n.children.reduce((a, c) => a + countNodes(c, type), 0);

/** An index scan walked once (a parallel one's participants share one walk) over at least one and at most `max` rows. */
export function walkedOnce(n: PlanNode, max: number): boolean {
  if (n.nodeType !== 'Index Scan' && n.nodeType !== 'Index Only Scan') return false;
  if (!n.parallelAware && (n.actualLoops ?? 1) > 1) return false;
  const visited = ((n.actualRows ?? 0) + (n.rowsRemovedByFilter ?? 0)) * Math.max(1, n.actualLoops ?? 1);
  return visited > 0 && visited <= max;
}

/**
 * A scan asked about alone, as its table under its alias filtered by its index condition: where the
 * condition names its table alone (a join's inner lookups, whose conditions name the outer rows, are not).
 */
export function asAlone(n: PlanNode): { alias: string; indexCond: string } | undefined {
  if (!n.indexCond || !n.alias || /\$\d|SubPlan|InitPlan/i.test(n.indexCond)) return undefined;
  return { alias: quotePostgresName(n.alias), indexCond: n.indexCond };
}
