// Page budgets: bounds on a statement's buffer I/O written next to the SQL, checked against a report.
//
//   -- bufferlens: budget logical <= 1200, physical(cold) <= 300 +10%, read-ahead(cold) <= 0
//
// A bound names a metric (logical, physical, read-ahead), the runs it applies to (cold: run 1 from a cold
// pool; warm: runs 2 and later; any: every run, the default for logical reads), an operator (<=, <, =, >=)
// and a number of pages, with an optional tolerance (+N% for an upper bound, ±N% for =). The worst run the
// bound applies to decides. Only what is deterministic is checked: a bound whose number depends on what
// the pool held before (physical reads of run 1 "as found"), that the engine does not report (read-ahead on
// PostgreSQL) or that needs a cold run 1 the server could not give is refused with the reason. Pure.
import type { Report, RunReport } from './report';

export type BudgetMetric = 'logical' | 'physical' | 'read-ahead';
export type BudgetState = 'cold' | 'warm' | 'any';
export type BudgetOp = '<=' | '<' | '=' | '>=';

export interface BudgetBound {
  metric: BudgetMetric;
  state: BudgetState;
  op: BudgetOp;
  pages: number;
  /** Allowed excess as a fraction (0.1 for +10%). */
  tolerance: number;
}

export interface BoundResult {
  bound: BudgetBound;
  status: 'within' | 'breach' | 'refused';
  /** The worst measured value among the runs the bound applies to; null when refused. */
  measured: number | null;
  predicted: number | null;
  /** Why a bound is refused, or what breached. */
  reason?: string;
}

export class BudgetSyntaxError extends Error {}

const MARKER = /^\s*--\s*bufferlens:\s*budget\b(.*)$/i;
const BOUND = /^\s*(logical|physical|read-ahead)\s*(?:\(\s*(cold|warm|any)\s*\))?\s*(<=|<|==|=|>=)\s*(\d+)\s*(?:(\+|±|\+-)\s*(\d+(?:\.\d+)?)\s*%)?\s*$/i;

/** The bounds of one annotation line's text after "budget"; throws BudgetSyntaxError with what is wrong. */
export function parseBudget(text: string): BudgetBound[] {
  const parts = text.split(',').map((p) => p.trim());
  if (parts.length === 0 || parts.every((p) => p === '')) throw new BudgetSyntaxError('a budget needs at least one bound, e.g. "logical <= 1200"');
  return parts.map((part) => {
    const m = BOUND.exec(part);
    if (!m)
      throw new BudgetSyntaxError(`"${part}" is not a bound: write metric[(cold|warm|any)] <=|<|=|>= PAGES [+N%], with metric logical, physical or read-ahead`);
    const metric = m[1].toLowerCase() as BudgetMetric;
    const op = (m[3] === '==' ? '=' : m[3]) as BudgetOp;
    if (m[5] && m[5] !== '+' && op !== '=') throw new BudgetSyntaxError(`"${part}": ± goes with =; an upper bound takes +N%`);
    return { metric, state: (m[2]?.toLowerCase() as BudgetState | undefined) ?? 'any', op, pages: Number(m[4]), tolerance: m[6] ? Number(m[6]) / 100 : 0 };
  });
}

export function formatBound(b: BudgetBound): string {
  const tol = b.tolerance ? ` ${b.op === '=' ? '±' : '+'}${+(b.tolerance * 100).toFixed(2)}%` : '';
  return `${b.metric}${b.state === 'any' ? '' : `(${b.state})`} ${b.op} ${b.pages}${tol}`;
}

export interface AnnotatedBudget {
  bounds: BudgetBound[];
  /** Each annotation line that held bounds: its 0-based number and how many of the bounds it wrote. */
  lines: Array<{ line: number; count: number }>;
}

/**
 * The budget written in the comment lines directly above a statement's first line (no blank line between);
 * several annotation lines add up. undefined when there is none.
 */
export function budgetAbove(lines: readonly string[], statementLine: number): AnnotatedBudget | undefined {
  const found: AnnotatedBudget = { bounds: [], lines: [] };
  for (let k = statementLine - 1; k >= 0 && /^\s*--/.test(lines[k]); k--) {
    const m = MARKER.exec(lines[k]);
    if (!m) continue;
    const bounds = parseBudget(m[1]);
    found.bounds.unshift(...bounds);
    found.lines.unshift({ line: k, count: bounds.length });
  }
  return found.lines.length ? found : undefined;
}

/** The annotation line for bounds, keeping the original line's indentation. */
export function annotationLine(bounds: BudgetBound[], indent = ''): string {
  return `${indent}-- bufferlens: budget ${bounds.map(formatBound).join(', ')}`;
}

const value = (r: RunReport, metric: BudgetMetric, side: 'measured' | 'predicted'): number | null =>
  metric === 'logical' ? r[side].logicalReads : metric === 'physical' ? r[side].physicalReads : r[side].readAhead;

function refusal(bound: BudgetBound, report: Report, runs: RunReport[]): string | undefined {
  const pg = report.engine.product === 'postgresql';
  if (bound.metric !== 'logical' && bound.state === 'any') {
    return `${bound.metric} reads of run 1 depend on what the pool held before it: write ${bound.metric}(warm) or ${bound.metric}(cold)`;
  }
  if (bound.state === 'cold' && !report.runs[0]?.cold) {
    const major = Number(/^(\d+)/.exec(report.engine.version)?.[1] ?? 0);
    return pg && major >= 17
      ? 'run 1 was not cold: the relations could not be evicted (pg_buffercache_evict needs the extension and a superuser)'
      : pg
        ? `run 1 was not cold: PostgreSQL ${major} cannot evict one relation; check cold bounds on PostgreSQL 17 or later, or right after a restart`
        : 'run 1 was not cold: InnoDB cannot evict one table; ' +
          'check cold bounds right after a restart with innodb_buffer_pool_load_at_startup=OFF, one statement per restart';
  }
  if (runs.length === 0) return `there is no ${bound.state} run: measure with 2 runs or more`;
  const nulls = runs.filter((r) => value(r, bound.metric, 'measured') === null);
  if (nulls.length) {
    const note = report.runs[0]?.notes?.[bound.metric === 'logical' ? 'logicalReads' : bound.metric === 'physical' ? 'physicalReads' : 'readAhead'];
    return `${report.engine.product} does not report ${bound.metric} reads${note ? `: ${note}` : ''}`;
  }
  return undefined;
}

/** Each bound checked against the runs it applies to: the worst of them decides. */
export function checkBudget(bounds: BudgetBound[], report: Report): BoundResult[] {
  return bounds.map((bound) => {
    const runs = report.runs.filter((r) => (bound.state === 'cold' ? r.run === 1 : bound.state === 'warm' ? r.run > 1 : true));
    const why = refusal(bound, report, runs);
    if (why) return { bound, status: 'refused', measured: null, predicted: null, reason: why };
    const measured = Math.max(...runs.map((r) => value(r, bound.metric, 'measured')!));
    const predictedValues = runs.map((r) => value(r, bound.metric, 'predicted'));
    const predicted = predictedValues.every((p) => p !== null) ? Math.max(...(predictedValues as number[])) : null;
    const slack = bound.pages * bound.tolerance;
    const ok =
      bound.op === '<='
        ? measured <= bound.pages + slack
        : bound.op === '<'
          ? measured < bound.pages + slack
          : bound.op === '>='
            ? measured >= bound.pages - slack
            : Math.abs(measured - bound.pages) <= slack;
    return ok
      ? { bound, status: 'within', measured, predicted }
      : {
          bound,
          status: 'breach',
          measured,
          predicted,
          reason: `${bound.metric}${bound.state === 'any' ? '' : `(${bound.state})`} ${measured.toLocaleString('en-US')}, budget ${formatBound(bound)}`,
        };
  });
}

/**
 * The bounds rewritten from a report: each checkable bound's pages set to the measured worst plus the
 * margin (an upper bound) or to the measured value (=, >=), refused ones kept as they were.
 */
export function updatedBounds(bounds: BudgetBound[], report: Report, margin: number): BudgetBound[] {
  return checkBudget(bounds, report).map(({ bound, measured, status }) => {
    if (status === 'refused' || measured === null) return bound;
    const pages = bound.op === '<=' || bound.op === '<' ? Math.ceil(measured * (1 + margin)) + (bound.op === '<' ? 1 : 0) : measured;
    return { ...bound, pages };
  });
}

/** One line for a lens or a list: within, or what breached, or what could not be checked. */
export function budgetSummary(results: BoundResult[]): string {
  const breaches = results.filter((r) => r.status === 'breach');
  if (breaches.length) return `over budget: ${breaches.map((r) => r.reason).join('; ')}`;
  const refused = results.filter((r) => r.status === 'refused');
  return refused.length === results.length
    ? 'budget not checked'
    : `within budget${refused.length ? ` (${refused.length} bound${refused.length > 1 ? 's' : ''} not checked)` : ''}`;
}
