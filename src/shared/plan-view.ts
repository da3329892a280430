// The plan as a tree of rows to show, one shape for both engines: PostgreSQL's plan nodes with their
// buffers (self and total, hit and read), MariaDB's ANALYZE FORMAT=JSON tables with their engine pages
// (accessed, read, read ahead). The heaviest nodes by their own pages are marked with their share, so the
// mark is words and numbers, not a colour. Pure: the webview and tests read it.
import type { Report } from './report';
import { postgresRow } from './plan-view-postgres';
import { innodbBlock } from './plan-view-innodb';
import type { PlanRow } from './plan-row';

export type { PlanRow } from './plan-row';

export interface PlanView {
  source: 'postgresql' | 'innodb';
  root: PlanRow;
  /** What the numbers are, in one line. */
  legend: string;
}

type Json = Record<string, unknown>;

const HEAVIEST = 3;
/** A node counts as heavy only with at least this share of the plan's pages. */
const HEAVY_SHARE = 0.1;
/** Nodes this shallow start open; deeper ones only on the way to a heavy node. */
const OPEN_DEPTH = 2;

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
  const open = (r: PlanRow, depth: number): boolean => {
    const below = r.children.map((c) => open(c, depth + 1)).some(Boolean);
    r.open = depth < OPEN_DEPTH || below || r.heavy;
    return r.heavy || below;
  };
  open(root, 0);
}

/** The plan of run 1 as a tree, or undefined where there is none to draw (MySQL's EXPLAIN ANALYZE text). */
export function planView(report: Report): PlanView | undefined {
  const run = report.runs[0];
  if (run?.plan) {
    const root = postgresRow(run.plan);
    mark(root);
    return {
      source: 'postgresql',
      root,
      legend:
        'pages per node: self (its own) and total (with its children), hit in shared buffers or read; ' +
        'rows counted against the estimate, time over all loops; the heaviest nodes by their own pages are marked with their share and open',
    };
  }
  const plan = run?.enginePlan;
  if (plan && typeof plan === 'object' && (plan as Json).query_block) {
    const root = innodbBlock((plan as Json).query_block as Json, 'query', { names: run.planTables ?? {}, predicted: run.predictedTables ?? {} });
    mark(root);
    return {
      source: 'innodb',
      root,
      legend:
        'tables in join order, each under the table whose rows drive it; ' +
        'pages per table as the engine counted them for this statement (r_engine_stats): accessed, and of them read from disk or ahead, ' +
        'a total including the tables below; rows examined against the estimate; the heaviest tables are marked with their share',
    };
  }
  return undefined;
}
