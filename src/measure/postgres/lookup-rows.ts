// A nested loop's inner lookups, read after the last run: per outer row, in the loop's order, the key it
// asked the inner index for and the heap block of the inner row it found. Where the outer values fall
// among the inner keys (a join through an uncorrelated column lands anywhere) and where the inner rows lie
// in the heap (after updates, not where the key's neighbours are) are in no statistic. The statement is
// asked again with its select list replaced by the outer column and the inner row's ctid block (and the
// outer row's, where one index scan read the outer table), in a read-only transaction with the
// measurement's statement timeout; after the runs, so nothing run 1 reads is touched first. Only a plain
// SELECT with one nested loop whose inner index scan found one row per outer row (a lookup on a unique
// key): then the replaced query's rows are the loop's lookups, one for one.
import type { Client } from 'pg';
import type { PlanNode } from '../../shared/report';
import { findNode, outerReference } from '../../predict/postgres/lookup-order';
import { replaceSelectList } from '../../sql/select-list';
import { quotePostgresName } from '../../sql/quote';
import { MAX_HEAP_ROWS } from './heap-blocks';
import { countNodes as count, readOnly } from './after-runs';

export interface LookupRows {
  /** Per inner table: each lookup's key (where integers) and the heap block of the row it found. */
  lookups: Record<string, { keys?: number[]; blocks: number[] }>;
  /** Per outer table, where one index scan read it: the heap block of each outer row, in the loop's order. */
  outerBlocks: Record<string, number[]>;
}

const NONE: LookupRows = { lookups: {}, outerBlocks: {} };

export async function readLookupRows(client: Client, statement: string, root: PlanNode, timeoutMs: number): Promise<LookupRows> {
  const loop = findNode(root, (n) => n.nodeType === 'Nested Loop');
  if (!loop || loop.children.length !== 2 || count(root, 'Nested Loop') !== 1 || count(root, 'Incremental Sort') > 0) return NONE;
  const inner = findNode(loop.children[1], (c) => c.nodeType === 'Index Scan' && outerReference(c.indexCond) !== undefined);
  const ref = inner && outerReference(inner.indexCond);
  const loops = inner?.actualLoops ?? 0;
  if (!inner?.relation || !ref || inner.actualRows !== 1 || (loop.actualRows ?? 0) !== loops || loops === 0 || loops > MAX_HEAP_ROWS) return NONE;
  const innerAlias = inner.alias ?? inner.relation;
  // The outer rows' own blocks where one index scan read them (a table, so it has a ctid).
  const outer = findNode(loop.children[0], (c) => (c.nodeType === 'Index Scan' || c.nodeType === 'Index Only Scan') && (c.alias ?? c.relation) === ref.alias);
  const outerBlock = outer?.relation && (outer.actualLoops ?? 1) === 1 ? `, (${quotePostgresName(ref.alias)}.ctid::text::point)[0]::bigint AS outer_block` : '';
  const expression =
    `${quotePostgresName(ref.alias)}.${quotePostgresName(ref.outerColumn)}::text AS key, (${quotePostgresName(innerAlias)}.ctid::text::point)[0]::bigint ` +
    `AS block${outerBlock}`;
  const sql = replaceSelectList(statement, expression, 'postgresql', { unordered: count(root, 'Sort') > 0 });
  if (!sql) return NONE;
  return readOnly(
    client,
    timeoutMs,
    NONE,
    async () => {
      const res = await client.query<{ key: string | null; block: string; outer_block?: string }>(sql);
      if (res.rows.length !== loops) return NONE;
      const blocks = res.rows.map((r) => Number(r.block));
      if (!blocks.every(Number.isSafeInteger)) return NONE;
      const keys = res.rows.map((r) => (r.key !== null && /^-?\d+$/.test(r.key) ? Number(r.key) : NaN));
      const outerBlocks = res.rows.map((r) => Number(r.outer_block));
      return {
        lookups: { [inner.relation!]: keys.every(Number.isSafeInteger) ? { keys, blocks } : { blocks } },
        outerBlocks: outer?.relation && outerBlock && outerBlocks.every(Number.isSafeInteger) ? { [outer.relation]: outerBlocks } : {},
      };
    },
    "the nested loop's lookups",
  );
}
