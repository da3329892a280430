// A nested loop's inner lookups, read after the last run: per outer row, in the loop's order, the key it
// asked the inner index for and the heap block of the inner row it found. Where the outer values fall
// among the inner keys (a join through an uncorrelated column lands anywhere) and where the inner rows lie
// in the heap (after updates, not where the key's neighbours are) are in no statistic. The statement is
// asked again with its select list replaced by the outer column and the inner row's ctid block, in a
// read-only transaction with the measurement's statement timeout; after the runs, so nothing run 1 reads
// is touched first. Only a plain SELECT with one nested loop whose inner index scan found one row per outer
// row (a lookup on a unique key): then the replaced query's rows are the loop's lookups, one for one.
import type { Client } from 'pg';
import type { PlanNode } from '../../shared/report';
import { findNode, outerReference } from '../../predict/postgres/lookup-order';
import { replaceSelectList } from '../../sql/select-list';
import { quotePostgresName } from '../../sql/quote';
import { MAX_HEAP_ROWS } from './heap-blocks';

const count = (n: PlanNode, type: string): number => (n.nodeType === type ? 1 : 0) + n.children.reduce((a, c) => a + count(c, type), 0);

export async function readLookupRows(client: Client, statement: string, root: PlanNode, timeoutMs: number): Promise<Record<string, { keys?: number[]; blocks: number[] }>> {
  const loop = findNode(root, (n) => n.nodeType === 'Nested Loop');
  if (!loop || loop.children.length !== 2 || count(root, 'Nested Loop') !== 1 || count(root, 'Incremental Sort') > 0) return {};
  const inner = findNode(loop.children[1], (c) => c.nodeType === 'Index Scan' && outerReference(c.indexCond) !== undefined);
  const ref = inner && outerReference(inner.indexCond);
  const loops = inner?.actualLoops ?? 0;
  if (!inner?.relation || !ref || inner.actualRows !== 1 || (loop.actualRows ?? 0) !== loops || loops === 0 || loops > MAX_HEAP_ROWS) return {};
  const innerAlias = inner.alias ?? inner.relation;
  const expression = `${quotePostgresName(ref.alias)}.${quotePostgresName(ref.outerColumn)}::text AS key, (${quotePostgresName(innerAlias)}.ctid::text::point)[0]::bigint AS block`;
  const sql = replaceSelectList(statement, expression, 'postgresql', { unordered: count(root, 'Sort') > 0 });
  if (!sql) return {};
  try {
    await client.query('BEGIN READ ONLY');
    await client.query(`SET LOCAL statement_timeout = ${Math.max(1, Math.round(timeoutMs))}`);
    const res = await client.query<{ key: string | null; block: string }>(sql);
    if (res.rows.length !== loops) return {};
    const blocks = res.rows.map((r) => Number(r.block));
    if (!blocks.every(Number.isSafeInteger)) return {};
    const keys = res.rows.map((r) => (r.key !== null && /^-?\d+$/.test(r.key) ? Number(r.key) : NaN));
    return { [inner.relation]: keys.every(Number.isSafeInteger) ? { keys, blocks } : { blocks } };
  } catch {
    return {};
  } finally {
    await client.query('ROLLBACK').catch(() => undefined);
  }
}
