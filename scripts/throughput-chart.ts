// The throughput checks' chart: transactions per second by pool size, predicted (with the band) and measured,
// for workload run's client and a benchmark tool's.

export interface ChartRow {
  mb: number;
  predicted: [number, number, number];
  measured: number;
  toolPredicted: number;
  tool: number;
}

/** Transactions per second by pool size: the predictions as lines (the band shaded), the runs as points. */
export function throughputChart(title: string, rows: ChartRow[], other = 'sysbench'): string {
  const [W, H, L, R, B] = [600, 320, 60, 150, 40];
  const lo = Math.log2(rows[0].mb);
  const hi = Math.log2(rows[rows.length - 1].mb);
  const top = Math.max(...rows.flatMap((r) => [r.predicted[2], r.measured, r.tool, r.toolPredicted])) * 1.1;
  const x = (mb: number) => L + ((Math.log2(mb) - lo) / (hi - lo || 1)) * (W - L - R);
  const y = (v: number) => 24 + (1 - v / top) * (H - 24 - B);
  const path = (f: (r: ChartRow) => number) => rows.map((r, i) => `${i ? 'L' : 'M'}${x(r.mb).toFixed(1)},${y(f(r)).toFixed(1)}`).join(' ');
  const band = `${rows.map((r, i) => `${i ? 'L' : 'M'}${x(r.mb).toFixed(1)},${y(r.predicted[2]).toFixed(1)}`).join(' ')} ${[...rows]
    .reverse()
    .map((r) => `L${x(r.mb).toFixed(1)},${y(r.predicted[0]).toFixed(1)}`)
    .join(' ')} Z`;
  const dots = (f: (r: ChartRow) => number, color: string, what: string) =>
    rows
      .map(
        (r) =>
          `<circle cx="${x(r.mb).toFixed(1)}" cy="${y(f(r)).toFixed(1)}" r="5" fill="none" stroke="${color}" stroke-width="2"><title>${what} ${r.mb} MB: ${f(r).toFixed(0)}</title></circle>`,
      )
      .join('\n');
  const yTicks = Array.from({ length: 5 }, (_, i) => (top * i) / 4).map(
    (v) =>
      `<text x="${L - 6}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end">${v.toFixed(0)}</text><line x1="${L}" x2="${W - R}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}" stroke="#ddd"/>`,
  );
  const xTicks = rows.map((r) => `<text x="${x(r.mb).toFixed(1)}" y="${H - B + 16}" text-anchor="middle">${r.mb} MB</text>`);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif" font-size="11">
<rect width="100%" height="100%" fill="#fff"/>
<text x="${L}" y="14" font-size="12" font-weight="bold">${title}</text>
${yTicks.join('\n')}
${xTicks.join('\n')}
<path d="${band}" fill="#2c6fbb" fill-opacity="0.15" stroke="none"/>
<path d="${path((r) => r.predicted[1])}" fill="none" stroke="#2c6fbb" stroke-width="2"/>
${dots((r) => r.measured, '#2c6fbb', 'workload run measured')}
<path d="${path((r) => r.toolPredicted)}" fill="none" stroke="#c0392b" stroke-width="2" stroke-dasharray="6 4"/>
${dots((r) => r.tool, '#c0392b', `${other} measured`)}
<text x="${W - R + 10}" y="60" fill="#2c6fbb">── predicted, workload run</text>
<text x="${W - R + 10}" y="76" fill="#2c6fbb">○ workload run measured</text>
<text x="${W - R + 10}" y="100" fill="#c0392b">- - predicted, ${other}</text>
<text x="${W - R + 10}" y="116" fill="#c0392b">○ ${other} measured</text>
<text x="${L}" y="${H - 6}">transactions per second by pool size</text>
</svg>
`;
}
