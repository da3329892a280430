// The smallest and largest key of each unique one-column integer index the statement's relations have
// (not a partial one, whose MIN would scan the table), read after the last run: where a key sits among the
// leaves follows from it where the keys are dense (a serial key loaded in order), and what a table-wide
// update left in each leaf repeats with the leaves (version-churn.ts). Asked through the index's own ends
// (min and max), in a read-only transaction with the measurement's statement timeout; after the runs, so
// nothing run 1 reads is touched first.
import type { Client } from 'pg';
import type { PgRelationFacts } from '../../predict/postgres/facts';
import { quotePostgresName } from '../../sql/quote';
import type { PgRelation } from './residency';

export async function readKeyRanges(client: Client, relations: PgRelation[], facts: PgRelationFacts[], timeoutMs: number): Promise<void> {
  const wanted = facts.flatMap((f) => {
    const rel = relations.find((r) => r.name === f.reportName && r.kind === 'index');
    return rel && f.kind === 'index' && f.unique && f.keyBytes ? [{ f, rel }] : [];
  });
  if (wanted.length === 0) return;
  try {
    await client.query('BEGIN READ ONLY');
    await client.query(`SET LOCAL statement_timeout = ${Math.max(1, Math.round(timeoutMs))}`);
    for (const { f, rel } of wanted) {
      const where = await client.query<{ schema: string; table: string; column: string }>({
        text: `SELECT tn.nspname AS schema, t.relname AS table, a.attname AS column
                 FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid JOIN pg_namespace tn ON tn.oid = t.relnamespace
                 JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
                WHERE i.indexrelid = $1`,
        values: [rel.oid],
      });
      const w = where.rows[0];
      if (!w) continue;
      const column = quotePostgresName(w.column);
      const r = await client.query<{ lo: string | null; hi: string | null }>(`SELECT min(${column})::text AS lo, max(${column})::text AS hi FROM ${quotePostgresName(w.schema)}.${quotePostgresName(w.table)}`);
      const [lo, hi] = [Number(r.rows[0]?.lo), Number(r.rows[0]?.hi)];
      if (r.rows[0]?.lo !== null && Number.isSafeInteger(lo) && Number.isSafeInteger(hi)) f.keyRange = { min: lo, max: hi };
    }
  } catch {
    // Without the ends the keys' leaves stay modelled as before.
  } finally {
    await client.query('ROLLBACK').catch(() => undefined);
  }
}
