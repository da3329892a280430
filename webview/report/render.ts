// Renders a report (or two, compared) into the page. Data arrives by message; nothing here parses HTML.
import type { RelationResidency, Report } from '../../src/shared/report';
import { formatCount } from '../../src/shared/format';
import { reportView, type Cell, type ReportView } from '../../src/shared/report-view';
import { planView, type PlanRow } from '../../src/shared/plan-view';
import { compareView } from '../../src/shared/compare-view';
import { contents, el, section, table } from './dom';
import { runsChart, whatIfChart } from './charts';

/** A number, or "not reported" / "not modelled" with its reason as a tooltip. */
function cellNode(c: Cell): string | HTMLElement {
  if (c.kind === 'number') return c.text;
  return el('span', { class: c.kind, ...(c.reason ? { title: c.reason } : {}) }, c.text);
}

function header(report: Report, view: ReportView, onExport?: (format: 'json' | 'markdown' | 'html') => void, onRerun?: () => void): HTMLElement {
  const h = el('header', {}, el('h1', {}, view.title), el('p', { class: 'meta' }, `${view.meta} · ${new Date(report.createdAt).toLocaleString()}`));
  h.append(el('pre', { class: 'statement', 'aria-label': 'statement' }, view.statement));
  h.append(el('p', { class: 'meta' }, view.changes));
  if (onExport || onRerun) {
    const bar = el('div', { class: 'toolbar', role: 'toolbar', 'aria-label': 'report actions' });
    if (onRerun) {
      const b = el('vscode-button' as 'button', {});
      b.textContent = 'Re-run';
      b.addEventListener('click', onRerun);
      bar.append(b);
    }
    for (const f of ['json', 'markdown', 'html'] as const) {
      if (!onExport) break;
      const b = el('vscode-button' as 'button', { secondary: '' });
      b.textContent = `Export ${f === 'json' ? 'JSON' : f === 'markdown' ? 'Markdown' : 'HTML'}`;
      b.addEventListener('click', () => onExport(f));
      bar.append(b);
    }
    h.append(bar);
  }
  return h;
}

function runsSection(report: Report, view: ReportView): HTMLElement {
  const shown = view.shownMetrics;
  const rows = view.runs.map((r) => [
    `run ${r.run}`,
    r.state,
    ...shown.flatMap((m) => [cellNode(r.measured[m.key]), cellNode(r.predicted[m.key])]),
    r.timeText,
  ]);
  const t = table(['run', 'state', ...shown.flatMap((m) => [m.label, 'predicted']), 'time ms'], rows, 'Pages per run, measured and predicted', 2);
  t.id = 'runs-table';
  const canvas = el('canvas', { role: 'img', 'aria-label': 'grouped bar chart of measured and predicted pages per run' });
  const wrap = el('div', { class: 'chart' }, canvas);
  queueMicrotask(() => runsChart(canvas, report));
  const meaning = el('dl', { class: 'meaning' });
  for (const m of view.meaning) meaning.append(el('dt', {}, m.label), el('dd', {}, m.text));
  const bytes = view.runs.map((r) => `run ${r.run}: ${r.bytesRead} read`).join(' · ');
  const noReadAhead: HTMLElement[] = view.noReadAhead ? [el('p', { class: 'note' }, view.noReadAhead)] : [];
  // Beside the numbers: where measured and predicted are far apart, and why that is likely.
  if (view.gaps.length)
    noReadAhead.push(
      el('ul', { class: 'gaps', 'aria-label': 'large gaps between measured and predicted' }, ...view.gaps.map((g) => el('li', { role: 'note' }, g))),
    );
  return section(
    'Runs',
    'runs-h',
    t,
    ...noReadAhead,
    el('p', { class: 'note' }, bytes),
    wrap,
    el('p', { class: 'hit-ratio', role: 'note' }, view.hitRatio),
    meaning,
  );
}

function blockMap(rel: RelationResidency): HTMLElement {
  const cells = Math.min(200, Math.max(1, rel.pages));
  const per = Math.max(1, rel.pages / cells);
  // Each range adds its overlap with each cell it spans: the work follows the drawing, not the block count.
  const counts = new Array<number>(cells).fill(0);
  for (const [s, e] of rel.blocksAfter ?? []) {
    if (!(e >= s) || s < 0) continue;
    const first = Math.min(cells - 1, Math.floor(s / per));
    const last = Math.min(cells - 1, Math.floor(e / per));
    for (let c = first; c <= last; c++) {
      // Cell c holds the blocks b with floor(b / per) = c: from ceil(c·per) to ceil((c+1)·per) − 1.
      const lo = Math.max(s, Math.ceil(c * per));
      const hi = c === cells - 1 ? e : Math.min(e, Math.ceil((c + 1) * per) - 1);
      counts[c] += Math.max(0, hi - lo + 1);
    }
  }
  const map = el('div', {
    class: 'blockmap',
    role: 'img',
    'aria-label': `${rel.relation}: ${formatCount(rel.cachedAfter)} of ${formatCount(rel.pages)} pages cached after the run`,
  });
  counts.forEach((c, k) => {
    // Which blocks the square stands for and how many of them were cached: the tooltip says it in words.
    const from = Math.ceil(k * per);
    const to = k === cells - 1 ? rel.pages - 1 : Math.ceil((k + 1) * per) - 1;
    const title = `blocks ${formatCount(from)}–${formatCount(to)}: ${formatCount(c)} of ${formatCount(to - from + 1)} cached`;
    map.append(el('span', { class: `cell level-${Math.min(4, Math.ceil((c / per) * 4))}`, title }));
  });
  const perText = per === 1 ? 'one block' : `about ${formatCount(Math.round(per))} blocks`;
  const legend = el(
    'p',
    { class: 'blockmap-legend' },
    `Each square is ${perText}, block 0 at the top left to block ${formatCount(Math.max(0, rel.pages - 1))}, row by row; the darker, the more of its ` +
    `blocks were cached: `,
    ...[0, 1, 2, 3, 4].flatMap((l) => [
      el('span', { class: `cell level-${l}`, 'aria-hidden': 'true' }),
      ` ${['none', 'up to ¼', 'up to ½', 'up to ¾', 'all'][l]} `,
    ]),
  );
  return el('div', {}, map, legend);
}

function residencySection(report: Report, view: ReportView): HTMLElement | undefined {
  const last = report.runs[report.runs.length - 1];
  if (!view.residency.length) return undefined;
  const rows = view.residency.map((rel) => [rel.relation, rel.kind, rel.pagesText, ...rel.runs.map((c) => c?.text ?? '')]);
  const maps = last.residency
    .filter((r) => r.pages > 0 && r.blocksAfter)
    .map((r) => el('figure', {}, el('figcaption', {}, `${r.relation} after run ${last.run}`), blockMap(r)));
  return section(
    'Pages in the buffer pool',
    'res-h',
    table(['relation', 'kind', 'pages', ...view.runs.map((r) => `run ${r.run}`)], rows, 'cached before → after each run', 2),
    ...maps,
  );
}

/** One node: a <details> whose summary is focusable and opens or closes with Enter or Space. */
function planNode(r: PlanRow): HTMLElement {
  const pct = Math.round(r.share * 100);
  const pages = r.notReported
    ? 'pages not reported: the engine gave no counts for this table'
    : r.group
      ? `total ${formatCount(r.totalPages)} pages (${formatCount(r.totalRead)} read) in its tables`
      : `self ${formatCount(r.selfPages)} pages (${formatCount(r.selfRead)} read) · total ${formatCount(r.totalPages)} (${formatCount(r.totalRead)} read)`;
  const summary = el(
    'summary',
    { class: r.heavy ? 'heavy' : '' },
    el('span', { class: 'node' }, r.label),
    ' ',
    ...(r.heavy ? [el('span', { class: 'badge' }, `heaviest: ${pct} % of the pages`), ' '] : []),
    el('span', { class: 'stats' }, pages),
    ...(r.predicted
      ? [' ', el('span', { class: 'predicted' }, `· predicted for this table ${formatCount(r.predicted.pages)} pages (${formatCount(r.predicted.read)} read)`)]
      : []),
    ...(r.temp ? [' ', el('span', { class: 'temp' }, `temporary files: ${formatCount(r.temp.read)} blocks read, ${formatCount(r.temp.written)} written`)] : []),
    ...(r.detail ? [' ', el('span', { class: 'detail' }, `— ${r.detail}`)] : []),
    ...(r.conditions.length ? [el('span', { class: 'conditions' }, ...r.conditions.map((c) => el('code', {}, c)))] : []),
  );
  const node = el('details', { class: 'plan-node', ...(r.open ? { open: '' } : {}) }, summary);
  if (r.children.length) node.append(el('div', { class: 'plan-children', role: 'group' }, ...r.children.map((c) => planNode(c))));
  else node.classList.add('leaf');
  return node;
}

function planSection(report: Report): HTMLElement | undefined {
  const plan = planView(report);
  if (plan) {
    return section(
      plan.source === 'postgresql' ? 'Plan of run 1 (buffers per node, self and total)' : 'Plan of run 1 (pages per table, as the engine counted them)',
      'plan-h',
      el('p', { class: 'note' }, `${plan.legend}. Each node opens and closes with a click, or with Enter or Space.`),
      el('div', { class: 'plan' }, planNode(plan.root)),
    );
  }
  const raw = report.runs[0]?.enginePlan;
  if (raw !== undefined) {
    const text = typeof raw === 'string' ? raw : JSON.stringify(raw, null, 2);
    return section('Plan of run 1 (as the server reported it)', 'plan-h', el('pre', { class: 'plan-raw' }, text));
  }
  return undefined;
}

function predictionSection(view: ReportView): HTMLElement | undefined {
  if (!view.assumptions.length && !view.unmodelled.length) return undefined;
  const s = section('What the simulator assumed', 'pred-h', el('ul', {}, ...view.assumptions.map((a) => el('li', {}, a))));
  if (view.unmodelled.length) s.append(el('h3', {}, 'Not modelled (left out of the prediction)'), el('ul', {}, ...view.unmodelled.map((a) => el('li', {}, a))));
  return s;
}

function whatIfSection(view: ReportView): HTMLElement | undefined {
  if (!view.whatIf.length) return undefined;
  const s = section('What if …', 'whatif-h');
  for (const w of view.whatIf) {
    const canvas = el('canvas', { role: 'img', 'aria-label': `miss ratio by ${w.series.setting}` });
    queueMicrotask(() => whatIfChart(canvas, w.series));
    s.append(
      el('h3', {}, w.title),
      el('div', { class: 'chart small' }, canvas),
      table(
        [w.series.setting, 'physical', 'logical', 'miss ratio'],
        w.rows.map((p) => [p.label, cellNode(p.physical), cellNode(p.logical), p.missRatio]),
      ),
    );
  }
  return s;
}

function settingsSection(view: ReportView): HTMLElement {
  return section('Settings that explain the numbers', 'set-h', table(['setting', 'value'], view.settings, undefined, 2));
}

/** Above the numbers: a warning (not cold, another session, no residency, one statement of several) changes how to read them. */
function warningsSection(view: ReportView): HTMLElement | undefined {
  if (!view.warnings.length) return undefined;
  return section('Read the numbers with these in mind', 'warn-h', el('ul', { class: 'warnings' }, ...view.warnings.map((w) => el('li', { role: 'note' }, w))));
}

export function renderReport(
  root: HTMLElement,
  report: Report,
  actions: { onExport?: (f: 'json' | 'markdown' | 'html') => void; onRerun?: () => void } = {},
): void {
  // With actions it is the editor's panel, where command-line flags mean nothing.
  const view = reportView(report, actions.onExport || actions.onRerun ? 'editor' : 'page');
  const sections = [
    warningsSection(view),
    runsSection(report, view),
    residencySection(report, view),
    planSection(report),
    predictionSection(view),
    whatIfSection(view),
    settingsSection(view),
  ].filter((p): p is HTMLElement => p !== undefined);
  root.replaceChildren(el('main', {}, header(report, view, actions.onExport, actions.onRerun), contents(sections), ...sections));
}

export function renderComparison(root: HTMLElement, left: Report, right: Report): void {
  const v = compareView(left, right);
  const parts: HTMLElement[] = [
    el(
      'header',
      {},
      el('h1', {}, 'Compare reports'),
      el('p', { class: 'meta' }, `${new Date(left.createdAt).toLocaleString()} → ${new Date(right.createdAt).toLocaleString()}`),
    ),
    el('pre', { class: 'statement' }, left.statement),
    left.statement !== right.statement ? el('pre', { class: 'statement' }, right.statement) : el('p', { class: 'meta' }, 'Same statement.'),
    section('Pages per run, before → after', 'cmp-h', table(['', 'measured', 'predicted'], v.runs)),
    section(
      'Cached before run 1 (what usually explains a difference)',
      'cmp-res-h',
      v.cachedBefore.length ? table(['relation', 'cached before run 1', 'pages'], v.cachedBefore) : el('p', { class: 'note' }, 'Residency was not read.'),
    ),
    section(
      'Settings that differ',
      'cmp-set-h',
      v.settings.length ? table(['setting', 'before', 'after'], v.settings, undefined, 3) : el('p', { class: 'note' }, 'None: the same settings.'),
    ),
  ];
  if (v.plan.length) parts.push(section('Plan of run 1, node by node (own pages, and of them read)', 'cmp-plan-h', table(['node', 'pages', 'read'], v.plan)));
  root.replaceChildren(el('main', {}, ...parts));
}
