// Whether an INSERT … SELECT's appended keys lie past the dead entries an earlier rolled-back write left at
// the index's end, or among them. _bt_search_insert's fast path takes the cached right-most leaf only, so
// keys below an earlier write's dead ones descend from the root each to the leaves before it (measured: 1,000
// rows, 4,046 requests against 2,024 with the fast path). Dead entries are in no view: a scan for keys past
// the largest inserted one counts the leaves it walks, as index-height.ts counts those past the live keys
// (this write's own runs' entries lie at or below that key, so they do not count). Read after the runs, in a
// read-only transaction, where the gate lets the statement's query be asked again.
import type { Client } from 'pg';
import type { PgRelationFacts } from '../../predict/postgres/facts';
import { quotePostgresName } from '../../sql/quote';
import { indexLeadColumn, readOnly } from './after-runs';
import { insertedRows, insertSelectParts } from './appended-keys';
import { ENDS, requestsPast } from './index-height';
import type { PgRelation } from './residency';

/** Per appended index (its plan name), the leaves of dead entries past the largest inserted key. */
export async function readDeadPastInserted(
  client: Client,
  statement: string,
  relations: PgRelation[],
  facts: PgRelationFacts[],
  appended: string[],
  heights: Record<string, number>,
  timeoutMs: number,
): Promise<Record<string, number>> {
  const parts = insertSelectParts(statement);
  const indexes = facts.filter((f) => f.kind === 'index' && appended.includes(f.planName) && heights[f.reportName] !== undefined && f.columns?.[0]);
  if (!parts || indexes.length === 0) return {};
  return readOnly(
    client,
    timeoutMs,
    {},
    async () => {
      for (const setting of ['enable_seqscan', 'enable_bitmapscan', 'enable_sort']) await client.query(`SET LOCAL ${setting} = off`);
      const { cte } = await insertedRows(client, parts);
      const largest = indexes.map((f, k) => {
        const c = quotePostgresName(f.columns![0]!);
        return `(SELECT s.${c}::text FROM s WHERE s.${c} IS NOT NULL ORDER BY s.${c} DESC LIMIT 1) AS k${k}`;
      });
      const res = await client.query<Record<string, string | null>>(
        `${cte} SELECT ${largest.join(', ')}`,
      );
      const out: Record<string, number> = {};
      for (const [k, f] of indexes.entries()) {
        const key = res.rows[0]?.[`k${k}`];
        const rel = relations.find((r) => r.name === f.reportName && r.kind === 'index');
        const lead = rel && (await indexLeadColumn(client, rel.oid));
        if (key === null || key === undefined || !lead?.builtIn) continue;
        const requests = await requestsPast(client, f, lead, ENDS[1], key);
        if (requests !== undefined) out[f.planName] = Math.max(0, requests - heights[f.reportName]);
      }
      return out;
    },
    'the dead entries past the keys an INSERT … SELECT appends',
  );
}
