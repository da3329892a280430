// `bufferlens check`: every budgeted statement measured (rolled back, as always), each bound checked
// against the runs it applies to, a table of budget, measured and predicted, JUnit and JSON for CI, and
// --update to rewrite the budgets from the numbers measured now.
import { readFileSync, writeFileSync } from 'node:fs';
import type { ConnectionTarget } from '../db/connection-url';
import { engineForDialect } from '../measure/engines';
import { measure } from '../measure/measure';
import { annotationLine, BudgetSyntaxError, budgetAbove, checkBudget, formatBound, parseBudget, updatedBounds, type BudgetBound } from '../shared/budget';
import { junitXml, type CheckedStatement } from './check-output';

export interface CheckOptions {
  target: ConnectionTarget;
  files: string[];
  budgetsFile?: string;
  runs: number;
  timeoutMs: number;
  json: boolean;
  junit?: string;
  update: boolean;
  margin: number;
  signal?: AbortSignal;
}

interface Entry {
  file: string;
  line: number;
  name?: string;
  sql: string;
  bounds: BudgetBound[];
  error?: string;
  /** Where --update writes the new bounds. */
  write: (bounds: BudgetBound[]) => void;
}

function sqlEntries(file: string, dialect: 'postgresql' | 'mysql', edits: Map<string, string[]>): Entry[] {
  const text = readFileSync(file, 'utf8');
  const lines = text.split('\n');
  edits.set(file, lines);
  const out: Entry[] = [];
  for (const st of engineForDialect(dialect).split(text)) {
    let budget;
    try {
      budget = budgetAbove(lines, st.start.line);
    } catch (err) {
      if (!(err instanceof BudgetSyntaxError)) throw err;
      out.push({ file, line: st.start.line + 1, sql: st.sql, bounds: [], error: `the budget above it: ${err.message}`, write: () => undefined });
      continue;
    }
    if (!budget) continue;
    out.push({
      file,
      line: st.start.line + 1,
      sql: st.sql,
      bounds: budget.bounds,
      write: (bounds) => {
        let k = 0;
        for (const { line, count } of budget.lines) {
          lines[line] = annotationLine(bounds.slice(k, k + count), /^\s*/.exec(lines[line])?.[0] ?? '');
          k += count;
        }
      },
    });
  }
  return out;
}

interface BudgetsFile {
  budgets: Array<{ name?: string; sql: string; budget: string }>;
}

function budgetsFileEntries(file: string, onChange: () => void): { entries: Entry[]; doc: BudgetsFile } {
  const doc = JSON.parse(readFileSync(file, 'utf8')) as BudgetsFile;
  if (!Array.isArray(doc?.budgets)) throw new BudgetSyntaxError(`${file}: expected {"budgets": [{"name", "sql", "budget"}, …]}`);
  const entries = doc.budgets.map((b, k): Entry => {
    const base = { file, line: k + 1, name: b.name, sql: String(b.sql ?? '') };
    try {
      return { ...base, bounds: parseBudget(String(b.budget ?? '')), write: (bounds) => ((b.budget = bounds.map(formatBound).join(', ')), onChange()) };
    } catch (err) {
      if (!(err instanceof BudgetSyntaxError)) throw err;
      return { ...base, bounds: [], error: `its budget: ${err.message}`, write: () => undefined };
    }
  });
  return { entries, doc };
}

export async function runCheck(o: CheckOptions): Promise<{ checked: CheckedStatement[]; exitCode: number }> {
  const dialect = o.target.engine;
  const edits = new Map<string, string[]>();
  const entries = o.files.flatMap((f) => sqlEntries(f, dialect, edits));
  let budgetsDoc: BudgetsFile | undefined;
  let budgetsChanged = false;
  if (o.budgetsFile) {
    const loaded = budgetsFileEntries(o.budgetsFile, () => (budgetsChanged = true));
    entries.push(...loaded.entries);
    budgetsDoc = loaded.doc;
  }
  const checked: CheckedStatement[] = [];
  for (const e of entries) {
    if (o.signal?.aborted) break;
    const c: CheckedStatement = { file: e.file, line: e.line, ...(e.name ? { name: e.name } : {}), sql: e.sql, bounds: e.bounds, results: [] };
    checked.push(c);
    if (e.error) {
      c.error = e.error;
      continue;
    }
    const cold = e.bounds.some((b) => b.state === 'cold') ? 'try' : 'no';
    try {
      const report = await measure(o.target, {
        sql: e.sql,
        runs: o.runs,
        cold,
        commit: false,
        timing: false,
        timeoutMs: o.timeoutMs,
        whatIf: false,
        ...(o.signal ? { signal: o.signal } : {}),
      });
      c.results = checkBudget(e.bounds, report);
      if (o.update) {
        c.updated = updatedBounds(e.bounds, report, o.margin);
        e.write(c.updated);
      }
    } catch (err) {
      c.error = (err as Error).message.split('\n')[0];
    }
  }
  if (o.update) {
    for (const [file, lines] of edits) if (checked.some((c) => c.file === file && c.updated)) writeFileSync(file, lines.join('\n'));
    if (o.budgetsFile && budgetsDoc && budgetsChanged) writeFileSync(o.budgetsFile, JSON.stringify(budgetsDoc, null, 2) + '\n');
  }
  if (o.junit) writeFileSync(o.junit, junitXml(checked));
  const breached = checked.some((c) => c.results.some((r) => r.status === 'breach'));
  const unchecked = checked.some((c) => c.error || c.results.some((r) => r.status === 'refused'));
  // An update leaves the budgets matching what was measured: only what could not be checked fails it.
  return { checked, exitCode: breached && !o.update ? 1 : unchecked ? 2 : 0 };
}
