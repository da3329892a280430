// The smallest and largest key of each unique one-column integer index the statement's relations have
// (not a partial one, whose MIN would scan the table), read after the last run: where a key sits among the
// leaves follows from it where the keys are dense (a serial key loaded in order), and what a table-wide
// update left in each leaf repeats with the leaves (version-churn.ts). Asked through the index's own ends
// (min and max), in a read-only transaction with the measurement's statement timeout; after the runs, so
// nothing run 1 reads is touched first.
import type { Client } from 'pg';
import type { PgRelationFacts } from '../../predict/postgres/facts';
import { indexLeadColumn, readOnly } from './after-runs';
import type { PgRelation } from './residency';

/** Per index (its report name), its smallest and largest key. */
export type PgKeyRanges = Record<string, { min: number; max: number }>;

export async function readKeyRanges(client: Client, relations: PgRelation[], facts: PgRelationFacts[], timeoutMs: number): Promise<PgKeyRanges> {
  const wanted = facts.flatMap((f) => {
    const rel = relations.find((r) => r.name === f.reportName && r.kind === 'index');
    return rel && f.kind === 'index' && f.unique && f.keyBytes ? [{ f, rel }] : [];
  });
  const ranges: PgKeyRanges = {};
  if (wanted.length === 0) return ranges;
  // Without the ends the keys' leaves stay modelled as before.
  await readOnly(
    client,
    timeoutMs,
    undefined,
    async () => {
      for (const { f, rel } of wanted) {
        const w = await indexLeadColumn(client, rel.oid);
        if (!w) continue;
        const r = await client.query<{ lo: string | null; hi: string | null }>(
          `SELECT min(${w.column})::text AS lo, max(${w.column})::text AS hi FROM ${w.table}`,
        );
        const [lo, hi] = [Number(r.rows[0]?.lo), Number(r.rows[0]?.hi)];
        if (r.rows[0]?.lo !== null && Number.isSafeInteger(lo) && Number.isSafeInteger(hi)) ranges[f.reportName] = { min: lo, max: hi };
      }
    },
    "the index keys' ends",
  );
  return ranges;
}
