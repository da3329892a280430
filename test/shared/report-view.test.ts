// The report view-model on the report fixtures: the one place that decides labels, states and the
// "not reported" / "not modelled" convention that every renderer shows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Report } from '../../src/shared/report';
import { reportView } from '../../src/shared/report-view';
import { formatReport } from '../../src/cli/format-report';
import { reportMarkdown } from '../../src/shared/markdown';
import { lensSummary, runSummary } from '../../src/shared/format';

const load = (name: string): Report => JSON.parse(readFileSync(`test/fixtures/reports/${name}.json`, 'utf8'));

test('MariaDB seed 001: every measured and predicted number is a number, states and bytes follow the runs', () => {
  const report = load('mariadb-seed001');
  const view = reportView(report);
  assert.equal(view.product, 'MariaDB');
  assert.deepEqual(
    view.runs.map((r) => r.state),
    report.runs.map((r) => (r.cold ? 'cold' : r.run === 1 ? 'as found' : 'warm')),
  );
  const r1 = view.runs[0];
  assert.equal(r1.measured.readAhead.kind, 'number');
  assert.equal(r1.measured.logicalReads.value, report.runs[0].measured.logicalReads);
  assert.equal(r1.predicted.physicalReads.value, report.runs[0].predicted.physicalReads);
  assert.ok(view.predictsReadAhead);
  // Bytes read count read-ahead too: 97 + 3,520 pages of 16 KiB.
  const pages = report.runs[0].measured.physicalReads! + report.runs[0].measured.readAhead!;
  assert.equal(r1.bytesRead, `${((pages * report.engine.pageSize) / 1048576).toLocaleString('en-US', { maximumFractionDigits: 1 })} MiB`);
});

test('PostgreSQL: read-ahead the engine cannot tell is "not reported", measured and predicted, with the reason', () => {
  const report = load('postgres18-ring');
  const view = reportView(report);
  for (const r of view.runs) {
    assert.equal(r.measured.readAhead.kind, 'not-reported');
    assert.equal(r.predicted.readAhead.kind, 'not-reported');
    assert.ok(r.measured.readAhead.kind === 'not-reported' && r.measured.readAhead.reason && r.measured.readAhead.reason.length > 10);
  }
  assert.ok(!view.predictsReadAhead);
  // The panel and the Markdown export drop the two empty columns and say once why.
  assert.deepEqual(
    view.shownMetrics.map((m) => m.key),
    ['logicalReads', 'physicalReads'],
  );
  assert.match(view.noReadAhead!, /^No read-ahead column: .{10,}/);
  const md = reportMarkdown(report);
  assert.doesNotMatch(md, /read-ahead \| predicted/);
  assert.match(md, /No read-ahead column: /);
  assert.deepEqual(
    reportView(load('mariadb-seed001')).shownMetrics.map((m) => m.key),
    ['logicalReads', 'physicalReads', 'readAhead'],
  );
});

test('a number the engine reports but the simulator does not predict is "not modelled", never 0, in every renderer', () => {
  const report = load('mariadb-seed001');
  report.runs[0].predicted = { logicalReads: null, physicalReads: null, readAhead: null };
  delete report.runs[0].prediction;
  const view = reportView(report);
  for (const m of ['logicalReads', 'physicalReads', 'readAhead'] as const) {
    assert.equal(view.runs[0].predicted[m].kind, 'not-modelled');
    assert.equal(view.runs[0].predicted[m].text, 'not modelled');
  }
  const cli = formatReport(report);
  const row1 = cli.split('\n').find((l) => /^\s*1\s+as found/.test(l)) ?? '';
  assert.match(row1, /n\/m$/);
  assert.match(cli, /n\/m = not modelled by the simulator/);
  assert.match(reportMarkdown(report), /\| 1 \| as found \| [\d,]+ \| not modelled \|/);
});

test('residency cells carry before, after and the prediction; a run without residency is not reported', () => {
  const report = load('postgres18-ring');
  const view = reportView(report);
  const rel = view.residency[0];
  const c = rel.runs[0]!;
  const x = report.runs[0].residency.find((r) => r.relation === rel.relation)!;
  assert.equal(c.before.value, x.cachedBefore);
  assert.equal(c.after.value, x.cachedAfter);
  assert.match(c.text, / → /);
  report.runs[0].residency = report.runs[0].residency.map((r) => ({ ...r, cachedBefore: null, cachedAfter: null }));
  assert.equal(reportView(report).residency[0].runs[0]!.after.kind, 'not-reported');
});

test('a guessed prediction shows its band beside the first draw, in every renderer, and says what the band is', () => {
  const report = load('mariadb-seed001');
  report.runs[0].predictedRange = {
    draws: 8,
    low: { logicalReads: 3574, physicalReads: 90, readAhead: 3500 },
    high: { logicalReads: 3574, physicalReads: 130, readAhead: 3520 },
  };
  const view = reportView(report);
  const p = view.runs[0].predicted;
  assert.equal(p.logicalReads.text, report.runs[0].predicted.logicalReads!.toLocaleString('en-US'), 'no band where the draws agree');
  assert.equal(p.physicalReads.text, `${report.runs[0].predicted.physicalReads!.toLocaleString('en-US')} (90–130)`);
  assert.equal(p.physicalReads.value, report.runs[0].predicted.physicalReads, 'the value stays the first draw');
  assert.match(view.assumptions.join('\n'), /range in brackets .* first of 8 draws/);
  assert.match(reportMarkdown(report), /\(90–130\)/);
  assert.match(formatReport(report), /\(90–130\)/);
  assert.equal(view.runs[1].predicted.physicalReads.text, report.runs[1].predicted.physicalReads!.toLocaleString('en-US'));
});

test('a guessed residency shows its band beside the first draw, in every renderer', () => {
  const report = load('postgres18-ring');
  const x = report.runs[1].residency[0];
  x.predictedAfter = 200;
  x.predictedAfterRange = [180, 212];
  const view = reportView(report);
  const cell = view.residency.find((r) => r.relation === x.relation)!.runs[1]!;
  assert.equal(cell.predictedAfter?.text, '200 (180–212)');
  assert.equal(cell.predictedAfter?.value, 200, 'the value stays the first draw');
  assert.match(cell.text, /\(predicted 200 \(180–212\)\)$/);
  assert.match(view.assumptions.join('\n'), /range in brackets .* which blocks each parallel process took/);
  assert.match(reportMarkdown(report), /200 \(180–212\)/);
  assert.match(reportMarkdown(report), /## What the prediction assumed[\s\S]*range in brackets/, 'the export says what the range is');
  assert.match(formatReport(report), /200 \(180–212\)/);
});

test('the history summary is a sentence, the lens a short line: what run 1 requested, read from disk and read ahead, and the prediction', () => {
  const maria = load('mariadb-seed001');
  const r = maria.runs[0];
  const n = (x: number | null) => x!.toLocaleString('en-US');
  assert.equal(
    runSummary(maria),
    `run 1 (${r.cold ? 'cold' : 'as found'}): ${n(r.measured.logicalReads)} pages requested (logical) · ${n(r.measured.physicalReads)} read from disk, ${n(r.measured.readAhead)} read ahead · predicted ${n(r.predicted.physicalReads)} and ${n(r.predicted.readAhead)} ahead`,
  );
  // The lens's line: short enough beside a half-width editor, read-ahead counted with the reads predicted.
  assert.equal(
    lensSummary(maria),
    `${r.cold ? 'cold' : 'as found'}: ${n(r.measured.logicalReads)} pages, ${n(r.measured.physicalReads)} read + ${n(r.measured.readAhead)} ahead · predicted ${n(r.predicted.physicalReads! + r.predicted.readAhead!)}`,
  );
  assert.ok(lensSummary(maria).length <= 64, lensSummary(maria));
  const pg = load('postgres18-ring');
  assert.doesNotMatch(runSummary(pg), /ahead/, 'PostgreSQL reports no read-ahead: none is mentioned');
  assert.doesNotMatch(lensSummary(pg), /ahead/);
  pg.runs[0].predicted = { logicalReads: null, physicalReads: null, readAhead: null };
  assert.match(runSummary(pg), /· prediction not modelled$/);
});

test('in the editor the view names no command-line flag: the hints in parentheses that name one are left out', () => {
  const report = load('mariadb-seed001');
  report.rolledBack = false;
  report.warnings = [
    'residency not read: the buffer pool holds 9 pages, above the limit of 1; INNODB_BUFFER_PAGE_LRU walks the whole pool (--residency=always reads it anyway)',
    'measured although a rollback cannot undo it (--allow-side-effects): a file',
  ];
  const page = reportView(report);
  assert.match(page.warnings.join('\n'), /--residency=always/);
  assert.match(page.changes, /--commit/);
  const editor = reportView(report, 'editor');
  assert.doesNotMatch([editor.changes, ...editor.warnings].join('\n'), /--[a-z]/);
  assert.equal(editor.warnings[0], 'residency not read: the buffer pool holds 9 pages, above the limit of 1; INNODB_BUFFER_PAGE_LRU walks the whole pool');
  assert.equal(editor.warnings[1], 'measured although a rollback cannot undo it: a file');
  assert.equal(editor.changes, 'Changes were committed.');
});

test('a large gap between measured and predicted is flagged beside the numbers with its likely cause', () => {
  const report = load('mariadb-seed001');
  assert.deepEqual(reportView(report).gaps, [], 'the fixture predicts within 25 %');
  report.runs[0].predicted = { ...report.runs[0].predicted, readAhead: 1000 };
  report.runs[0].prediction = { assumptions: [], unmodelled: ['UPDATE on t: the changes it makes are left out'] };
  const [gap] = reportView(report).gaps;
  assert.match(gap, /^run 1 read-ahead: measured 3,520, predicted 1,000 \(72 % below\); likely cause: left out of the model: UPDATE on t/);
  report.runs[0].prediction = { assumptions: [], unmodelled: [] };
  report.runs[0].predictedRange = {
    draws: 8,
    low: { logicalReads: 3574, physicalReads: 90, readAhead: 1000 },
    high: { logicalReads: 3574, physicalReads: 97, readAhead: 3400 },
  };
  assert.match(reportView(report).gaps[0], /likely cause: the model had to guess \(its draws gave 1,000–3,400\)/);
  assert.match(reportMarkdown(report), /- run 1 read-ahead: measured 3,520/);
});

test('an empty relation nothing was cached of is left out of residency; a time under 0.05 ms is "< 0.1", not 0', () => {
  const report = load('postgres18-ring');
  const toast = { relation: 'pg_toast.pg_toast_1', kind: 'other' as const, pages: 0, cachedBefore: 0, cachedAfter: 0, predictedAfter: null };
  const withToast: Report = {
    ...report,
    runs: report.runs.map((r, i) => ({ ...r, elapsedMs: i === 0 ? 0.01 : r.elapsedMs, residency: [...r.residency, toast] })),
  };
  const v = reportView(withToast);
  assert.ok(!v.residency.some((r) => r.relation === 'pg_toast.pg_toast_1'));
  assert.deepEqual(
    v.residency.map((r) => r.relation),
    ['events', 'events_id'],
  );
  assert.equal(v.runs[0].timeText, '< 0.1');
  // One that held pages stays, however small.
  const cached = { ...withToast, runs: withToast.runs.map((r) => ({ ...r, residency: r.residency.map((x) => (x === toast ? { ...x, cachedAfter: 1 } : x)) })) };
  assert.ok(reportView(cached).residency.some((r) => r.relation === 'pg_toast.pg_toast_1'));
});

test('an assumption that holds for some runs only says which: a pace measured per run is not three unlabelled near-copies', () => {
  const report = load('mariadb-seed001');
  const paced = (n: number) => `the page cleaner's LRU batches wake once a second, here every ${n} page requests`;
  const runs = report.runs.map((r, i) => ({ ...r, prediction: { ...r.prediction!, assumptions: ['shared by all', paced(100 * (i + 1))] } }));
  const v = reportView({ ...report, runs });
  assert.equal(v.assumptions.filter((a) => a === 'shared by all').length, 1);
  runs.forEach((r, i) => assert.ok(v.assumptions.includes(`run ${r.run}: ${paced(100 * (i + 1))}`), v.assumptions.join('\n')));
});

test('a run with part of it not modelled shows its prediction as a floor, and a 0 as not modelled with the reasons', () => {
  const report = load('postgres18-ring');
  const left = ['Index Only Scan using p1_d_idx: index facts missing'];
  const runs = report.runs.map((r, i) => ({
    ...r,
    predicted: { ...r.predicted, logicalReads: i === 0 ? 0 : 40 },
    prediction: { ...r.prediction!, unmodelled: left },
  }));
  const v = reportView({ ...report, runs });
  assert.equal(v.runs[0].predicted.logicalReads.kind, 'not-modelled');
  assert.match(v.runs[0].predicted.logicalReads.reason ?? '', /index facts missing/);
  assert.equal(v.runs[1].predicted.logicalReads.text, '≥ 40');
});
