// Formatting and explanations shared by the report view, the Markdown export and the CLI. Pure.
import type { Report, RunReport } from './report';

export function formatCount(n: number | null | undefined): string {
  return n === null || n === undefined ? 'not reported' : n.toLocaleString('en-US');
}

export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = bytes;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v.toLocaleString('en-US', { maximumFractionDigits: u === 0 ? 0 : 1 })} ${units[u]}`;
}

export function pagesAsBytes(pages: number | null | undefined, pageSize: number): string {
  return pages === null || pages === undefined ? '' : formatBytes(pages * pageSize);
}

/** The hit ratio of a run, and when it misleads, why (seed 001: 98.7 % that hides 54 MB read ahead). */
export function hitRatioNote(run: RunReport, report: Report): { ratio: number | null; text: string } {
  const { logicalReads: l, physicalReads: p, readAhead: ra } = run.measured;
  if (l === null || p === null || l === 0) return { ratio: null, text: 'No hit ratio: the engine did not report the page requests.' };
  const ratio = 1 - p / l;
  const pct = `${(ratio * 100).toFixed(1)} %`;
  const parts = [`Hit ratio 1 − ${formatCount(p)} / ${formatCount(l)} = ${pct}.`];
  if (ra !== null && ra > 0) {
    parts.push(
      `It hides ${formatCount(ra)} pages (${formatBytes(ra * report.engine.pageSize)}) read ahead: ` +
        `the run read ${formatCount(p + ra)} pages in all, not ${formatCount(p)}.`,
    );
  }
  if (report.engine.product === 'postgresql' && p > 0) {
    parts.push('On PostgreSQL a "read" may have come from the operating system\'s page cache, not the disk: the read time tells them apart.');
  }
  return { ratio, text: parts.join(' ') };
}

/** One line for a CodeLens or a history entry: "7,463 logical · 96 physical · 3,449 read-ahead · predicted 96 / 3,449". */
/**
 * Run 1 in a sentence a newcomer reads without the report (the lens, the history): what was requested, what
 * came from disk, and what the simulator predicted for the same, "not modelled" where it has no number.
 */
export function runSummary(report: Report): string {
  const r = report.runs[0];
  const m = r.measured;
  const p = r.predicted;
  const state = r.cold ? 'cold' : 'as found';
  const disk =
    m.physicalReads === null
      ? 'disk reads not reported'
      : `${formatCount(m.physicalReads)} read from disk${m.readAhead !== null ? `, ${formatCount(m.readAhead)} read ahead` : ''}`;
  const predicted =
    p.physicalReads === null
      ? 'prediction not modelled'
      : `predicted ${formatCount(p.physicalReads)}${m.readAhead !== null && p.readAhead !== null ? ` and ${formatCount(p.readAhead)} ahead` : ''}`;
  return `run 1 (${state}): ${formatCount(m.logicalReads)} pages requested (logical) · ${disk} · ${predicted}`;
}

/**
 * Run 1 in a line short enough for a lens beside a half-width editor: what it requested and read, and the
 * prediction; runSummary says the same in words, for the lens's tooltip.
 */
export function lensSummary(report: Report): string {
  const r = report.runs[0];
  const m = r.measured;
  const p = r.predicted;
  const state = r.cold ? 'cold' : 'as found';
  const read =
    m.physicalReads === null ? 'reads not reported' : `${formatCount(m.physicalReads)} read${m.readAhead ? ` + ${formatCount(m.readAhead)} ahead` : ''}`;
  const predicted = p.physicalReads === null ? 'not modelled' : `predicted ${formatCount(p.physicalReads + (m.readAhead !== null ? (p.readAhead ?? 0) : 0))}`;
  return `${state}: ${formatCount(m.logicalReads)} pages, ${read} · ${predicted}`;
}
