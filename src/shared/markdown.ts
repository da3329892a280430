// A report as Markdown, for export: a layout of the report view-model. Pure.
import type { Report } from './report';
import { reportView } from './report-view';

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function reportMarkdown(report: Report): string {
  const view = reportView(report);
  const lines = [
    `# ${view.title}`,
    '',
    `${report.engine.product} ${report.engine.version} · ${report.engine.pageSize}-byte pages · ${report.target} · ${report.createdAt}`,
    '',
    '```sql',
    report.statement,
    '```',
    '',
    `| run | state | ${view.shownMetrics.map((m) => `${m.label} | predicted`).join(' | ')} | time ms |`,
    `|---|---|${view.shownMetrics.map(() => '---:|---:|').join('')}---:|`,
    ...view.runs.map(
      (r) =>
        `| ${r.run} | ${r.state} | ` +
        `${view.shownMetrics.map((m) => `${r.measured[m.key].text} | ${r.predicted[m.key].text}`).join(' | ')} | ${r.elapsedMs.toFixed(1)} |`,
    ),
    ...(view.noReadAhead ? ['', view.noReadAhead] : []),
    ...(view.gaps.length ? ['', ...view.gaps.map((g) => `- ${g}`)] : []),
    '',
    view.hitRatio,
  ];
  if (view.residency.length) {
    lines.push(
      '',
      '## Pages in the buffer pool (before → after, predicted after)',
      '',
      `| relation | pages | ${view.runs.map((r) => `run ${r.run}`).join(' | ')} |`,
      `|---|---:|${view.runs.map(() => '---|').join('')}`,
    );
    for (const rel of view.residency) {
      lines.push(`| ${cell(rel.relation)} | ${rel.pages.toLocaleString('en-US')} | ${rel.runs.map((c) => (c ? cell(c.text) : '')).join(' | ')} |`);
    }
  }
  const notes = report.runs[0]?.notes;
  if (notes) lines.push('', '## What the numbers mean', '', ...Object.entries(notes).map(([k, v]) => `- **${k}**: ${v}`));
  // What the prediction assumed says, among the rest, what a range in brackets is.
  if (view.assumptions.length) lines.push('', '## What the prediction assumed', '', ...view.assumptions.map((a) => `- ${a}`));
  if (view.unmodelled.length) lines.push('', '## Not modelled (left out of the prediction)', '', ...view.unmodelled.map((u) => `- ${u}`));
  if (view.warnings.length) lines.push('', '## Warnings', '', ...view.warnings.map((w) => `- ${w}`));
  return lines.join('\n') + '\n';
}
