// A report as Markdown, for export. Pure.
import type { Report } from './report';
import { formatCount, hitRatioNote } from './format';

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function reportMarkdown(report: Report): string {
  const e = report.engine;
  const lines = [
    `# Buffer I/O report`,
    '',
    `${e.product} ${e.version} · ${e.pageSize}-byte pages · ${report.target} · ${report.createdAt}`,
    '',
    '```sql',
    report.statement,
    '```',
    '',
    '| run | state | logical | predicted | physical | predicted | read-ahead | predicted | time ms |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|',
    ...report.runs.map((r) =>
      `| ${r.run} | ${r.cold ? 'cold' : r.run === 1 ? 'as found' : 'warm'} | ${formatCount(r.measured.logicalReads)} | ${formatCount(r.predicted.logicalReads)} | ${formatCount(r.measured.physicalReads)} | ${formatCount(r.predicted.physicalReads)} | ${formatCount(r.measured.readAhead)} | ${formatCount(r.predicted.readAhead)} | ${r.elapsedMs.toFixed(1)} |`,
    ),
    '',
    hitRatioNote(report.runs[0], report).text,
  ];
  const rels = report.runs[0]?.residency ?? [];
  if (rels.length) {
    lines.push('', '## Pages in the buffer pool (before → after)', '', `| relation | pages | ${report.runs.map((r) => `run ${r.run}`).join(' | ')} |`, `|---|---:|${report.runs.map(() => '---|').join('')}`);
    for (const rel of rels) {
      lines.push(
        `| ${cell(rel.relation)} | ${formatCount(rel.pages)} | ${report.runs
          .map((r) => {
            const x = r.residency.find((y) => y.relation === rel.relation);
            return x ? `${formatCount(x.cachedBefore)} → ${formatCount(x.cachedAfter)}` : '';
          })
          .join(' | ')} |`,
      );
    }
  }
  const notes = report.runs[0]?.notes;
  if (notes) lines.push('', '## What the numbers mean', '', ...Object.entries(notes).map(([k, v]) => `- **${k}**: ${v}`));
  if (report.warnings.length) lines.push('', '## Warnings', '', ...report.warnings.map((w) => `- ${w}`));
  return lines.join('\n') + '\n';
}
