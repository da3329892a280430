// `bufferlens check`: every budgeted statement measured (rolled back, as always), each bound checked
// against the runs it applies to, a table of budget, measured and predicted, JUnit and JSON for CI, and
// --update to rewrite the budgets from the numbers measured now.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
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

/** A budgeted file as read: its text (to see whether it changed before --update writes), lines and line ending. */
interface ReadFile {
  text: string;
  lines: string[];
  eol: '\n' | '\r\n';
}

function sqlEntries(file: string, dialect: 'postgresql' | 'mysql', edits: Map<string, ReadFile>): Entry[] {
  const text = readFileSync(file, 'utf8');
  // A Windows checkout's CRLF lines are read as lines, and written back with CRLF.
  const lines = text.split(/\r?\n/);
  edits.set(file, { text, lines, eol: text.includes('\r\n') ? '\r\n' : '\n' });
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

function budgetsFileEntries(file: string, onChange: () => void): { entries: Entry[]; doc: BudgetsFile; text: string } {
  const text = readFileSync(file, 'utf8');
  const doc = JSON.parse(text) as BudgetsFile;
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
  return { entries, doc, text };
}

/**
 * Writes the updated budgets only where the file is as it was read (an edit made while the statements
 * were measured is never overwritten), through a temporary file renamed over it. The reason, where refused.
 */
export function writeIfUnchanged(file: string, asRead: string, updated: string): string | undefined {
  if (readFileSync(file, 'utf8') !== asRead)
    return 'the file changed while its statements were measured: its budgets were not updated (run check --update again)';
  const temporary = join(dirname(file), `.${basename(file)}.bufferlens-${process.pid}.tmp`);
  writeFileSync(temporary, updated);
  renameSync(temporary, file);
  return undefined;
}

export async function runCheck(o: CheckOptions): Promise<{ checked: CheckedStatement[]; exitCode: number }> {
  const dialect = o.target.engine;
  const edits = new Map<string, ReadFile>();
  const entries = o.files.flatMap((f) => {
    const found = sqlEntries(f, dialect, edits);
    // A file named on the command line with no budget in it is a mistake, not a pass.
    return found.length
      ? found
      : [
          {
            file: f,
            line: 1,
            sql: '',
            bounds: [],
            error: 'no budgeted statement in this file (a "-- bufferlens: budget …" line above a statement)',
            write: () => undefined,
          },
        ];
  });
  let budgetsDoc: BudgetsFile | undefined;
  let budgetsChanged = false;
  let budgetsText = '';
  if (o.budgetsFile) {
    const loaded = budgetsFileEntries(o.budgetsFile, () => (budgetsChanged = true));
    entries.push(...loaded.entries);
    budgetsDoc = loaded.doc;
    budgetsText = loaded.text;
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
    for (const [file, read] of edits) {
      if (!checked.some((c) => c.file === file && c.updated)) continue;
      const refused = writeIfUnchanged(file, read.text, read.lines.join(read.eol));
      if (refused) checked.push({ file, line: 1, sql: '', bounds: [], results: [], error: refused });
    }
    if (o.budgetsFile && budgetsDoc && budgetsChanged) {
      const refused = writeIfUnchanged(o.budgetsFile, budgetsText, JSON.stringify(budgetsDoc, null, 2) + '\n');
      if (refused) checked.push({ file: o.budgetsFile, line: 1, sql: '', bounds: [], results: [], error: refused });
    }
  }
  if (o.junit) writeFileSync(o.junit, junitXml(checked));
  const breached = checked.some((c) => c.results.some((r) => r.status === 'breach'));
  const unchecked = checked.some((c) => c.error || c.results.some((r) => r.status === 'refused'));
  // What could not be checked makes the run no verdict (2), breached or not; an update leaves the budgets
  // matching what was measured, so only what could not be checked fails it.
  return { checked, exitCode: unchecked ? 2 : breached && !o.update ? 1 : 0 };
}
