// What `bufferlens check` prints: a table of budget, measured and predicted per bound, JUnit XML for CI
// systems (one test case per budgeted statement, a failure per breach, an error for what could not be
// checked) and the JSON document.
import { formatBound, type BoundResult, type BudgetBound } from '../shared/budget';
import { oneLine } from '../shared/export-name';

/** One budgeted statement: where it is written, its bounds, and what checking it gave. */
export interface CheckedStatement {
  file: string;
  /** 1-based line of the statement (a budgets file: its entry's position). */
  line: number;
  name?: string;
  sql: string;
  bounds: BudgetBound[];
  results: BoundResult[];
  /** Measuring failed, or the budget could not be read. */
  error?: string;
  updated?: BudgetBound[];
}

const n = (x: number | null) => (x === null ? 'n/a' : x.toLocaleString('en-US'));
const where = (c: CheckedStatement) => `${c.file}:${c.line}${c.name ? ` (${c.name})` : ''}`;

export function checkTable(checked: CheckedStatement[]): string {
  const rows: string[][] = [['statement', 'budget', 'measured', 'predicted', 'result']];
  for (const c of checked) {
    const head = `${where(c)} ${oneLine(c.sql, 40)}`;
    if (c.error) {
      rows.push([head, '', '', '', `error: ${c.error}`]);
      continue;
    }
    c.results.forEach((r, k) => {
      const result = r.status === 'within' ? 'ok' : r.status === 'breach' ? 'BREACH' : `not checked: ${r.reason}`;
      const updated = c.updated && formatBound(c.updated[k]) !== formatBound(r.bound) ? ` → ${formatBound(c.updated[k])}` : '';
      rows.push([k === 0 ? head : '', formatBound(r.bound) + updated, n(r.measured), n(r.predicted), result]);
    });
  }
  const widths = rows[0].map((_, i) => Math.min(70, Math.max(...rows.map((r) => (i === 4 ? 0 : r[i].length)))));
  const lines = rows.map((r) =>
    r
      .map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i])))
      .join('  ')
      .trimEnd(),
  );
  const bounds = checked.flatMap((c) => c.results);
  const breaches = bounds.filter((r) => r.status === 'breach').length;
  const refused = bounds.filter((r) => r.status === 'refused').length + checked.filter((c) => c.error).length;
  const within = bounds.length - breaches - bounds.filter((r) => r.status === 'refused').length;
  lines.push(
    '',
    `${checked.length} budgeted statement${checked.length === 1 ? '' : 's'}: ${within} bounds within, ${breaches} breached, ${refused} not checked`,
  );
  return lines.join('\n') + '\n';
}

/** XML 1.0 text: markup characters escaped, control characters other than tab and newlines dropped. */
const xml = (s: string) =>
  [...s]
    .filter((ch) => ch >= ' ' || ch === '\t' || ch === '\n' || ch === '\r')
    .join('')
    .replace(/[<>&"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

export function junitXml(checked: CheckedStatement[]): string {
  const failures = checked.filter((c) => c.results.some((r) => r.status === 'breach')).length;
  const errors = checked.filter((c) => !c.results.some((r) => r.status === 'breach') && (c.error || c.results.some((r) => r.status === 'refused'))).length;
  const cases = checked.map((c) => {
    const name = xml(`line ${c.line}: ${c.name ?? oneLine(c.sql)}`);
    const detail = xml(
      c.results
        .map((r) => `${formatBound(r.bound)}: measured ${n(r.measured)}, predicted ${n(r.predicted)}, ${r.status}${r.reason ? ` (${r.reason})` : ''}`)
        .join('\n'),
    );
    const breach = c.results.filter((r) => r.status === 'breach');
    const refused = c.results.filter((r) => r.status === 'refused');
    const body = breach.length
      ? `<failure message="${xml(breach.map((r) => r.reason).join('; '))}">${detail}</failure>`
      : c.error
        ? `<error message="${xml(c.error)}"/>`
        : refused.length
          ? `<error message="${xml(refused.map((r) => `${formatBound(r.bound)}: ${r.reason}`).join('; '))}">${detail}</error>`
          : `<system-out>${detail}</system-out>`;
    return `    <testcase classname="${xml(c.file)}" name="${name}">${body}</testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="bufferlens check" tests="${checked.length}" failures="${failures}" errors="${errors}">`,
    `  <testsuite name="bufferlens check" tests="${checked.length}" failures="${failures}" errors="${errors}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

export function checkJson(checked: CheckedStatement[], exitCode: number): string {
  return JSON.stringify(
    {
      exitCode,
      statements: checked.map((c) => ({
        file: c.file,
        line: c.line,
        ...(c.name ? { name: c.name } : {}),
        sql: c.sql,
        ...(c.error ? { error: c.error } : {}),
        bounds: c.results.map((r, k) => ({
          budget: formatBound(r.bound),
          status: r.status,
          measured: r.measured,
          predicted: r.predicted,
          ...(r.reason ? { reason: r.reason } : {}),
          ...(c.updated ? { updated: formatBound(c.updated[k]) } : {}),
        })),
      })),
    },
    null,
    2,
  );
}
