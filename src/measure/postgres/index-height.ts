// How many levels each B-tree of the statement's relations has, from root to leaf, read after the last run.
// Its size does not tell: a sorted build fills internal pages to 70 % and needs a level more where random
// inserts would have left every leaf under one root, and an index grown since lies between (measured: a
// covering index of 387 pages, three levels, taken as two from its size; every write to it a request short).
// Asked as the server descends it: an index scan for keys beyond the index's first (or last) live key, under
// EXPLAIN (ANALYZE, BUFFERS), which descends to that end and finds nothing, so it fetches no heap tuple and
// consults no visibility-map page; asked twice so the second finds the metapage's facts cached, from either
// end (the fewer: a run of dead entries at one end, a rolled-back write's new keys, makes the scan walk their
// leaves). The first key is asked first, by the same ORDER BY … LIMIT 1 on the index. (The probe had been that
// ORDER BY itself, kept where it fetched no heap tuple: after an earlier write cleared the first row's page's
// all-visible bit it fetched one, and the height went unread: in a recorded corpus, 102 of 144 measurements
// of one seed lacked a covering index's third level.) A partial index is asked under its predicate. Kept where
// the planner used that very index, the scan returned no row, and the count lies within a level of what the
// size gives. Read-only, after the runs.
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
  'Actual Rows'?: number;
  'Heap Fetches'?: number;
  Plans?: ExplainNode[];
}

const find = (n: ExplainNode, index: string): ExplainNode | undefined =>
  n['Index Name'] === index ? n : (n.Plans ?? []).map((c) => find(c, index)).find((x) => x !== undefined);

/** What the descents to an index's ends counted: its levels, and the leaves of dead entries past its live keys at each end. */
export interface IndexEnds {
  heights: Record<string, number>;
  deadEndLeaves: Record<string, { first: number; last: number }>;
}

/** Per index (its report name), its levels, the leaves included, and the dead leaves at its ends. */
export async function readIndexHeights(client: Client, relations: PgRelation[], facts: PgRelationFacts[], timeoutMs: number): Promise<IndexEnds> {
  const wanted = facts.flatMap((f) => {
    const rel = relations.find((r) => r.name === f.reportName && r.kind === 'index');
    return rel && f.kind === 'index' && f.columns?.[0] ? [{ f, rel }] : [];
  });
  const none: IndexEnds = { heights: {}, deadEndLeaves: {} };
  if (wanted.length === 0) return none;
  return readOnly(
    client,
    timeoutMs,
    none,
    async () => {
      for (const setting of ['enable_seqscan', 'enable_bitmapscan', 'enable_sort']) await client.query(`SET LOCAL ${setting} = off`);
      const out: IndexEnds = { heights: {}, deadEndLeaves: {} };
      for (const { f, rel } of wanted) {
        const lead = await indexLeadColumn(client, rel.oid);
        if (!lead?.builtIn) continue;
        const [first, last] = [await descentCount(client, f, lead, ENDS[0]), await descentCount(client, f, lead, ENDS[1])];
        const counted = [first, last].filter((x): x is number => x !== undefined);
        // Kept where it lies within a level of what the size gives: it tells a sorted build from random growth.
        const height = Math.min(...counted);
        const bySize = indexGeometry(f).height;
        if (!(height >= 1 && height <= MAX_HEIGHT && Math.abs(height - bySize) <= 1)) continue;
        out.heights[f.reportName] = height;
        if (first !== undefined && last !== undefined && first + last > 2 * height)
          out.deadEndLeaves[f.reportName] = { first: first - height, last: last - height };
      }
      return out;
    },
    "the indexes' heights",
  );
}

/** Each end of an index: the order that finds its live key there, and the operator that asks for keys past it. */
export const ENDS = [
  { order: 'ASC', beyond: 'OPERATOR(pg_catalog.<)' },
  { order: 'DESC', beyond: 'OPERATOR(pg_catalog.>)' },
] as const;

/**
 * The requests of a scan of the index for keys past its live key at one end: its levels, and a leaf more
 * for each leaf of dead entries lying past that key (a rolled-back write's new keys), which the scan walks
 * as a scan from that end does. Asked twice: the second finds the metapage's facts cached and the dead
 * entries marked by the first (which fetched their versions). Undefined where the index has no live key,
 * the planner took another path, or the scan still fetched a heap tuple.
 */
async function descentCount(
  client: Client,
  f: PgRelationFacts,
  lead: { table: string; column: string },
  end: (typeof ENDS)[number],
): Promise<number | undefined> {
  const predicate = f.predicate ? ` AND (${f.predicate})` : '';
  const first = await client.query<{ v: string | null }>(
    `SELECT ${lead.column}::text AS v FROM ${lead.table} WHERE ${lead.column} IS NOT NULL${predicate} ORDER BY ${lead.column} ${end.order} LIMIT 1`,
  );
  const key = first.rows[0]?.v;
  if (key === undefined || key === null) return undefined;
  return requestsPast(client, f, lead, end, key);
}

/** The requests of a scan of the index for keys past `key` at one end, as descentCount asks them (in a read-only transaction). */
export async function requestsPast(
  client: Client,
  f: PgRelationFacts,
  lead: { table: string; column: string },
  end: (typeof ENDS)[number],
  key: string,
): Promise<number | undefined> {
  const predicate = f.predicate ? ` AND (${f.predicate})` : '';
  const sql = `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) SELECT ${lead.column} FROM ${lead.table} WHERE ${lead.column} ${end.beyond} $1${predicate}`;
  let node: ExplainNode | undefined;
  for (let k = 0; k < 2; k++) {
    const res = await client.query<{ 'QUERY PLAN': Array<{ Plan: ExplainNode }> }>({ text: sql, values: [key] });
    node = find(res.rows[0]['QUERY PLAN'][0].Plan, f.planName);
  }
  if (!node || node['Node Type'] !== 'Index Only Scan' || (node['Actual Rows'] ?? 1) > 0 || (node['Heap Fetches'] ?? 1) > 0) return undefined;
  return (node['Shared Hit Blocks'] ?? 0) + (node['Shared Read Blocks'] ?? 0);
}
