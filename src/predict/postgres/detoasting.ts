// Which plan nodes read long values stored out of line (TOAST) again, and on how many rows. A value too
// long for its row lives in the table's TOAST table, and every expression that needs its bytes fetches it
// anew (a descent of the TOAST index and the blocks of its chunks): a filter for every row its scan reads,
// a computed output for every row the node returns, an aggregate's argument for every row it takes in.
// Passing the column on reads nothing (EXPLAIN ANALYZE discards the result rows), nor do the functions that
// read only a value's size. Pure: the measurement asks the server about the uses found here, the model
// replays them (nodes/detoast.ts).
import type { PlanNode } from '../../shared/report';

/** One expression of one node that reads a column's out-of-line values. */
export interface ToastUse {
  /** The scan whose rows hold the values: which of them are out of line is asked about its rows. */
  scan: PlanNode;
  column: string;
  /** The node evaluating the expression. */
  node: PlanNode;
  /** Rows the expression is evaluated on: the fewest it can be (shown) and the most. */
  rows: number;
  rowsHigh: number;
  /** "filter" or "output", for the notes. */
  where: 'filter' | 'output';
  /** A filter's later clause: the clauses before it (ANDed), which decide the rows it is evaluated on. */
  before?: string;
}

export interface ToastAnalysis {
  uses: ToastUse[];
  /** Uses the model does not replay (comparisons in sorts, joins and groups), with why. */
  unmodelled: string[];
}

/** Nodes that pass their child's rows on without evaluating an output of their own. */
const PASS_THROUGH = new Set([
  'Sort',
  'Incremental Sort',
  'Limit',
  'Materialize',
  'Memoize',
  'Hash',
  'Gather',
  'Gather Merge',
  'Unique',
  'Append',
  'Merge Append',
  'SetOp',
  'LockRows',
]);
/** Nodes whose output evaluates its arguments once per input row. */
const AGGREGATING = new Set(['Aggregate', 'WindowAgg', 'Group']);
/** Conditions whose comparisons fetch the values as often as they compare: not replayed. */
const COMPARING = ['Sort Key', 'Hash Cond', 'Merge Cond', 'Group Key', 'Join Filter', 'Index Cond', 'Recheck Cond'];

/** The key a scan's out-of-line values are counted under (the measurement's and the model's). */
export const toastKey = (use: Pick<ToastUse, 'scan' | 'column' | 'before'>): string =>
  `${use.scan.relation ?? ''}|${use.scan.alias ?? ''}|${scanCondition(use.scan) ?? ''}|${use.column}|${use.before ?? ''}`;

/** The condition that picks a scan's rows before its filter: its index condition (none for a sequential scan). */
export function scanCondition(scan: PlanNode): string | undefined {
  if (scan.indexCond) return scan.indexCond;
  const recheck = scan.conditions?.find((c) => c.startsWith('Recheck Cond: '));
  return recheck?.slice('Recheck Cond: '.length);
}

/** How a name appears in EXPLAIN's expressions: quoted where it has to be. */
export function explainIdentifier(name: string): string {
  return /^[a-z_][a-z0-9_$]*$/.test(name) ? name : `"${name.replace(/"/g, '""')}"`;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** How many times `expr` needs the bytes of the column, named with its alias or (when alone in scope) bare. */
export function detoastingReferences(expr: string, alias: string, column: string, bareAllowed: boolean): number {
  const a = escape(explainIdentifier(alias));
  const c = escape(explainIdentifier(column));
  const ref = bareAllowed ? `(?:${a}\\.)?${c}` : `${a}\\.${c}`;
  const edge = `(?<![\\w$."])${ref}(?![\\w$"(])`;
  const sizeOnly = new RegExp(`\\b(?:octet_length|pg_column_size)\\(${edge}\\)|${edge} IS (?:NOT )?NULL`, 'g');
  return (expr.replace(sizeOnly, '').match(new RegExp(edge, 'g')) ?? []).length;
}

/** The top-level clauses of an AND (or OR), in the order they are evaluated, and which of the two joins them. */
export function topClauses(filter: string): { clauses: string[]; joinedBy: 'AND' | 'OR' | undefined } {
  let s = filter.trim();
  while (s.startsWith('(') && closingParen(s, 0) === s.length - 1) s = s.slice(1, -1).trim();
  const out: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  let joinedBy: 'AND' | 'OR' | undefined;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    if (ch === "'") quoted = !quoted;
    if (quoted) continue;
    if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (depth === 0 && (s.startsWith(' AND ', i) || s.startsWith(' OR ', i))) {
      out.push(s.slice(start, i));
      joinedBy = s.startsWith(' AND ', i) ? 'AND' : 'OR';
      start = i + joinedBy.length + 2;
    }
  }
  out.push(s.slice(start));
  return { clauses: out, joinedBy };
}

function closingParen(s: string, open: number): number {
  let depth = 0;
  let quoted = false;
  for (let i = open; i < s.length; i++) {
    if (s[i] === "'") quoted = !quoted;
    if (quoted) continue;
    if (s[i] === '(') depth++;
    else if (s[i] === ')' && --depth === 0) return i;
  }
  return -1;
}

const perLoop = (n: PlanNode, rows: number | undefined) => (rows ?? 0) * Math.max(1, n.actualLoops ?? 1);

/** The scans at or below a node that have a relation. */
function scansUnder(n: PlanNode, out: PlanNode[] = []): PlanNode[] {
  if (/Scan$/.test(n.nodeType) && n.relation) out.push(n);
  for (const c of n.children) scansUnder(c, out);
  return out;
}

/** Every use of an out-of-line column in the plan; `toastColumns` names a table's columns that may be stored out of line. */
export function toastUses(root: PlanNode, toastColumns: (table: string) => readonly string[] | undefined): ToastAnalysis {
  const uses: ToastUse[] = [];
  const unmodelled = new Set<string>();
  const visit = (n: PlanNode) => {
    const scope = scansUnder(n).flatMap((scan) => (toastColumns(scan.relation!) ?? []).map((column) => ({ scan, column })));
    const bare = (column: string) => scope.filter((s) => s.column === column).length === 1;
    const refs = (expr: string) => scope.filter((s) => detoastingReferences(expr, s.scan.alias ?? s.scan.relation!, s.column, bare(s.column)) > 0);
    const count = (expr: string, s: (typeof scope)[number]) => detoastingReferences(expr, s.scan.alias ?? s.scan.relation!, s.column, bare(s.column));
    for (const cond of n.conditions ?? []) {
      if (cond.startsWith('Filter: ')) filterUses(n, cond.slice('Filter: '.length), scope, count, uses);
      else if (COMPARING.some((c) => cond.startsWith(`${c}: `))) {
        for (const s of refs(cond.slice(cond.indexOf(': ') + 2))) {
          unmodelled.add(`${n.nodeType}: each comparison in "${cond}" reads ${s.column}'s out-of-line values again; not modelled`);
        }
      }
    }
    if (!PASS_THROUGH.has(n.nodeType)) {
      const rows = AGGREGATING.has(n.nodeType) ? n.children.reduce((a, c) => a + perLoop(c, c.actualRows), 0) : perLoop(n, n.actualRows);
      for (const expr of n.computed ?? []) {
        for (const s of scope) {
          const times = count(expr, s);
          if (times > 0) uses.push({ scan: s.scan, column: s.column, node: n, rows: rows * times, rowsHigh: rows * times, where: 'output' });
        }
      }
    }
    n.children.forEach(visit);
  };
  visit(root);
  return { uses, unmodelled: [...unmodelled] };
}

/**
 * A filter's clauses run in the order EXPLAIN prints them, each only on the rows the ones before let
 * through: the first on every row read, a later one on as few as the rows returned (no counter tells; the
 * measurement asks how many rows the clauses before it let through, where they are ANDed).
 */
function filterUses(
  n: PlanNode,
  filter: string,
  scope: Array<{ scan: PlanNode; column: string }>,
  count: (expr: string, s: { scan: PlanNode; column: string }) => number,
  uses: ToastUse[],
): void {
  const read = perLoop(n, (n.actualRows ?? 0) + (n.rowsRemovedByFilter ?? 0));
  const returned = perLoop(n, n.actualRows);
  const { clauses, joinedBy } = topClauses(filter);
  clauses.forEach((clause, i) => {
    for (const s of scope) {
      const times = count(clause, s);
      if (times === 0) continue;
      const use: ToastUse = { scan: s.scan, column: s.column, node: n, rows: (i === 0 ? read : returned) * times, rowsHigh: read * times, where: 'filter' };
      if (i > 0 && joinedBy === 'AND') use.before = clauses.slice(0, i).join(' AND ');
      uses.push(use);
    }
  });
}
