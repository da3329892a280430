// Pure parsing of PostgreSQL's EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) output into BufferLens plan
// nodes with total and self (exclusive) buffer counters.
//
// Why self needs care: with parallel query, each node's counters already include its workers'
// (the executor folds worker instrumentation into the leader's node), and Gather's totals include
// the workers' buffers gathered at shutdown. Self = total − Σ children's totals is therefore right
// for every node; it is clamped at 0 where a version reports a parent below its children, and the
// clamp is reported instead of hidden.
import type { BufferCounters, PlanNode } from '../../shared/report';

type Json = Record<string, unknown>;

const num = (node: Json, key: string): number => (typeof node[key] === 'number' ? (node[key] as number) : 0);
const optNum = (node: Json, ...keys: string[]): number | null => {
  for (const k of keys) if (typeof node[k] === 'number') return node[k] as number;
  return null;
};

export function countersOf(node: Json): BufferCounters {
  return {
    sharedHit: num(node, 'Shared Hit Blocks'),
    sharedRead: num(node, 'Shared Read Blocks'),
    sharedDirtied: num(node, 'Shared Dirtied Blocks'),
    sharedWritten: num(node, 'Shared Written Blocks'),
    localHit: num(node, 'Local Hit Blocks'),
    localRead: num(node, 'Local Read Blocks'),
    localDirtied: num(node, 'Local Dirtied Blocks'),
    localWritten: num(node, 'Local Written Blocks'),
    tempRead: num(node, 'Temp Read Blocks'),
    tempWritten: num(node, 'Temp Written Blocks'),
    // PG ≤ 16 says "I/O Read Time"; 17+ splits it into shared/local and temp.
    readTimeMs: optNum(node, 'Shared I/O Read Time', 'I/O Read Time'),
    writeTimeMs: optNum(node, 'Shared I/O Write Time', 'I/O Write Time'),
  };
}

function addCounters(a: BufferCounters, b: BufferCounters): BufferCounters {
  const out = { ...a };
  for (const k of COUNTER_KEYS) out[k] = a[k] + b[k];
  for (const k of ['readTimeMs', 'writeTimeMs'] as const) out[k] = a[k] === null && b[k] === null ? null : (a[k] ?? 0) + (b[k] ?? 0);
  return out;
}

const COUNTER_KEYS = [
  'sharedHit',
  'sharedRead',
  'sharedDirtied',
  'sharedWritten',
  'localHit',
  'localRead',
  'localDirtied',
  'localWritten',
  'tempRead',
  'tempWritten',
] as const;

function subtract(total: BufferCounters, children: BufferCounters[], clamped: string[], label: string): BufferCounters {
  const self = { ...total };
  for (const k of COUNTER_KEYS) {
    const v = total[k] - children.reduce((a, c) => a + c[k], 0);
    if (v < 0) clamped.push(`${label}: ${k} of the children exceeds the node's total by ${-v}`);
    self[k] = Math.max(0, v);
  }
  for (const k of ['readTimeMs', 'writeTimeMs'] as const) {
    const t = total[k];
    self[k] = t === null ? null : Math.max(0, t - children.reduce((a, c) => a + (c[k] ?? 0), 0));
  }
  return self;
}

export interface RelationRef {
  schema: string | undefined;
  name: string;
  kind: 'table' | 'index';
  /** For an index: the table it was used with. */
  table?: string;
}

export interface ParsedPlan {
  root: PlanNode;
  /** The statement's buffers: the root's, plus those of data-modifying CTEs that ran after it finished. */
  statementTotal: BufferCounters;
  planning: BufferCounters | undefined;
  planningTimeMs: number | null;
  executionTimeMs: number | null;
  relations: RelationRef[];
  workersPlanned: number;
  workersLaunched: number;
  /** Problems found in the engine's numbers (never silently corrected). */
  anomalies: string[];
  settings: Record<string, string>;
  wal: Record<string, number> | undefined;
}

/** EXPLAIN's numeric node fields the model reads, in the order a node shows them. */
const COUNTS_BEFORE: Array<[keyof PlanNode, string]> = [
  ['workersPlanned', 'Workers Planned'],
  ['workersLaunched', 'Workers Launched'],
  ['planRows', 'Plan Rows'],
  ['actualRows', 'Actual Rows'],
  ['actualLoops', 'Actual Loops'],
  ['totalTimeMs', 'Actual Total Time'],
];
const COUNTS_AFTER: Array<[keyof PlanNode, string]> = [
  ['rowsRemovedByFilter', 'Rows Removed by Filter'],
  ['rowsRemovedByJoinFilter', 'Rows Removed by Join Filter'],
  ['rowsRemovedByIndexRecheck', 'Rows Removed by Index Recheck'],
  ['heapFetches', 'Heap Fetches'],
  ['indexSearches', 'Index Searches'],
  ['exactHeapBlocks', 'Exact Heap Blocks'],
  ['lossyHeapBlocks', 'Lossy Heap Blocks'],
];

const NAMING: Array<[keyof PlanNode, string]> = [
  ['partialMode', 'Partial Mode'],
  ['joinType', 'Join Type'],
  ['strategy', 'Strategy'],
];

/** EXPLAIN's conditions and keys, in the order its text form prints them. */
const CONDITIONS = [
  'Index Cond',
  'Recheck Cond',
  'TID Cond',
  'Hash Cond',
  'Merge Cond',
  'Join Filter',
  'Filter',
  'One-Time Filter',
  'Sort Key',
  'Presorted Key',
  'Group Key',
  'Cache Key',
];

function conditionsOf(node: Json): string[] {
  const out: string[] = [];
  for (const field of CONDITIONS) {
    const v = node[field];
    if (typeof v === 'string') out.push(`${field}: ${v}`);
    else if (Array.isArray(v) && v.length) out.push(`${field}: ${v.map(String).join(', ')}`);
  }
  if (typeof node['Sort Method'] === 'string') {
    const space =
      typeof node['Sort Space Used'] === 'number' ? `, ${String(node['Sort Space Type'] ?? '')} ${node['Sort Space Used']} kB`.replace(' ,', ',') : '';
    out.push(`Sort Method: ${node['Sort Method']}${space}`);
  }
  if (typeof node['Hash Batches'] === 'number' && (node['Hash Batches'] as number) > 1) {
    out.push(`Hash Batches: ${node['Hash Batches']} (spilled to temporary files)`);
  }
  return out;
}

/** An output entry that only passes a column on, qualified or not (EXPLAIN VERBOSE's Output). */
const BARE_COLUMN = /^(?:(?:"(?:[^"]|"")+"|[\w$]+)\.)?(?:"(?:[^"]|"")+"|[\w$]+)$/;

function copyNodeDetails(node: Json, out: PlanNode): void {
  const target = out as unknown as Record<string, unknown>;
  const copy = (fields: Array<[keyof PlanNode, string]>) => {
    for (const [key, field] of fields) if (typeof node[field] === 'number') target[key] = node[field];
  };
  if (typeof node.Alias === 'string') out.alias = node.Alias;
  if (typeof node['Index Cond'] === 'string') out.indexCond = node['Index Cond'] as string;
  if (node['Scan Direction'] === 'Backward') out.backward = true;
  if (Array.isArray(node['Sort Key'])) out.sortKeys = (node['Sort Key'] as unknown[]).length;
  if (typeof node.Operation === 'string') out.operation = node.Operation;
  for (const [key, field] of NAMING) if (typeof node[field] === 'string') target[key] = node[field];
  const conditions = conditionsOf(node);
  if (conditions.length) out.conditions = conditions;
  const computed = Array.isArray(node.Output) ? (node.Output as unknown[]).map(String).filter((o) => !BARE_COLUMN.test(o)) : [];
  if (computed.length) out.computed = computed;
  copy(COUNTS_BEFORE);
  if (node['Parallel Aware'] === true) out.parallelAware = true;
  copy(COUNTS_AFTER);
  if (Array.isArray(node.Workers) && node.Workers.length) {
    out.workers = (node.Workers as Json[]).map((w) => ({ blocks: num(w, 'Shared Hit Blocks') + num(w, 'Shared Read Blocks'), rows: num(w, 'Actual Rows') }));
  }
}

export function parseExplainJson(output: unknown): ParsedPlan {
  const doc = (Array.isArray(output) ? output[0] : output) as Json | undefined;
  if (!doc || typeof doc !== 'object' || typeof doc.Plan !== 'object') throw new Error('not an EXPLAIN (FORMAT JSON) document');
  const relations: RelationRef[] = [];
  const anomalies: string[] = [];
  let workersPlanned = 0;
  let workersLaunched = 0;
  const seen = new Set<string>();
  const addRelation = (r: RelationRef) => {
    const key = `${r.kind}:${r.schema ?? ''}.${r.name}`;
    if (!seen.has(key)) {
      seen.add(key);
      relations.push(r);
    }
  };

  // A data-modifying CTE that the query does not read to the end runs to completion after the rest of the
  // plan has finished (ExecPostprocessPlan), so its buffers are not in its parent's totals.
  const deferred: BufferCounters[] = [];
  const walk = (node: Json, path: string): PlanNode => {
    const childJson = Array.isArray(node.Plans) ? (node.Plans as Json[]) : [];
    const children = childJson.map((c, i) => walk(c, `${path}.${i}`));
    const total = countersOf(node);
    const pages = (c: BufferCounters) => c.sharedHit + c.sharedRead;
    const runsAfter = children.map(
      (c, i) => childJson[i]['Node Type'] === 'ModifyTable' && childJson[i]['Parent Relationship'] === 'InitPlan' && pages(c.total) > pages(total),
    );
    if (path === '0') children.forEach((c, i) => runsAfter[i] && deferred.push(c.total));
    const nodeType = String(node['Node Type'] ?? 'Unknown');
    const schema = typeof node.Schema === 'string' ? node.Schema : undefined;
    const relation = typeof node['Relation Name'] === 'string' ? (node['Relation Name'] as string) : undefined;
    const index = typeof node['Index Name'] === 'string' ? (node['Index Name'] as string) : undefined;
    if (relation) addRelation({ schema, name: relation, kind: 'table' });
    if (index) addRelation({ schema, name: index, kind: 'index', table: relation });
    if (typeof node['Workers Planned'] === 'number') workersPlanned += node['Workers Planned'] as number;
    if (typeof node['Workers Launched'] === 'number') workersLaunched += node['Workers Launched'] as number;
    const label = `${nodeType}${relation ? ` on ${relation}` : ''} (node ${path})`;
    const out: PlanNode = {
      nodeType,
      total,
      self: subtract(
        total,
        children.filter((_, i) => !runsAfter[i]).map((c) => c.total),
        anomalies,
        label,
      ),
      children,
    };
    if (relation) out.relation = relation;
    if (index) out.index = index;
    copyNodeDetails(node, out);
    return out;
  };

  const root = walk(doc.Plan as Json, '0');
  const planningJson = doc.Planning as Json | undefined;
  const settings: Record<string, string> = {};
  if (doc.Settings && typeof doc.Settings === 'object') for (const [k, v] of Object.entries(doc.Settings as Json)) settings[k] = String(v);
  const walKeys = ['WAL Records', 'WAL FPI', 'WAL Bytes'];
  const plan = doc.Plan as Json;
  const wal = walKeys.some((k) => typeof plan[k] === 'number') ? Object.fromEntries(walKeys.map((k) => [k, num(plan, k)])) : undefined;
  return {
    root,
    statementTotal: deferred.reduce((a, d) => addCounters(a, d), root.total),
    planning: planningJson ? countersOf(planningJson) : undefined,
    planningTimeMs: optNum(doc, 'Planning Time'),
    executionTimeMs: optNum(doc, 'Execution Time'),
    relations,
    workersPlanned,
    workersLaunched,
    anomalies,
    settings,
    wal,
  };
}

/** The plan's own counters for a run's `raw` record, by EXPLAIN's names. */
export function rawExplain(plan: ParsedPlan): Record<string, number | null> {
  const t = plan.statementTotal;
  const raw: Record<string, number | null> = {
    'explain.shared_hit': t.sharedHit,
    'explain.shared_read': t.sharedRead,
    'explain.shared_dirtied': t.sharedDirtied,
    'explain.shared_written': t.sharedWritten,
    'explain.local_hit': t.localHit,
    'explain.local_read': t.localRead,
    'explain.temp_read': t.tempRead,
    'explain.temp_written': t.tempWritten,
    'explain.read_time_ms': t.readTimeMs,
    'explain.workers_planned': plan.workersPlanned,
    'explain.workers_launched': plan.workersLaunched,
    'explain.planning_ms': plan.planningTimeMs,
    'explain.execution_ms': plan.executionTimeMs,
  };
  if (plan.planning) {
    raw['planning.shared_hit'] = plan.planning.sharedHit;
    raw['planning.shared_read'] = plan.planning.sharedRead;
  }
  if (plan.wal) for (const [k, v] of Object.entries(plan.wal)) raw[`explain.${k.toLowerCase().replace(/ /g, '_')}`] = v;
  return raw;
}
