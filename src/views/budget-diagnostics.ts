// Page budgets in the editor: after a measurement, a budgeted statement's breaches (and the bounds that
// could not be checked, with why) appear in the Problems view on its annotation line, and its result lens
// says "within budget" or what breached.
import * as vscode from 'vscode';
import { budgetSummary, checkBudget, formatBound, type BoundResult } from '../shared/budget';
import type { Report } from '../shared/report';
import type { Dialect } from '../shared/dialect';
import { budgetOfStatement } from '../sql/statement-budget';

export class BudgetDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('BufferLens budgets');
  /** Per document, per annotation line: what the last measurement of its statement found. */
  private readonly byDocument = new Map<string, Map<number, vscode.Diagnostic[]>>();

  /** Whether a statement carries a bound on a cold run 1 (the measurement then evicts where it can). */
  wantsCold(doc: vscode.TextDocument | undefined, sql: string, dialect: Dialect): boolean {
    const found = doc ? budgetOfStatement(doc.getText(), sql, dialect) : undefined;
    return found !== undefined && 'budget' in found && found.budget.bounds.some((b) => b.state === 'cold');
  }

  /** Checks the statement's budget against the report; the lens's words, or undefined without a budget. */
  update(doc: vscode.TextDocument, sql: string, dialect: Dialect, report: Report): string | undefined {
    const found = budgetOfStatement(doc.getText(), sql, dialect);
    if (!found) return undefined;
    const lines = this.byDocument.get(doc.uri.toString()) ?? new Map<number, vscode.Diagnostic[]>();
    this.byDocument.set(doc.uri.toString(), lines);
    if ('error' in found) {
      lines.set(found.line, [this.diagnostic(doc, found.line, `BufferLens budget: ${found.error}`, vscode.DiagnosticSeverity.Error)]);
      this.publish(doc.uri);
      return 'budget unreadable (see Problems)';
    }
    const results = checkBudget(found.budget.bounds, report);
    const line = found.budget.lines[0].line;
    lines.set(line, results.filter((r) => r.status !== 'within').map((r) => this.diagnostic(doc, line, message(r), r.status === 'breach' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Information)));
    this.publish(doc.uri);
    return budgetSummary(results);
  }

  private diagnostic(doc: vscode.TextDocument, line: number, text: string, severity: vscode.DiagnosticSeverity): vscode.Diagnostic {
    const d = new vscode.Diagnostic(doc.lineAt(Math.min(line, doc.lineCount - 1)).range, text, severity);
    d.source = 'BufferLens';
    return d;
  }

  private publish(uri: vscode.Uri): void {
    this.collection.set(uri, [...(this.byDocument.get(uri.toString())?.values() ?? [])].flat());
  }

  dispose(): void {
    this.collection.dispose();
  }
}

function message(r: BoundResult): string {
  const predicted = r.predicted === null ? '' : ` (predicted ${r.predicted.toLocaleString('en-US')})`;
  return r.status === 'breach'
    ? `Over budget: ${formatBound(r.bound)}, measured ${r.measured!.toLocaleString('en-US')}${predicted}`
    : `Budget not checked: ${formatBound(r.bound)}: ${r.reason}`;
}
