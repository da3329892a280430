// A PostgreSQL plan node as a row of the plan view: named as EXPLAIN's text form names it (Parallel,
// Partial / Finalize, the join type, the aggregate strategy), with its conditions, rows estimated
// against rows counted, its own time and its temporary-file I/O. Pure.
import type { PlanNode } from './report';
import { formatCount } from './format';
import { misestimateText, type PlanRow } from './plan-row';

const AGGREGATE_BY_STRATEGY: Record<string, string> = { Sorted: 'GroupAggregate', Hashed: 'HashAggregate', Mixed: 'MixedAggregate' };

/** The node's name as EXPLAIN's text form prints it: "Parallel Seq Scan", "Finalize HashAggregate", "Hash Left Join". */
export function postgresNodeName(n: PlanNode): string {
  let name = n.nodeType;
  if (name === 'Aggregate' && n.strategy) name = AGGREGATE_BY_STRATEGY[n.strategy] ?? name;
  if (n.joinType && n.joinType !== 'Inner') {
    name = name === 'Nested Loop' ? `Nested Loop ${n.joinType} Join` : name.replace(/ Join$/, ` ${n.joinType} Join`);
  }
  if (name === 'ModifyTable' && n.operation) name = n.operation;
  if (n.parallelAware) name = `Parallel ${name}`;
  if (n.partialMode && n.partialMode !== 'Simple') name = `${n.partialMode} ${name}`;
  return name;
}

/** Rows counted (all loops) against the planner's estimate, with the factor where it is far off. */
function rowsText(n: PlanNode): string {
  if (n.actualRows === undefined) return '';
  const loops = n.actualLoops ?? 1;
  const counted = `rows ${formatCount(n.actualRows)}${loops !== 1 ? ` × ${formatCount(loops)} loops` : ''}`;
  if (n.planRows === undefined) return counted;
  const est = n.planRows;
  const off = misestimateText(n.actualRows, est);
  return `${counted}, estimated ${formatCount(est)}${off}`;
}

/**
 * The node's time over all its loops (EXPLAIN gives one loop's average), and its own without its children's.
 * Under a Gather the loops are processes running side by side, so their time is shared out among them.
 */
function timeText(n: PlanNode, processes: number): string {
  const total = nodeTime(n, processes);
  if (total === undefined) return '';
  const inner = processesBelow(n, processes);
  const self = Math.max(0, total - n.children.reduce((a, c) => a + (nodeTime(c, inner) ?? 0), 0));
  const ms = (v: number) => (v < 0.1 ? '< 0.1' : v.toFixed(1));
  return n.children.length ? `time ${ms(total)} ms (own ${ms(self)} ms)` : `time ${ms(total)} ms`;
}

const nodeTime = (n: PlanNode, processes: number): number | undefined =>
  n.totalTimeMs === undefined ? undefined : (n.totalTimeMs * (n.actualLoops ?? 1)) / processes;

/** Below a Gather the leader and its launched workers each run the subtree. */
const processesBelow = (n: PlanNode, processes: number): number => (/^Gather/.test(n.nodeType) ? (n.workersLaunched ?? 0) + 1 : processes);

function removedText(n: PlanNode): string[] {
  const loops = n.actualLoops ?? 1;
  const removed = (v: number | undefined, what: string) => (v ? [`${formatCount(v * loops)} rows removed by ${what}`] : []);
  return [
    ...removed(n.rowsRemovedByFilter, 'the filter'),
    ...removed(n.rowsRemovedByJoinFilter, 'the join filter'),
    ...removed(n.rowsRemovedByIndexRecheck, 'the recheck'),
  ];
}

function detailOf(n: PlanNode, processes: number): string {
  return [
    rowsText(n),
    timeText(n, processes),
    n.workersLaunched !== undefined ? `workers ${n.workersLaunched}/${n.workersPlanned ?? '?'}` : '',
    n.heapFetches !== undefined ? `heap fetches ${formatCount(n.heapFetches)}` : '',
    n.hotUpdated !== undefined ? `${formatCount(n.hotUpdated)} updated in place (HOT)` : '',
    n.exactHeapBlocks !== undefined
      ? `heap blocks ${formatCount(n.exactHeapBlocks)}${n.lossyHeapBlocks ? ` (+${formatCount(n.lossyHeapBlocks)} lossy)` : ''}`
      : '',
    ...removedText(n),
  ]
    .filter(Boolean)
    .join(' · ');
}

export function postgresRow(n: PlanNode, processes = 1): PlanRow {
  const name = postgresNodeName(n);
  const label = `${name}${n.relation ? ` on ${n.relation}` : ''}${n.alias && n.alias !== n.relation ? ` ${n.alias}` : ''}${n.index ? ` using ${n.index}` : ''}`;
  const temp = n.self.tempRead + n.self.tempWritten > 0 ? { read: n.self.tempRead, written: n.self.tempWritten } : undefined;
  return {
    label,
    detail: detailOf(n, processes),
    conditions: n.conditions ?? (n.indexCond ? [`Index Cond: ${n.indexCond}`] : []),
    selfPages: n.self.sharedHit + n.self.sharedRead,
    selfRead: n.self.sharedRead,
    totalPages: n.total.sharedHit + n.total.sharedRead,
    totalRead: n.total.sharedRead,
    ...(temp ? { temp } : {}),
    share: 0,
    heavy: false,
    open: false,
    children: n.children.map((c) => postgresRow(c, processesBelow(n, processes))),
  };
}
