// What a measurement tells about the file, in the Problems view: a budgeted statement's breaches (and the
// bounds that could not be checked, with why) on its annotation line, its result lens saying "within
// budget" or what breached; and the server's syntax error at the file's line and column.
import * as vscode from 'vscode';
import { budgetSummary, checkBudget, formatBound, type BoundResult } from '../shared/budget';
import type { Report } from '../shared/report';
import type { Dialect } from '../shared/dialect';
import { budgetOfStatement, documentPosition, errorSpan } from '../sql/statement-budget';
import { statementKey } from '../shared/lsp';

export class BudgetDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('BufferLens budgets');
  /** Per document, per annotation line: what the last measurement of its statement found. */
  private readonly byDocument = new Map<string, Map<number, vscode.Diagnostic[]>>();
  /** Per document, per statement (its text, whitespace collapsed): the syntax error its last measurement met. */
  private readonly errors = new Map<string, Map<string, vscode.Diagnostic>>();

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
    lines.set(
      line,
      results
        .filter((r) => r.status !== 'within')
        .map((r) => this.diagnostic(doc, line, message(r), r.status === 'breach' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Information)),
    );
    this.publish(doc.uri);
    return budgetSummary(results);
  }

  /**
   * A statement the server could not parse: the error where it points in the file (its word underlined),
   * and the message with the file's line and column; undefined when the statement is not in the file.
   */
  syntaxError(doc: vscode.TextDocument, sql: string, dialect: Dialect, at: { line: number; column: number }, message: string): string | undefined {
    const pos = documentPosition(doc.getText(), sql, dialect, at);
    if (!pos) return undefined;
    const start = new vscode.Position(pos.line, pos.character);
    const span = errorSpan(doc.lineAt(Math.min(pos.line, doc.lineCount - 1)).text, pos.character);
    const range = new vscode.Range(start, start.with(undefined, span.end));
    const text = message.replace(/ \(line \d+, column \d+\)/, ` (line ${pos.line + 1}, column ${pos.character + 1} of ${doc.uri.path.split('/').pop()})`);
    const errors = this.errors.get(doc.uri.toString()) ?? new Map<string, vscode.Diagnostic>();
    this.errors.set(doc.uri.toString(), errors);
    const d = new vscode.Diagnostic(range, text, vscode.DiagnosticSeverity.Error);
    d.source = 'BufferLens';
    errors.set(statementKey(sql), d);
    this.publish(doc.uri);
    return text;
  }

  /** A statement measured without error clears the syntax error it had. */
  clearError(doc: vscode.TextDocument, sql: string): void {
    if (this.errors.get(doc.uri.toString())?.delete(statementKey(sql))) this.publish(doc.uri);
  }

  /** Every error of every document: they were the server's, and the documents' connection changed. */
  clearAllErrors(): void {
    const uris = [...this.errors.keys()];
    this.errors.clear();
    for (const uri of uris) this.publish(vscode.Uri.parse(uri));
  }

  private diagnostic(doc: vscode.TextDocument, line: number, text: string, severity: vscode.DiagnosticSeverity): vscode.Diagnostic {
    const d = new vscode.Diagnostic(doc.lineAt(Math.min(line, doc.lineCount - 1)).range, text, severity);
    d.source = 'BufferLens';
    return d;
  }

  private publish(uri: vscode.Uri): void {
    const key = uri.toString();
    this.collection.set(uri, [...[...(this.byDocument.get(key)?.values() ?? [])].flat(), ...(this.errors.get(key)?.values() ?? [])]);
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
