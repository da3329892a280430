// Where an index-only scan's heap fetches went, read after the last run. The scan asks the visibility map
// about each entry's page and fetches the row only where the page is not all-visible; which pages those are
// no statistic tells (pg_class.relallvisible is a count as of the last VACUUM, and every write since
// cleared bits), and where they lie decides the cost: consecutive fetches from one page are one request,
// and a date inserted with jitter puts consecutive entries on different pages although the column
// correlates with the heap (measured: 4,053 fetches, 3,043 page changes among them, 3,060 requests with the
// leaves and the map). pg_visibility reads the map: the rows the scan's condition selects, in the index's
// order (its key columns, then the heap position, as a B-tree keeps equal keys), kept where their page is not
// all-visible. Asked in a read-only transaction after the runs, of a SELECT only (a rolled-back write's runs
// cleared bits run 1 found set), where the scan is the only one of its table, walked once, and its
// condition names its table alone; kept where the query finds as many rows as the scan visited.
import type { Client } from 'pg';
import type { PlanNode } from '../../shared/report';
import type { PgRelationFacts } from '../../predict/postgres/facts';
import { quotePostgresName } from '../../sql/quote';
import { aloneCondition, asAlone, readOnly, scanNodes } from './after-runs';
import type { PgRelation } from './residency';

/** Beyond this many rows visited the scan is not asked: its fetches stay modelled. */
export const MAX_FETCH_ROWS = 100_000;

/** `visibility`: the schema pg_visibility is installed in, where this user may read the map with it. */
export async function readFetchedBlocks(
  client: Client,
  root: PlanNode,
  relations: PgRelation[],
  facts: PgRelationFacts[],
  visibility: string,
  timeoutMs: number,
): Promise<Record<string, number[]>> {
  const all = scanNodes(root);
  const out: Record<string, number[]> = {};
  for (const n of all) {
    const query = n.relation && all.filter((m) => m.relation === n.relation).length === 1 ? fetchQuery(n, relations, facts, visibility) : undefined;
    if (!query) continue;
    const visited = (n.actualRows ?? 0) + (n.rowsRemovedByFilter ?? 0);
    const got = await readOnly(
      client,
      timeoutMs,
      undefined,
      async () => (await client.query<{ visited: string; fetched: string[] | null }>(query)).rows[0],
      "where an index-only scan's heap fetches went",
    );
    const fetched = (got?.fetched ?? []).map(Number);
    if (got && Number(got.visited) === visited && fetched.every(Number.isSafeInteger)) out[n.relation!] = fetched;
  }
  return out;
}

function fetchQuery(n: PlanNode, relations: PgRelation[], facts: PgRelationFacts[], visibility: string): string | undefined {
  if (n.nodeType !== 'Index Only Scan' || (n.heapFetches ?? 0) === 0 || n.parallelAware || (n.actualLoops ?? 1) !== 1 || !n.index) return undefined;
  const visited = (n.actualRows ?? 0) + (n.rowsRemovedByFilter ?? 0);
  const alone = asAlone(n);
  const table = facts.find((f) => f.kind === 'table' && f.planName === n.relation);
  const index = facts.find((f) => f.kind === 'index' && f.planName === n.index);
  const oid = table && relations.find((r) => r.kind === 'table' && r.name === table.reportName)?.oid;
  const keys = index?.columns?.slice(0, index.keyColumns ?? index.columns.length);
  if (!alone || !table || oid === undefined || !keys || keys.some((c) => c === null) || visited === 0 || visited > MAX_FETCH_ROWS) return undefined;
  const dir = n.backward ? 'DESC' : 'ASC';
  const order = [...keys.map((c) => `${alone.alias}.${quotePostgresName(c!)} ${dir}`), `${alone.alias}.ctid ${dir}`].join(', ');
  return `SELECT count(*) AS visited, array_agg(s.block ORDER BY s.k) FILTER (WHERE NOT coalesce(v.all_visible, false)) AS fetched
            FROM (SELECT (${alone.alias}.ctid::text::point)[0]::bigint AS block, row_number() OVER (ORDER BY ${order}) AS k
                    FROM ${table.reportName} AS ${alone.alias} WHERE ${aloneCondition(alone, index)}) s
            LEFT JOIN ${quotePostgresName(visibility)}.pg_visibility_map(${Number(oid)}::oid::regclass) v ON v.blkno = s.block`;
}
