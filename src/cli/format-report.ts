// The readable form of a report for terminals: a layout of the report view-model. Numbers the engine
// cannot tell print as "n/r" (not reported), numbers the simulator does not model as "n/m", with a legend.
import type { Report } from '../shared/report';
import { METRICS, reportView, shortText, type Cell, type RunRow } from '../shared/report-view';

function table(rows: string[][], rightAligned: Set<number>): string {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  return rows
    .map((r) =>
      r
        .map((cell, c) => (rightAligned.has(c) ? cell.padStart(widths[c]) : cell.padEnd(widths[c])))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

export function formatReport(report: Report): string {
  const view = reportView(report);
  const e = report.engine;
  const out: string[] = [];
  const innodbPool = Number(e.settings.innodb_buffer_pool_size);
  const pool = e.settings.shared_buffers ?? (innodbPool ? `${(innodbPool / 1048576).toLocaleString('en-US')} MiB` : undefined);
  out.push(`${view.product} ${e.version} · ${e.pageSize}-byte pages${pool !== undefined ? ` · pool ${pool}` : ''} · ${report.target}`);
  out.push(`Statement: ${report.statement.replace(/\s+/g, ' ').slice(0, 200)}`);
  out.push(report.rolledBack ? (report.dataChanging ? 'Every run was rolled back.' : '') : 'Changes were committed (--commit).');
  out.push('');
  const shown = view.predictsReadAhead ? METRICS : METRICS.filter((m) => m.key !== 'readAhead');
  const predicted = (r: RunRow) => {
    const cells = shown.map((m) => r.predicted[m.key]);
    return cells.every((c) => c.kind !== 'number') ? shortText(cells[0]) : cells.map(shortText).join(' / ');
  };
  const rows = [
    ['run', 'state', 'logical', 'physical', 'read-ahead', 'time ms', view.predictsReadAhead ? 'predicted log / phys / ra' : 'predicted log / phys'],
  ];
  for (const r of view.runs) {
    rows.push([String(r.run), r.state, ...METRICS.map((m) => shortText(r.measured[m.key])), r.elapsedMs.toFixed(1), predicted(r)]);
  }
  out.push(table(rows, new Set([0, 2, 3, 4, 5])));
  const cells = view.runs.flatMap((r) => [...Object.values(r.measured), ...Object.values(r.predicted)]);
  const legend = [
    cells.some((c) => c.kind === 'not-reported') ? 'n/r = not reported by the engine' : '',
    cells.some((c) => c.kind === 'not-modelled') ? 'n/m = not modelled by the simulator' : '',
  ].filter(Boolean);
  if (legend.length) out.push(`(${legend.join('; ')})`);
  const warm = view.runs.slice(1);
  if (warm.length >= 2) out.push('', `Warm runs ${warmSummary(warm)}`);
  // Empty relations never cached (a table's unused TOAST, say) stay in the JSON but not in the table.
  const rels = view.residency.filter((rel) => rel.pages > 0 || rel.runs.some((c) => (c?.after.value ?? 0) > 0));
  if (rels.length) {
    out.push('', 'Pages cached in the buffer pool, before → after each run:');
    const rrows = [['relation', 'kind', 'pages', ...view.runs.map((r) => `run ${r.run}`)]];
    for (const rel of rels) {
      rrows.push([
        rel.relation,
        rel.kind,
        rel.pages.toLocaleString('en-US'),
        ...rel.runs.map((c) => (c ? `${shortText(c.before)} → ${shortText(c.after)}${c.predictedAfter ? ` (pred. ${shortText(c.predictedAfter)})` : ''}` : '')),
      ]);
    }
    out.push(table(rrows, new Set([2])));
  }
  if (view.meaning.length) {
    out.push('', 'What the numbers mean here:');
    for (const m of view.meaning) out.push(`  ${`${m.label}:`.padEnd(11)} ${m.text}`);
  }
  if (view.assumptions.length) out.push('', 'The prediction assumed:', ...view.assumptions.map((a) => `  - ${a}`));
  if (view.unmodelled.length) out.push('', 'Not modelled (left out of the prediction):', ...view.unmodelled.map((a) => `  - ${a}`));
  for (const w of view.whatIf) {
    out.push('', `What if ${w.series.setting} were … (all ${report.whatIf?.runs} runs, predicted):`);
    out.push(
      table(
        [[w.series.setting, 'physical', 'logical', 'miss ratio'], ...w.rows.map((p) => [p.label, shortText(p.physical), shortText(p.logical), p.missRatio])],
        new Set([1, 2, 3]),
      ),
    );
  }
  if (view.warnings.length) {
    out.push('', 'Warnings:');
    for (const w of view.warnings) out.push(`  - ${w}`);
  }
  return (
    out
      .filter((l, i, a) => !(l === '' && a[i - 1] === ''))
      .join('\n')
      .trimStart() + '\n'
  );
}

function warmSummary(runs: RunRow[]): string {
  const stat = (pick: (r: RunRow) => Cell) => {
    const v = runs
      .map((r) => pick(r).value)
      .filter((x): x is number => x !== null)
      .sort((a, b) => a - b);
    if (!v.length) return 'n/r';
    const median = v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    return `min ${v[0].toLocaleString('en-US')} / median ${median.toLocaleString('en-US')}`;
  };
  const fastest = Math.min(...runs.map((r) => r.elapsedMs)).toFixed(1);
  return `(${runs.length}): logical ${stat((r) => r.measured.logicalReads)}; physical ${stat((r) => r.measured.physicalReads)}; time ms min ${fastest}`;
}
