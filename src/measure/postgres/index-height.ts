// How many levels each B-tree of the statement's relations has, from root to leaf, read after the last run.
// Its size does not tell: a sorted build fills internal pages to 70 % and needs a level more where random
// inserts would have left every leaf under one root, and an index grown since lies between (measured: a
// covering index of 387 pages, three levels, taken as two from its size; every write to it a request short).
// Asked as the server descends it: an index-only scan of the index's first entry (ORDER BY its first column,
// LIMIT 1) under EXPLAIN (ANALYZE, BUFFERS), its buffers less the visibility-map page it consults, asked twice
// so the second finds the metapage's facts cached, from either end (the fewer: a run of entries marked dead
// at one end makes the scan step on to the next leaf). Kept where the scan fetched no heap tuple, the planner
// used that very index, and the count lies within a level of what the size gives. Read-only, after the runs.
import type { Client } from 'pg';
import type { PgRelationFacts } from '../../predict/postgres/facts';
import { indexGeometry } from '../../predict/postgres/geometry';
import { indexLeadColumn, readOnly } from './after-runs';
import type { PgRelation } from './residency';

/** Levels beyond this are taken as a probe gone wrong (2^31 leaves need no more than 7 at any fanout over 20). */
const MAX_HEIGHT = 8;

interface ExplainNode {
  'Node Type': string;
  'Index Name'?: string;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  'Heap Fetches'?: number;
  Plans?: ExplainNode[];
}

const find = (n: ExplainNode, index: string): ExplainNode | undefined =>
  n['Index Name'] === index ? n : (n.Plans ?? []).map((c) => find(c, index)).find((x) => x !== undefined);

/** Per index (its report name), its levels, the leaves included. */
export async function readIndexHeights(client: Client, relations: PgRelation[], facts: PgRelationFacts[], timeoutMs: number): Promise<Record<string, number>> {
  const wanted = facts.flatMap((f) => {
    const rel = relations.find((r) => r.name === f.reportName && r.kind === 'index');
    return rel && f.kind === 'index' && !f.predicate && f.columns?.[0] ? [{ f, rel }] : [];
  });
  if (wanted.length === 0) return {};
  return readOnly(
    client,
    timeoutMs,
    {},
    async () => {
      for (const setting of ['enable_seqscan', 'enable_bitmapscan', 'enable_sort']) await client.query(`SET LOCAL ${setting} = off`);
      const out: Record<string, number> = {};
      for (const { f, rel } of wanted) {
        const lead = await indexLeadColumn(client, rel.oid);
        if (!lead) continue;
        const vm = await client.query<{ pages: string }>(`SELECT pg_relation_size('${lead.table.replace(/'/g, "''")}'::regclass, 'vm') > 0 AS pages`);
        const consultsMap = String(vm.rows[0]?.pages) === 'true';
        // Both ends: entries marked dead at one (a rolled-back write's) make the scan step on to the next leaf.
        const counted: number[] = [];
        for (const dir of ['ASC', 'DESC']) {
          const sql = `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) SELECT ${lead.column} FROM ${lead.table} ORDER BY ${lead.column} ${dir} LIMIT 1`;
          await client.query(sql);
          const res = await client.query<{ 'QUERY PLAN': Array<{ Plan: ExplainNode }> }>(sql);
          const node = find(res.rows[0]['QUERY PLAN'][0].Plan, f.planName);
          if (!node || node['Node Type'] !== 'Index Only Scan' || (node['Heap Fetches'] ?? 0) > 0) continue;
          counted.push((node['Shared Hit Blocks'] ?? 0) + (node['Shared Read Blocks'] ?? 0) - (consultsMap ? 1 : 0));
        }
        // Kept where it lies within a level of what the size gives: it tells a sorted build from random growth.
        const height = Math.min(...counted);
        const bySize = indexGeometry(f).height;
        if (height >= 1 && height <= MAX_HEIGHT && Math.abs(height - bySize) <= 1) out[f.reportName] = height;
      }
      return out;
    },
    "the indexes' heights",
  );
}
