// The rows around a scan of a secondary index on a table a table-wide update doubled, read after the last
// run: each one's key and where its live version is. Which of the scanned rows' dead versions stayed alone
// in their index entries, so that run 1 marked them dead and later runs skip them, follows from the order
// the update inserted the neighbouring rows' entries in, replayed from these rows (secondary-churn.ts); no
// view shows a leaf's entries without an extension; nor do the leaves the scanned rows' entries lie in, which
// VACUUM leaves as the update split them. Only a plain SELECT whose one scan is a serial forward index or
// index-only scan of a one-column integer index that is not unique, returning its rows in its own order (no
// Sort above it), on a table a table-wide update doubled (vacuumed since or not). Asked in a read-only transaction
// with the measurement's statement timeout, after the runs, so nothing run 1 reads is touched first: the
// statement with its select list replaced by the key (for the first one), then the rows before it and from
// it on through the index.
import type { Client } from 'pg';
import type { PlanNode } from '../../shared/report';
import type { PgIndexWindow, PgRelationFacts } from '../../predict/postgres/facts';
import { replaceSelectList } from '../../sql/select-list';
import { quotePostgresName } from '../../sql/quote';
import { packedFirstBlock } from '../../predict/postgres/heap-layout';
import { countNodes, indexLeadColumn, readOnly, scanNodes } from './after-runs';
import type { PgRelation } from './residency';

/** Rows read on each side of the scanned ones: more than two loaded leaves' worth, so the replay finds a leaf's start before them. */
export const WINDOW_MARGIN = 1000;
/** Scans returning more rows than this are left as modelled (the replay grows with them). */
export const MAX_WINDOW_ROWS = 25_000;

/**
 * A table-wide update's heap: about as many dead versions as rows, or, after VACUUM, about twice the pages
 * its rows fill (the update's new versions packed past the emptied old pages).
 */
function doubled(table: PgRelationFacts, blockSize: number): boolean {
  if ((table.deadTuples ?? 0) >= 0.9 * table.tuples) return true;
  // The rows fill the pages from this one on: at most 1 / 1.8 of the table.
  return table.pages > 0 && packedFirstBlock(table, blockSize) >= (1 - 1 / 1.8) * table.pages;
}

export async function readIndexWindows(
  client: Client,
  statement: string,
  root: PlanNode,
  relations: PgRelation[],
  facts: PgRelationFacts[],
  blockSize: number,
  timeoutMs: number,
): Promise<Record<string, PgIndexWindow>> {
  const scans = scanNodes(root);
  const n = scans[0];
  if (
    scans.length !== 1 ||
    (n.nodeType !== 'Index Scan' && n.nodeType !== 'Index Only Scan') ||
    n.parallelAware ||
    n.backward ||
    (n.actualLoops ?? 1) > 1 ||
    !n.index ||
    !n.relation
  )
    return {};
  if (countNodes(root, 'Sort') + countNodes(root, 'Incremental Sort') > 0) return {};
  const rows = n.actualRows ?? 0;
  if (rows === 0 || rows > MAX_WINDOW_ROWS || (n.rowsRemovedByFilter ?? 0) > 0) return {};
  const index = facts.find((f) => f.kind === 'index' && f.planName === n.index);
  const table = facts.find((f) => f.kind === 'table' && f.planName === n.relation);
  if (!index || !table || index.unique || !index.keyBytes || !doubled(table, blockSize)) return {};
  const rel = relations.find((r) => r.kind === 'index' && r.name === index.reportName);
  if (!rel) return {};
  return readOnly(
    client,
    timeoutMs,
    {},
    async () => {
      // keyBytes is set for a one-column index without a predicate only (catalog.ts).
      const w = await indexLeadColumn(client, rel.oid);
      if (!w) return {};
      const alias = quotePostgresName(n.alias ?? n.relation!);
      // The forward scan's first row has the smallest key of its rows: through the index's end where the
      // statement allows an aggregate (its ORDER BY and LIMIT cut), else its first row.
      const least = `min(${alias}.${w.column})::text AS key`;
      const firstSql =
        replaceSelectList(statement, least, 'postgresql', { unordered: true }) ??
        replaceSelectList(statement, least, 'postgresql') ??
        replaceSelectList(statement, `${alias}.${w.column}::text AS key`, 'postgresql');
      if (!firstSql) return {};
      const first = (await client.query<{ key: string }>(firstSql)).rows[0]?.key;
      if (first === undefined || !/^-?\d+$/.test(first)) return {};
      const ask = (cond: string, dir: string, limit: number) =>
        client.query<{ key: string; tid: string }>({
          text: `SELECT ${w.column}::text AS key, ctid::text AS tid FROM ${w.table} WHERE ${w.column} ${cond} $1 ORDER BY ${w.column} ${dir} LIMIT ${limit}`,
          values: [first],
        });
      const before = await ask('<', 'DESC', WINDOW_MARGIN);
      const after = await ask('>=', 'ASC', rows + WINDOW_MARGIN);
      const parsed = [...before.rows, ...after.rows].map((r) => {
        const m = /^\((\d+),(\d+)\)$/.exec(r.tid);
        return { key: Number(r.key), block: m ? Number(m[1]) : NaN, offset: m ? Number(m[2]) : NaN };
      });
      if (!parsed.every((r) => Number.isSafeInteger(r.key) && Number.isSafeInteger(r.block))) return {};
      // In index order: the key, then the heap position (an entry's TID; the live version's for a row the update moved).
      parsed.sort((a, b) => a.key - b.key || a.block - b.block || a.offset - b.offset);
      return {
        [n.index!]: {
          keys: parsed.map((r) => r.key),
          blocks: parsed.map((r) => r.block),
          offsets: parsed.map((r) => r.offset),
          first: before.rows.length,
          ...(before.rows.length < WINDOW_MARGIN ? { startsIndex: true } : {}),
        },
      };
    },
    'the rows around the index scan',
  );
}
