// The one view-model of a report: every label, state name, unit and "not reported" / "not modelled"
// decision is made here, once. The webview, the Markdown export and the CLI only lay it out. Pure.
import type { Reads, Report, RunReport, WhatIfSeries } from './report';
import { formatBytes, formatCount, hitRatioNote } from './format';

export type Metric = keyof Reads;

export const METRICS: ReadonlyArray<{ key: Metric; label: string }> = [
  { key: 'logicalReads', label: 'logical' },
  { key: 'physicalReads', label: 'physical' },
  { key: 'readAhead', label: 'read-ahead' },
];

/**
 * One number as shown. `not-reported`: the engine cannot tell it. `not-modelled`: the engine tells it but
 * the simulator does not predict it. Neither is ever shown as 0.
 */
export type Cell =
  | { kind: 'number'; value: number; text: string; range?: [number, number] }
  | { kind: 'not-reported'; value: null; text: 'not reported'; short: 'n/r'; reason?: string }
  | { kind: 'not-modelled'; value: null; text: 'not modelled'; short: 'n/m'; reason?: string };

export const PRODUCT_NAME: Record<Report['engine']['product'], string> = { postgresql: 'PostgreSQL', mysql: 'MySQL', mariadb: 'MariaDB' };

export function numberCell(n: number): Cell {
  return { kind: 'number', value: n, text: formatCount(n) };
}

export function notReported(reason?: string): Cell {
  return { kind: 'not-reported', value: null, text: 'not reported', short: 'n/r', ...(reason ? { reason } : {}) };
}

export function notModelled(reason?: string): Cell {
  return { kind: 'not-modelled', value: null, text: 'not modelled', short: 'n/m', ...(reason ? { reason } : {}) };
}

/** A cell's short text for narrow layouts (terminals): n/r and n/m, with a legend beside the table. */
export const shortText = (c: Cell): string => (c.kind === 'number' ? c.text : c.short);

export type RunState = 'cold' | 'as found' | 'warm';

export const runState = (r: RunReport): RunState => (r.cold ? 'cold' : r.run === 1 ? 'as found' : 'warm');

export interface RunRow {
  run: number;
  state: RunState;
  measured: Record<Metric, Cell>;
  /** A prediction the engine has no number for is "not reported" too; one it has, "not modelled". */
  predicted: Record<Metric, Cell>;
  elapsedMs: number;
  timeText: string;
  /** Pages read (synchronous + read-ahead) as bytes, or why not. */
  bytesRead: string;
}

export interface ResidencyCell {
  before: Cell;
  after: Cell;
  predictedAfter?: Cell;
  text: string;
}

export interface ResidencyRow {
  relation: string;
  kind: string;
  pages: number;
  pagesText: string;
  /** Per run, in run order; undefined where a run has no row for the relation. */
  runs: Array<ResidencyCell | undefined>;
}

export interface WhatIfTable {
  title: string;
  series: WhatIfSeries;
  rows: Array<{ label: string; current: boolean; physical: Cell; logical: Cell; missRatio: string }>;
}

export interface ReportView {
  title: string;
  product: string;
  meta: string;
  statement: string;
  changes: string;
  runs: RunRow[];
  /** Some run has a read-ahead prediction (InnoDB). */
  predictsReadAhead: boolean;
  /**
   * The metrics a runs table shows: read-ahead only where the engine reports it; where it does not
   * (PostgreSQL), `noReadAhead` says once why.
   */
  shownMetrics: ReadonlyArray<{ key: Metric; label: string }>;
  noReadAhead?: string;
  /** Measured and predicted far apart (over 25 % of 20 pages or more), each with its likely cause. */
  gaps: string[];
  hitRatio: string;
  meaning: Array<{ label: string; text: string }>;
  residency: ResidencyRow[];
  assumptions: string[];
  unmodelled: string[];
  whatIf: WhatIfTable[];
  settings: Array<[string, string]>;
  warnings: string[];
}

function measuredCell(r: RunReport, m: Metric): Cell {
  const v = r.measured[m];
  return v === null ? notReported(r.notes?.[m]) : numberCell(v);
}

function predictedCell(r: RunReport, m: Metric): Cell {
  const v = r.predicted[m];
  const lo = r.predictedRange?.low[m];
  const hi = r.predictedRange?.high[m];
  // A guess is shown with its band: the draw shown, then the lowest and highest of all draws.
  if (v !== null && lo !== undefined && hi !== undefined && lo !== null && hi !== null && lo !== hi) {
    return { kind: 'number', value: v, text: `${formatCount(v)} (${formatCount(lo)}–${formatCount(hi)})`, range: [lo, hi] };
  }
  const left = r.prediction?.unmodelled ?? [];
  // Part of the run left out: what was modelled is a floor, and says so.
  // A 0 where part of the run is not modelled is no prediction: it says what was left out.
  if (v === 0 && left.length) return notModelled(left.join('; '));
  if (v !== null && left.length) return { kind: 'number', value: v, text: `≥ ${formatCount(v)}` };
  if (v !== null) return numberCell(v);
  if (r.measured[m] === null) return notReported(r.notes?.[m]);
  if (left.length) return notModelled(left.join('; '));
  return notModelled(r.prediction ? `the simulator gives no ${m} for this run` : 'no prediction was made for this run');
}

/**
 * Each run's assumptions once: one that holds for every run as it is, one that holds for some (a pace
 * measured per run) with the runs it is of, so that three near-copies say which run each is.
 */
function assumptionsByRun(report: Report): string[] {
  const runsOf = new Map<string, number[]>();
  for (const r of report.runs) for (const a of r.prediction?.assumptions ?? []) runsOf.set(a, [...(runsOf.get(a) ?? []), r.run]);
  return [...runsOf].map(([a, runs]) => (runs.length === report.runs.length ? a : `run${runs.length > 1 ? 's' : ''} ${runs.join(', ')}: ${a}`));
}

function residencyCell(x: Report['runs'][number]['residency'][number]): ResidencyCell {
  const before = x.cachedBefore === null ? notReported('residency was not read') : numberCell(x.cachedBefore);
  const after = x.cachedAfter === null ? notReported('residency was not read') : numberCell(x.cachedAfter);
  const range = x.predictedAfterRange;
  const predictedAfter =
    x.predictedAfter === null || x.predictedAfter === undefined
      ? undefined
      : range
        ? ({
            kind: 'number',
            value: x.predictedAfter,
            text: `${formatCount(x.predictedAfter)} (${formatCount(range[0])}–${formatCount(range[1])})`,
            range,
          } satisfies Cell)
        : numberCell(x.predictedAfter);
  return {
    before,
    after,
    ...(predictedAfter ? { predictedAfter } : {}),
    text: `${before.text} → ${after.text}${predictedAfter ? ` (predicted ${predictedAfter.text})` : ''}`,
  };
}

function bytesRead(r: RunReport, pageSize: number): string {
  const p = r.measured.physicalReads;
  if (p === null) return 'not reported';
  return formatBytes((p + (r.measured.readAhead ?? 0)) * pageSize);
}

/** How far apart is flagged, and from how many pages on. */
const GAP = 0.25;
const GAP_MIN_PAGES = 20;

function gapsOf(report: Report): string[] {
  const out: string[] = [];
  for (const r of report.runs) {
    for (const { key, label } of METRICS) {
      const m = r.measured[key];
      const p = r.predicted[key];
      if (m === null || p === null || m < GAP_MIN_PAGES || Math.abs(p - m) <= GAP * m) continue;
      const lo = r.predictedRange?.low[key];
      const hi = r.predictedRange?.high[key];
      const inBand = lo !== undefined && hi !== undefined && lo !== null && hi !== null && m >= lo * (1 - GAP) && m <= hi * (1 + GAP);
      const unmodelled = r.prediction?.unmodelled[0];
      const otherSession = report.warnings.find((w) => /other session|something else was reading|active session/i.test(w));
      const cause = unmodelled
        ? `left out of the model: ${unmodelled}`
        : inBand
          ? `the model had to guess (its draws gave ${formatCount(lo)}–${formatCount(hi)})`
          : otherSession
            ? `another session was active while it ran`
            : r.run === 1 && !r.cold && r.residency.every((x) => x.cachedBefore === null)
              ? 'what the pool held before run 1 was not read, so the model started from an empty pool'
              : "none of the model's stated assumptions explains it";
      const pct = Math.round((Math.abs(p - m) / m) * 100);
      out.push(
        `run ${r.run} ${label}: measured ${formatCount(m)}, predicted ${formatCount(p)} (${pct} % ${p < m ? 'below' : 'above'}); likely cause: ${cause}`,
      );
    }
  }
  return out;
}

function readAheadColumns(report: Report): Pick<ReportView, 'shownMetrics' | 'noReadAhead'> {
  if (report.runs.some((r) => r.measured.readAhead !== null)) return { shownMetrics: METRICS };
  const why = report.runs[0]?.notes?.readAhead;
  return {
    shownMetrics: METRICS.filter((m) => m.key !== 'readAhead'),
    noReadAhead: `No read-ahead column: ${why ?? `${PRODUCT_NAME[report.engine.product]} does not report read-ahead`}.`,
  };
}

/**
 * Where the view is read. In the editor a command-line flag means nothing: the hints in parentheses that
 * name one (" (--commit measures it)") are left out, as the editor's own messages leave them out.
 */
export type Audience = 'editor' | 'page';

/** A message without its parenthesised hints that name a command-line flag: what the editor shows. */
export const editorWording = (text: string): string => text.replace(/ \((?:[^()]*?\s)?--[a-z][^()]*\)/g, '');

export function reportView(report: Report, audience: Audience = 'page'): ReportView {
  const view = buildView(report);
  if (audience === 'page') return view;
  return {
    ...view,
    changes: editorWording(view.changes),
    warnings: view.warnings.map(editorWording),
    assumptions: view.assumptions.map(editorWording),
    unmodelled: view.unmodelled.map(editorWording),
  };
}

function buildView(report: Report): ReportView {
  const e = report.engine;
  const product = PRODUCT_NAME[e.product];
  const runs: RunRow[] = report.runs.map((r) => ({
    run: r.run,
    state: runState(r),
    measured: Object.fromEntries(METRICS.map(({ key }) => [key, measuredCell(r, key)])) as Record<Metric, Cell>,
    predicted: Object.fromEntries(METRICS.map(({ key }) => [key, predictedCell(r, key)])) as Record<Metric, Cell>,
    elapsedMs: r.elapsedMs,
    // Under 0.05 ms (below the server's resolution, or rounded) "0" would read as not measured.
    timeText: r.elapsedMs < 0.05 ? '< 0.1' : r.elapsedMs.toLocaleString('en-US', { maximumFractionDigits: 1 }),
    bytesRead: bytesRead(r, e.pageSize),
  }));
  const last = report.runs[report.runs.length - 1];
  // An empty relation nothing was cached of (a TOAST table no value was long enough for, and its index of
  // one metapage) is no row to read.
  const neverCached = (rel: Report['runs'][number]['residency'][number]) =>
    report.runs.every((r) => r.residency.every((y) => y.relation !== rel.relation || (!y.cachedBefore && !y.cachedAfter)));
  const empty = (rel: Report['runs'][number]['residency'][number]) =>
    neverCached(rel) && (rel.pages === 0 || (/^pg_toast\./.test(rel.relation) && rel.pages <= 1));
  const residency: ResidencyRow[] = (last?.residency ?? [])
    .filter((rel) => !empty(rel))
    .map((rel) => ({
      relation: rel.relation,
      kind: rel.kind,
      pages: rel.pages,
      pagesText: `${formatCount(rel.pages)} (${formatBytes(rel.pages * e.pageSize)})`,
      runs: report.runs.map((r) => {
        const x = r.residency.find((y) => y.relation === rel.relation);
        return x ? residencyCell(x) : undefined;
      }),
    }));
  const notes = report.runs[0]?.notes ?? {};
  return {
    title: 'Buffer I/O report',
    product,
    meta: `${product} ${e.version} · ${formatCount(e.pageSize)}-byte pages · ${report.target}`,
    statement: report.statement,
    changes: report.rolledBack
      ? report.dataChanging
        ? 'Every run was rolled back.'
        : 'Read-only statement; every run was rolled back.'
      : 'Changes were committed (--commit).',
    runs,
    predictsReadAhead: report.runs.some((r) => r.predicted.readAhead !== null),
    ...readAheadColumns(report),
    gaps: gapsOf(report),
    hitRatio: report.runs[0] ? hitRatioNote(report.runs[0], report).text : '',
    meaning: METRICS.filter(({ key }) => notes[key]).map(({ key, label }) => ({ label, text: notes[key]! })),
    residency,
    assumptions: [
      ...new Set([
        ...assumptionsByRun(report),
        ...report.runs
          .filter((r) => r.predictedRange || r.residency.some((x) => x.predictedAfterRange))
          .slice(0, 1)
          .map(
            (r) =>
              'a prediction with a range in brackets depends on what the model has to guess (where a range starts, the order of lookups, ' +
              'which leaves are full, which blocks each parallel process took): ' +
              `it is the first of ${r.predictedRange ? `${r.predictedRange.draws} draws` : 'its draws'}, the range their lowest and highest`,
          ),
      ]),
    ],
    unmodelled: [...new Set(report.runs.flatMap((r) => r.prediction?.unmodelled ?? []))],
    whatIf: (report.whatIf?.series ?? []).map((series) => ({
      title: `${series.setting} (all ${report.whatIf!.runs} runs, predicted)`,
      series,
      rows: series.points.map((p) => ({
        label: `${p.label}${p.current ? ' (now)' : ''}`,
        current: p.current,
        physical: numberCell(p.physicalReads),
        logical: numberCell(p.logicalReads),
        missRatio: `${(p.missRatio * 100).toFixed(1)} %`,
      })),
    })),
    settings: Object.entries(e.settings)
      .filter(([, v]) => v !== null)
      .map(([k, v]) => [k, String(v)]),
    warnings: report.warnings,
  };
}
