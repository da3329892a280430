// The readable form of a report for terminals. Numbers the engine cannot tell print as "n/r" (not reported),
// and the note under the table says why.
import type { Reads, Report } from '../shared/report';

const fmt = (n: number | null | undefined): string => (n === null || n === undefined ? 'n/r' : n.toLocaleString('en-US'));

function table(rows: string[][], rightAligned: Set<number>): string {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  return rows.map((r) => r.map((cell, c) => (rightAligned.has(c) ? cell.padStart(widths[c]) : cell.padEnd(widths[c]))).join('  ').trimEnd()).join('\n');
}

const PRODUCT: Record<Report['engine']['product'], string> = { postgresql: 'PostgreSQL', mysql: 'MySQL', mariadb: 'MariaDB' };

export function formatReport(report: Report): string {
  const e = report.engine;
  const out: string[] = [];
  const innodbPool = Number(e.settings.innodb_buffer_pool_size);
  const pool = e.settings.shared_buffers ?? (innodbPool ? `${(innodbPool / 1048576).toLocaleString('en-US')} MiB` : undefined);
  out.push(`${PRODUCT[e.product]} ${e.version} · ${e.pageSize}-byte pages${pool !== undefined ? ` · pool ${pool}` : ''} · ${report.target}`);
  out.push(`Statement: ${report.statement.replace(/\s+/g, ' ').slice(0, 200)}`);
  out.push(report.rolledBack ? (report.dataChanging ? 'Every run was rolled back.' : '') : 'Changes were committed (--commit).');
  out.push('');
  const anyReadAhead = report.runs.some((r) => r.predicted.readAhead !== null);
  const predicted = (p: Reads) =>
    p.physicalReads === null && p.logicalReads === null ? 'n/r' : `${fmt(p.logicalReads)} / ${fmt(p.physicalReads)}${anyReadAhead ? ` / ${fmt(p.readAhead)}` : ''}`;
  const rows = [['run', 'state', 'logical', 'physical', 'read-ahead', 'time ms', anyReadAhead ? 'predicted log / phys / ra' : 'predicted log / phys']];
  for (const r of report.runs) {
    rows.push([
      String(r.run),
      r.cold ? 'cold' : r.run === 1 ? 'as found' : 'warm',
      fmt(r.measured.logicalReads),
      fmt(r.measured.physicalReads),
      fmt(r.measured.readAhead),
      r.elapsedMs.toFixed(1),
      predicted(r.predicted),
    ]);
  }
  out.push(table(rows, new Set([0, 2, 3, 4, 5])));
  const warm = report.runs.slice(1);
  if (warm.length >= 2) out.push('', `Warm runs ${warmSummary(warm)}`);
  // Empty relations never cached (a table's unused TOAST, say) stay in the JSON but not in the table.
  const rels = (report.runs[0]?.residency ?? []).filter((r) => r.pages > 0 || report.runs.some((run) => run.residency.some((x) => x.relation === r.relation && (x.cachedAfter ?? 0) > 0)));
  if (rels.length) {
    out.push('', 'Pages cached in the buffer pool, before → after each run:');
    const rrows = [['relation', 'kind', 'pages', ...report.runs.map((r) => `run ${r.run}`)]];
    for (const rel of rels) {
      rrows.push([
        rel.relation,
        rel.kind,
        fmt(rel.pages),
        ...report.runs.map((r) => {
          const x = r.residency.find((y) => y.relation === rel.relation);
          if (!x) return '';
          const p = x.predictedAfter === null || x.predictedAfter === undefined ? '' : ` (pred. ${fmt(x.predictedAfter)})`;
          return `${fmt(x.cachedBefore)} → ${fmt(x.cachedAfter)}${p}`;
        }),
      ]);
    }
    out.push(table(rrows, new Set([2])));
  }
  const notes = report.runs[0]?.notes;
  if (notes) {
    out.push('', 'What the numbers mean here:');
    if (notes.logicalReads) out.push(`  logical:    ${notes.logicalReads}`);
    if (notes.physicalReads) out.push(`  physical:   ${notes.physicalReads}`);
    if (notes.readAhead) out.push(`  read-ahead: ${notes.readAhead}`);
  }
  const prediction = report.runs[0]?.prediction;
  if (prediction) {
    const assumptions = [...new Set(report.runs.flatMap((r) => r.prediction?.assumptions ?? []))];
    const unmodelled = [...new Set(report.runs.flatMap((r) => r.prediction?.unmodelled ?? []))];
    if (assumptions.length) out.push('', 'The prediction assumed:', ...assumptions.map((a) => `  - ${a}`));
    if (unmodelled.length) out.push('', 'Not modelled (left out of the prediction):', ...unmodelled.map((a) => `  - ${a}`));
  }
  for (const series of report.whatIf?.series ?? []) {
    out.push('', `What if ${series.setting} were … (all ${report.whatIf?.runs} runs, predicted):`);
    out.push(
      table(
        [
          [series.setting, 'physical', 'logical', 'miss ratio'],
          ...series.points.map((p) => [`${p.label}${p.current ? ' (now)' : ''}`, fmt(p.physicalReads), fmt(p.logicalReads), `${(p.missRatio * 100).toFixed(1)} %`]),
        ],
        new Set([1, 2, 3]),
      ),
    );
  }
  if (report.warnings.length) {
    out.push('', 'Warnings:');
    for (const w of report.warnings) out.push(`  - ${w}`);
  }
  return out.filter((l, i, a) => !(l === '' && a[i - 1] === '')).join('\n').trimStart() + '\n';
}

function warmSummary(runs: Report['runs']): string {
  const stat = (pick: (r: Report['runs'][number]) => number | null) => {
    const v = runs.map(pick).filter((x): x is number => x !== null).sort((a, b) => a - b);
    if (!v.length) return 'n/r';
    const median = v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    return `min ${fmt(v[0])} / median ${fmt(median)}`;
  };
  return `(${runs.length}): logical ${stat((r) => r.measured.logicalReads)}; physical ${stat((r) => r.measured.physicalReads)}; time ms min ${Math.min(...runs.map((r) => r.elapsedMs)).toFixed(1)}`;
}
