// In which order a nested loop's inner index scan is asked for its keys. Each outer row starts one inner
// scan with the outer row's value (EXPLAIN: Index Cond "(id = a.k)"), so the order of those values is the
// order in which the outer side produces the column: sorted when the outer side is an index scan on that
// very column, the heap's order when it reads the heap in block order (a sequential or bitmap scan, or an
// index scan on a column that follows the heap), and then only as sorted as the column is correlated with
// the heap (pg_stats.correlation). Pure: plan and catalog facts in, an estimate out.
import type { PlanNode } from '../../shared/report';
import type { PgRelationFacts } from './facts';

export interface LookupOrder {
  /** Share of lookups that follow the previous one in key order (correlation squared, as the heap visits use). */
  ordered: number;
  /** Inner index entries between consecutive ordered lookups: the inner table's rows per outer row, at least 1. */
  stride: number;
  /** Why, for the report's assumptions. */
  why: string;
}

const ident = String.raw`"?([A-Za-z_][\w$]*)"?`;
/** "(id = a.k)", "(b.id = a.k)", "((id = a.k) AND …)": the inner column and the outer alias and column. */
const EQUALITY = new RegExp(String.raw`(?:${ident}\.)?${ident} = ${ident}\.${ident}`);

export function outerReference(indexCond: string | undefined): { column: string; alias: string; outerColumn: string } | undefined {
  const m = indexCond ? EQUALITY.exec(indexCond) : null;
  return m ? { column: m[2], alias: m[3], outerColumn: m[4] } : undefined;
}

/** The first node of the tree, depth first, that passes `ok`. */
export function findNode(n: PlanNode, ok: (n: PlanNode) => boolean): PlanNode | undefined {
  if (ok(n)) return n;
  for (const c of n.children) {
    const hit = findNode(c, ok);
    if (hit) return hit;
  }
  return undefined;
}

const SCANS = new Set(['Seq Scan', 'Index Scan', 'Index Only Scan', 'Bitmap Heap Scan']);

/** The order of the inner scan's lookups, where the plan says what feeds them; undefined when it does not. */
export function lookupOrder(outer: PlanNode, inner: PlanNode, facts: PgRelationFacts[]): LookupOrder | undefined {
  const ref = outerReference(inner.indexCond);
  if (!ref) return undefined;
  const source = findNode(outer, (n) => SCANS.has(n.nodeType) && (n.alias ?? n.relation) === ref.alias);
  if (!source?.relation) return undefined;
  const table = facts.find((f) => f.kind === 'table' && f.planName === source.relation);
  // A bitmap index scan names only its index: the table is the index's.
  const innerRelation = inner.relation ?? facts.find((f) => f.kind === 'index' && f.planName === inner.index)?.table;
  const innerTable = facts.find((f) => f.kind === 'table' && f.planName === innerRelation);
  const stride = table && innerTable && table.tuples > 0 ? Math.max(1, innerTable.tuples / table.tuples) : 1;
  const indexOn = (column: string) => facts.find((f) => f.kind === 'index' && f.table === source.relation && f.columns?.[0] === column);
  const col = `${ref.alias}.${ref.outerColumn}`;
  if (
    (source.nodeType === 'Index Scan' || source.nodeType === 'Index Only Scan') &&
    facts.find((f) => f.kind === 'index' && f.planName === source.index)?.columns?.[0] === ref.outerColumn
  ) {
    return { ordered: 1, stride, why: `${col} comes from an index scan on it: the inner lookups arrive in key order` };
  }
  // Otherwise the values come in the order the outer scan reads its heap, if it reads it in block order.
  const scanIndex = source.index ? facts.find((f) => f.kind === 'index' && f.planName === source.index) : undefined;
  const heapOrder = source.nodeType === 'Seq Scan' || source.nodeType === 'Bitmap Heap Scan' || (scanIndex?.correlation ?? 0) ** 2 > 0.8;
  const c = indexOn(ref.outerColumn)?.correlation;
  if (!heapOrder || c === undefined || c === null)
    return { ordered: 0, stride, why: `the order of ${col} is not known: the inner lookups are taken in random order` };
  const ordered = c * c;
  return {
    ordered,
    stride,
    why:
      `${col} arrives in heap order, correlation ${c.toFixed(2)}: ` +
      (ordered > 0.8
        ? 'the inner lookups arrive in key order'
        : ordered < 0.2
          ? 'the inner lookups arrive in random order'
          : `${Math.round(ordered * 100)} % of the inner lookups follow key order`),
  };
}
