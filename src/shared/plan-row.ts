// One row of the plan view, either engine's: what the webview draws and the tests read.

export interface PlanRow {
  label: string;
  detail: string;
  /** What the node tests, joins and sorts on, one line each, as the engine prints them. */
  conditions: string[];
  /** Pages this node requested itself (hit + read), and of them read from disk. */
  selfPages: number;
  selfRead: number;
  totalPages: number;
  totalRead: number;
  /** What the prediction gives this node (InnoDB: its table's pages requested and read), where it gives one. */
  predicted?: { pages: number; read: number };
  /** Temporary-file blocks this node itself read and wrote (a sort or hash that spilled). */
  temp?: { read: number; written: number };
  /** Shown open: near the root, or on the way to one of the heaviest nodes. */
  open: boolean;
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

/** An estimate this many times off the rows counted is called out: the optimizer chose on a wrong count. */
const MISESTIMATE_FACTOR = 10;

/** " (N× more/fewer than estimated)" where the rows counted are that far from the estimate, else "". */
export function misestimateText(actual: number, estimated: number): string {
  const factor = Math.max(actual, 1) / Math.max(estimated, 1);
  if (factor >= MISESTIMATE_FACTOR) return ` (${Math.round(factor)}× more than estimated)`;
  if (factor <= 1 / MISESTIMATE_FACTOR) return ` (${Math.round(1 / factor)}× fewer than estimated)`;
  return '';
}
