// Renders a report (or two, compared) into the page. Data arrives by message; nothing here parses HTML.
import type { PlanNode, RelationResidency, Report } from '../../src/shared/report';
import { formatCount, hitRatioNote, pagesAsBytes } from '../../src/shared/format';
import { el, section, table } from './dom';
import { runsChart, whatIfChart } from './charts';

const STATE = (r: Report['runs'][number]) => (r.cold ? 'cold' : r.run === 1 ? 'as found' : 'warm');

function header(report: Report, onExport?: (format: 'json' | 'markdown' | 'html') => void, onRerun?: () => void): HTMLElement {
  const e = report.engine;
  const product = { postgresql: 'PostgreSQL', mysql: 'MySQL', mariadb: 'MariaDB' }[e.product];
  const h = el('header', {}, el('h1', {}, 'Buffer I/O report'), el('p', { class: 'meta' }, `${product} ${e.version} · ${formatCount(e.pageSize)}-byte pages · ${report.target} · ${new Date(report.createdAt).toLocaleString()}`));
  h.append(el('pre', { class: 'statement', 'aria-label': 'statement' }, report.statement));
  h.append(el('p', { class: 'meta' }, report.rolledBack ? (report.dataChanging ? 'Every run was rolled back.' : 'Read-only statement; every run was rolled back.') : 'Changes were committed (--commit).'));
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

function runsSection(report: Report): HTMLElement {
  const rows = report.runs.map((r) => [
    `run ${r.run}`,
    STATE(r),
    formatCount(r.measured.logicalReads),
    formatCount(r.predicted.logicalReads),
    formatCount(r.measured.physicalReads),
    formatCount(r.predicted.physicalReads),
    formatCount(r.measured.readAhead),
    formatCount(r.predicted.readAhead),
    r.elapsedMs.toLocaleString('en-US', { maximumFractionDigits: 1 }),
  ]);
  const t = table(['run', 'state', 'logical', 'predicted', 'physical', 'predicted', 'read-ahead', 'predicted', 'time ms'], rows, 'Pages per run, measured and predicted', 2);
  t.id = 'runs-table';
  const canvas = el('canvas', { role: 'img', 'aria-label': 'grouped bar chart of measured and predicted pages per run' });
  const wrap = el('div', { class: 'chart' }, canvas);
  queueMicrotask(() => runsChart(canvas, report));
  const notes = report.runs[0]?.notes;
  const meaning = el('dl', { class: 'meaning' });
  if (notes) {
    for (const [k, label] of [['logicalReads', 'logical'], ['physicalReads', 'physical'], ['readAhead', 'read-ahead']] as const) {
      if (notes[k]) meaning.append(el('dt', {}, label), el('dd', {}, notes[k]!));
    }
  }
  const hit = hitRatioNote(report.runs[0], report);
  const bytes = report.runs.map((r) => `run ${r.run}: ${pagesAsBytes(r.measured.physicalReads, report.engine.pageSize) || 'not reported'} read`).join(' · ');
  return section('Runs', 'runs-h', t, el('p', { class: 'note' }, bytes), wrap, el('p', { class: 'hit-ratio', role: 'note' }, hit.text), meaning);
}

function blockMap(rel: RelationResidency): HTMLElement {
  const cells = Math.min(200, Math.max(1, rel.pages));
  const per = Math.max(1, rel.pages / cells);
  const counts = new Array<number>(cells).fill(0);
  for (const [s, e] of rel.blocksAfter ?? []) {
    for (let b = s; b <= e; b++) counts[Math.min(cells - 1, Math.floor(b / per))]++;
  }
  const map = el('div', { class: 'blockmap', role: 'img', 'aria-label': `${rel.relation}: ${formatCount(rel.cachedAfter)} of ${formatCount(rel.pages)} pages cached after the run` });
  for (const c of counts) map.append(el('span', { class: `cell level-${Math.min(4, Math.ceil((c / per) * 4))}` }));
  return map;
}

function residencySection(report: Report): HTMLElement | undefined {
  const last = report.runs[report.runs.length - 1];
  if (!last?.residency.length) return undefined;
  const rows = last.residency.map((rel) => [
    rel.relation,
    rel.kind,
    `${formatCount(rel.pages)} (${pagesAsBytes(rel.pages, report.engine.pageSize)})`,
    ...report.runs.map((r) => {
      const x = r.residency.find((y) => y.relation === rel.relation);
      return x ? `${formatCount(x.cachedBefore)} → ${formatCount(x.cachedAfter)}${x.predictedAfter !== null ? ` (predicted ${formatCount(x.predictedAfter)})` : ''}` : '';
    }),
  ]);
  const maps = last.residency.filter((r) => r.pages > 0 && r.blocksAfter).map((r) => el('figure', {}, el('figcaption', {}, `${r.relation} after run ${last.run}`), blockMap(r)));
  return section('Pages in the buffer pool', 'res-h', table(['relation', 'kind', 'pages', ...report.runs.map((r) => `run ${r.run}`)], rows, 'cached before → after each run', 2), ...maps);
}

function planList(n: PlanNode): HTMLElement {
  const label = `${n.nodeType}${n.relation ? ` on ${n.relation}` : ''}${n.index ? ` using ${n.index}` : ''}`;
  const stats = `self hit ${formatCount(n.self.sharedHit)} · read ${formatCount(n.self.sharedRead)} — total hit ${formatCount(n.total.sharedHit)} · read ${formatCount(n.total.sharedRead)}${n.actualRows !== undefined ? ` — rows ${formatCount(n.actualRows)} × ${formatCount(n.actualLoops ?? 1)}` : ''}${n.workersLaunched !== undefined ? ` — workers ${n.workersLaunched}/${n.workersPlanned ?? '?'}` : ''}`;
  const li = el('li', {}, el('span', { class: 'node' }, label), ' ', el('span', { class: 'stats' }, stats));
  if (n.children.length) li.append(el('ul', {}, ...n.children.map(planList)));
  return li;
}

function planSection(report: Report): HTMLElement | undefined {
  const run = report.runs[0];
  if (run?.plan) return section('Plan of run 1 (buffers per node, self and total)', 'plan-h', el('ul', { class: 'plan' }, planList(run.plan)));
  if (run?.enginePlan !== undefined) {
    const text = typeof run.enginePlan === 'string' ? run.enginePlan : JSON.stringify(run.enginePlan, null, 2);
    return section('Plan of run 1 (as the server reported it)', 'plan-h', el('pre', { class: 'plan-raw' }, text));
  }
  return undefined;
}

function predictionSection(report: Report): HTMLElement | undefined {
  const assumptions = [...new Set(report.runs.flatMap((r) => r.prediction?.assumptions ?? []))];
  const unmodelled = [...new Set(report.runs.flatMap((r) => r.prediction?.unmodelled ?? []))];
  if (!assumptions.length && !unmodelled.length) return undefined;
  const s = section('What the simulator assumed', 'pred-h', el('ul', {}, ...assumptions.map((a) => el('li', {}, a))));
  if (unmodelled.length) s.append(el('h3', {}, 'Not modelled (left out of the prediction)'), el('ul', {}, ...unmodelled.map((a) => el('li', {}, a))));
  return s;
}

function whatIfSection(report: Report): HTMLElement | undefined {
  if (!report.whatIf?.series.length) return undefined;
  const s = section('What if …', 'whatif-h');
  for (const series of report.whatIf.series) {
    const canvas = el('canvas', { role: 'img', 'aria-label': `miss ratio by ${series.setting}` });
    queueMicrotask(() => whatIfChart(canvas, series));
    s.append(
      el('h3', {}, `${series.setting} (all ${report.whatIf.runs} runs, predicted)`),
      el('div', { class: 'chart small' }, canvas),
      table(
        [series.setting, 'physical', 'logical', 'miss ratio'],
        series.points.map((p) => [`${p.label}${p.current ? ' (now)' : ''}`, formatCount(p.physicalReads), formatCount(p.logicalReads), `${(p.missRatio * 100).toFixed(1)} %`]),
      ),
    );
  }
  return s;
}

function settingsSection(report: Report): HTMLElement {
  const rows = Object.entries(report.engine.settings)
    .filter(([, v]) => v !== null)
    .map(([k, v]) => [k, String(v)]);
  const s = section('Settings that explain the numbers', 'set-h', table(['setting', 'value'], rows, undefined, 2));
  if (report.warnings.length) s.append(el('h3', {}, 'Warnings'), el('ul', { class: 'warnings' }, ...report.warnings.map((w) => el('li', { role: 'note' }, w))));
  return s;
}

export function renderReport(root: HTMLElement, report: Report, actions: { onExport?: (f: 'json' | 'markdown' | 'html') => void; onRerun?: () => void } = {}): void {
  const parts = [header(report, actions.onExport, actions.onRerun), runsSection(report), residencySection(report), planSection(report), predictionSection(report), whatIfSection(report), settingsSection(report)];
  root.replaceChildren(el('main', {}, ...parts.filter((p): p is HTMLElement => p !== undefined)));
}

export function renderComparison(root: HTMLElement, left: Report, right: Report): void {
  const runs = Math.max(left.runs.length, right.runs.length);
  const rows: string[][] = [];
  const arrow = (a: number | null | undefined, b: number | null | undefined) => {
    const d = a !== null && a !== undefined && b !== null && b !== undefined ? b - a : null;
    return `${formatCount(a)} → ${formatCount(b)}${d === null ? '' : ` (${d > 0 ? '+' : ''}${d.toLocaleString('en-US')})`}`;
  };
  for (let k = 0; k < runs; k++) {
    const a = left.runs[k];
    const b = right.runs[k];
    for (const [name, key] of [['logical', 'logicalReads'], ['physical', 'physicalReads'], ['read-ahead', 'readAhead']] as const) {
      rows.push([`run ${k + 1} ${name}`, arrow(a?.measured[key], b?.measured[key])]);
    }
  }
  root.replaceChildren(
    el(
      'main',
      {},
      el('header', {}, el('h1', {}, 'Compare reports'), el('p', { class: 'meta' }, `${new Date(left.createdAt).toLocaleString()} → ${new Date(right.createdAt).toLocaleString()}`)),
      el('pre', { class: 'statement' }, left.statement),
      left.statement !== right.statement ? el('pre', { class: 'statement' }, right.statement) : el('p', { class: 'meta' }, 'Same statement.'),
      section('Measured, before → after', 'cmp-h', table(['', 'change'], rows)),
    ),
  );
}
