// The plan as a tree of rows to show, one shape for both engines: PostgreSQL's plan nodes with their
// buffers (self and total, hit and read), MariaDB's ANALYZE FORMAT=JSON tables with their engine pages
// (accessed, read, read ahead). The heaviest nodes by their own pages are marked with their share, so the
// mark is words and numbers, not a colour. Pure: the webview and tests read it.
import type { PlanNode, Report } from './report';
import { formatCount } from './format';

export interface PlanRow {
  label: string;
  detail: string;
  /** Pages this node requested itself (hit + read), and of them read from disk. */
  selfPages: number;
  selfRead: number;
  totalPages: number;
  totalRead: number;
  /** Share of the plan's pages this node requested itself, 0–1. */
  share: number;
  /** Among the heaviest nodes (its own pages): shown highlighted, with its share. */
  heavy: boolean;
  /** The engine gave no page counts for this node (a MariaDB table without r_engine_stats): not 0, not reported. */
  notReported?: boolean;
  /** A query block that only groups its tables: it requests no page itself, so only its total is shown. */
  group?: boolean;
  children: PlanRow[];
}

export interface PlanView {
  source: 'postgresql' | 'innodb';
  root: PlanRow;
  /** What the numbers are, in one line. */
  legend: string;
}

const HEAVIEST = 3;
/** A node counts as heavy only with at least this share of the plan's pages. */
const HEAVY_SHARE = 0.1;

function fromPostgres(n: PlanNode): PlanRow {
  const label = `${n.operation ? `${n.nodeType} (${n.operation})` : n.nodeType}${n.relation ? ` on ${n.relation}` : ''}${n.index ? ` using ${n.index}` : ''}`;
  const detail = [
    n.actualRows !== undefined ? `rows ${formatCount(n.actualRows)} × ${formatCount(n.actualLoops ?? 1)}` : '',
    n.workersLaunched !== undefined ? `workers ${n.workersLaunched}/${n.workersPlanned ?? '?'}` : '',
    n.heapFetches !== undefined ? `heap fetches ${formatCount(n.heapFetches)}` : '',
    n.exactHeapBlocks !== undefined
      ? `heap blocks ${formatCount(n.exactHeapBlocks)}${n.lossyHeapBlocks ? ` (+${formatCount(n.lossyHeapBlocks)} lossy)` : ''}`
      : '',
  ]
    .filter(Boolean)
    .join(' · ');
  return {
    label,
    detail,
    selfPages: n.self.sharedHit + n.self.sharedRead,
    selfRead: n.self.sharedRead,
    totalPages: n.total.sharedHit + n.total.sharedRead,
    totalRead: n.total.sharedRead,
    share: 0,
    heavy: false,
    children: n.children.map(fromPostgres),
  };
}

type Json = Record<string, unknown>;

/** MariaDB's tables (and the query blocks of subqueries and derived tables) as rows. */
function fromInnodb(block: Json, title: string): PlanRow {
  const children: PlanRow[] = [];
  const visit = (o: unknown): void => {
    if (Array.isArray(o)) return o.forEach(visit);
    if (!o || typeof o !== 'object') return;
    const v = o as Json;
    for (const [k, x] of Object.entries(v)) {
      if (k === 'table' && x && typeof x === 'object') children.push(innodbTable(x as Json));
      else if (k === 'query_block' && x && typeof x === 'object')
        children.push(fromInnodb(x as Json, `query block ${String((x as Json).select_id ?? '')}`.trim()));
      else if (typeof x === 'object') visit(x);
    }
  };
  visit(block);
  const sum = (f: (r: PlanRow) => number) => children.reduce((a, r) => a + f(r), 0);
  return {
    label: title,
    detail: block.r_total_time_ms !== undefined ? `${Number(block.r_total_time_ms).toFixed(1)} ms` : '',
    selfPages: 0,
    selfRead: 0,
    totalPages: sum((r) => r.totalPages),
    totalRead: sum((r) => r.totalRead),
    share: 0,
    heavy: false,
    group: true,
    children,
  };
}

function innodbTable(t: Json): PlanRow {
  const stats = (t.r_engine_stats ?? {}) as Json;
  const accessed = Number(stats.pages_accessed ?? 0);
  const read = Number(stats.pages_read_count ?? 0) + Number(stats.pages_prefetch_read_count ?? 0);
  const nested = t.materialized ?? t.subqueries;
  const row: PlanRow = {
    label: `${String(t.table_name ?? '?')}: ${String(t.access_type ?? '?')}${t.key ? ` using ${String(t.key)}` : ''}`,
    detail: [
      t.r_rows !== undefined ? `rows ${formatCount(Number(t.r_rows))} × ${formatCount(Number(t.r_loops ?? 1))}` : '',
      stats.pages_prefetch_read_count ? `${formatCount(Number(stats.pages_prefetch_read_count))} read ahead` : '',
      t.attached_condition ? `filter ${String(t.attached_condition)}` : '',
    ]
      .filter(Boolean)
      .join(' · '),
    selfPages: accessed,
    selfRead: read,
    totalPages: accessed,
    totalRead: read,
    share: 0,
    heavy: false,
    children: [],
    ...(t.r_engine_stats === undefined ? { notReported: true } : {}),
  };
  if (nested && typeof nested === 'object') {
    const inner = fromInnodb(nested as Json, 'materialized / subquery');
    row.children = inner.children;
    row.totalPages += inner.totalPages;
    row.totalRead += inner.totalRead;
  }
  return row;
}

function mark(root: PlanRow): void {
  const all: PlanRow[] = [];
  const walk = (r: PlanRow) => (all.push(r), r.children.forEach(walk));
  walk(root);
  const total = Math.max(1, root.totalPages);
  for (const r of all) r.share = r.selfPages / total;
  all
    .filter((r) => r.share >= HEAVY_SHARE)
    .sort((a, b) => b.selfPages - a.selfPages)
    .slice(0, HEAVIEST)
    .forEach((r) => (r.heavy = true));
}

/** The plan of run 1 as a tree, or undefined where there is none to draw (MySQL's EXPLAIN ANALYZE text). */
export function planView(report: Report): PlanView | undefined {
  const run = report.runs[0];
  if (run?.plan) {
    const root = fromPostgres(run.plan);
    mark(root);
    return {
      source: 'postgresql',
      root,
      legend:
        'pages per node: self (its own) and total (with its children), hit in shared buffers or read; the heaviest nodes by their own pages are marked with their share',
    };
  }
  const plan = run?.enginePlan;
  if (plan && typeof plan === 'object' && (plan as Json).query_block) {
    const root = fromInnodb((plan as Json).query_block as Json, 'query');
    mark(root);
    return {
      source: 'innodb',
      root,
      legend:
        'pages per table as the engine counted them for this statement (r_engine_stats): accessed, and of them read from disk or ahead; the heaviest tables are marked with their share',
    };
  }
  return undefined;
}
