// Two reports side by side, as numbers that explain each other: per run the measured and predicted
// pages with their change in pages and percent, what was cached before run 1 (which explains most
// differences), the settings that differ, and the plans' nodes paired by their place in the tree. Pure.
import type { Reads, Report } from './report';
import { formatCount } from './format';
import { planView, type PlanRow } from './plan-view';

const METRICS: Array<[keyof Reads, string]> = [
  ['logicalReads', 'logical'],
  ['physicalReads', 'physical'],
  ['readAhead', 'read-ahead'],
];

/** "1,200 → 900 (−300, −25 %)", "3 → 4,113 (+4,110, 1,371×)"; a side without a number says so. */
export function change(a: number | null | undefined, b: number | null | undefined): string {
  const side = (x: number | null | undefined) => (x === null || x === undefined ? 'n/a' : formatCount(x));
  if (a === null || a === undefined || b === null || b === undefined) return `${side(a)} → ${side(b)}`;
  const d = b - a;
  const rel = a === 0 ? 0 : Math.abs(d / a);
  // Past ten times the first, a percentage ("+137,000 %") says less than the factor.
  const pct =
    d === 0 ? '0 %' : a === 0 ? 'new' : b / a >= 10 ? `${formatCount(Math.round(b / a))}×` : `${d > 0 ? '+' : '−'}${(rel * 100).toFixed(rel < 0.1 ? 1 : 0)} %`;
  return `${side(a)} → ${side(b)} (${d > 0 ? '+' : d < 0 ? '−' : '±'}${formatCount(Math.abs(d))}, ${pct})`;
}

export interface CompareView {
  runs: string[][];
  cachedBefore: string[][];
  settings: string[][];
  plan: string[][];
}

function planRows(r: Report): Array<{ path: string; row: PlanRow }> {
  const v = planView(r);
  if (!v) return [];
  const out: Array<{ path: string; row: PlanRow }> = [];
  const walk = (row: PlanRow, path: string) => {
    out.push({ path, row });
    row.children.forEach((c, k) => walk(c, `${path}.${k}`));
  };
  walk(v.root, '0');
  return out;
}

export function compareView(left: Report, right: Report): CompareView {
  const runs: string[][] = [];
  const reports = [left, right];
  const shown = METRICS.filter(([k]) => reports.some((r) => r.runs.some((x) => x.measured[k] !== null)));
  for (let k = 0; k < Math.max(left.runs.length, right.runs.length); k++) {
    const [a, b] = [left.runs[k], right.runs[k]];
    for (const [key, name] of shown)
      runs.push([`run ${k + 1} ${name}`, change(a?.measured[key], b?.measured[key]), change(a?.predicted[key], b?.predicted[key])]);
  }
  const relations = [...new Set(reports.flatMap((r) => r.runs[0]?.residency.map((x) => x.relation) ?? []))];
  const cachedBefore = relations.map((rel) => {
    const [a, b] = reports.map((r) => r.runs[0]?.residency.find((x) => x.relation === rel));
    return [rel, change(a?.cachedBefore, b?.cachedBefore), change(a?.pages, b?.pages)];
  });
  const keys = [...new Set(reports.flatMap((r) => Object.keys(r.engine.settings)))].sort();
  const settings = [
    ...(left.engine.version !== right.engine.version ? [['server version', left.engine.version, right.engine.version]] : []),
    ...keys
      .filter((k) => String(left.engine.settings[k] ?? '') !== String(right.engine.settings[k] ?? ''))
      .map((k) => [k, String(left.engine.settings[k] ?? 'unset'), String(right.engine.settings[k] ?? 'unset')]),
  ];
  const [pa, pb] = [planRows(left), planRows(right)];
  const paths = [...new Set([...pa, ...pb].map((x) => x.path))].sort((x, y) => x.localeCompare(y, 'en', { numeric: true }));
  const plan = paths.map((p) => {
    const [a, b] = [pa.find((x) => x.path === p)?.row, pb.find((x) => x.path === p)?.row];
    const depth = p.split('.').length - 1;
    const label = a && b && a.label !== b.label ? `${a.label} → ${b.label}` : (a ?? b)!.label;
    return [
      `${'  '.repeat(depth)}${label}${!a ? ' (only after)' : !b ? ' (only before)' : ''}`,
      change(a?.selfPages, b?.selfPages),
      change(a?.selfRead, b?.selfRead),
    ];
  });
  return { runs, cachedBefore, settings, plan };
}
