// What the commands do in the editor: measure (with a cancellable progress notification), keep the report,
// show it, and let the lenses show the last result; history actions (open, re-run, delete, compare, export).
import * as vscode from 'vscode';
import { dirname, join } from 'node:path';
import { exportName, oneLine } from '../shared/export-name';
import { readConfig } from '../config';
import { measure } from '../measure/measure';
import { isAuthFailure, MeasureError } from '../db/errors';
import type { Report } from '../shared/report';
import { lensSummary, runSummary } from '../shared/format';
import { reportMarkdown } from '../shared/markdown';
import { statementKey, type MeasuredStatement } from '../shared/lsp';
import type { Dialect } from '../shared/dialect';
import type { ReportStore, StoredReport } from '../store/report-store';
import { standaloneHtml } from '../html/standalone-html';
import type { ConnectionService } from './connections';
import { ReportPanel } from './report-panel';
import type { ReportItem, ReportsViewProvider } from './reports-view';
import type { LanguageClientHandle } from './language-client';
import type { BudgetDiagnostics } from './budget-diagnostics';
import type { Log } from './log';
import { classifyStatement } from '../sql/classify/classify';
import type { ConnectionProfile } from '../db/profile';
import { describeTarget } from '../db/connection-url';
import { editorWording } from '../shared/report-view';

export class EditorCommands {
  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly connections: ConnectionService,
    private readonly store: ReportStore,
    private readonly view: ReportsViewProvider,
    private readonly client: LanguageClientHandle,
    private readonly budgets: BudgetDiagnostics,
    private readonly log: Log,
  ) {}

  /** How a document is split: its connection's engine (auto), or the setting. */
  dialect(uri?: vscode.Uri): Dialect {
    const d = readConfig().dialect;
    return d === 'auto' ? (this.connections.active(uri)?.engine ?? 'postgresql') : d;
  }

  async measureAtCursor(): Promise<void> {
    const editor = vscode.window.activeTextEditor;
    if (!editor) return void vscode.window.showInformationMessage('BufferLens: open a SQL file and put the cursor on a statement.');
    const doc = editor.document;
    // The language server's split is the one that placed the lenses: the same statement, decided once.
    const st = await this.client.statementAt(doc.uri.toString(), doc.offsetAt(editor.selection.active));
    if (!st) return void vscode.window.showInformationMessage('BufferLens: there is no statement at the cursor.');
    await this.measure(st.sql, doc.uri);
  }

  async measureSelection(): Promise<void> {
    const editor = vscode.window.activeTextEditor;
    const text = editor?.document.getText(editor.selection);
    if (!editor || !text?.trim()) return void vscode.window.showInformationMessage('BufferLens: select a statement first.');
    await this.measure(text, editor.document.uri);
  }

  /** A lens's statement, exactly as the server split it. */
  async measureStatement(statement: MeasuredStatement): Promise<void> {
    if (!isMeasuredStatement(statement))
      return void vscode.window.showInformationMessage('BufferLens: put the cursor on a statement and run Measure Statement at Cursor.');
    await this.measure(statement.sql, vscode.Uri.parse(statement.uri));
  }

  async measure(sql: string, uri?: vscode.Uri, profileName?: string, allowSideEffects = false): Promise<StoredReport | undefined> {
    const profile =
      (profileName ? readConfig().connections.find((c) => c.name === profileName) : undefined) ??
      this.connections.active(uri) ??
      (await this.connections.select());
    if (!profile) return undefined;
    const target = await this.connections.target(profile);
    const runs = readConfig().defaultRuns;
    const doc = uri ? vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString()) : undefined;
    // A budget on a cold run 1 asks for one: the statement's relations are evicted where the server can.
    const cold = this.budgets.wantsCold(doc, sql, this.dialect(uri)) ? 'try' : 'no';
    if (!(await this.writeConfirmed(sql, profile, runs, uri))) return undefined;
    let report: Report;
    this.log.info(`measuring on ${profile.name}: ${oneLine(sql, 200)}`);
    const early = this.openEarly(sql, profile.name);
    const earlier = this.store.latestOf(profile.name, sql)?.report;
    try {
      report = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `BufferLens: measuring on ${profile.name}`, cancellable: true },
        async (progress, token) => {
          const abort = new AbortController();
          token.onCancellationRequested(() => abort.abort());
          return measure(target, {
            sql,
            runs,
            cold,
            commit: false,
            allowSideEffects,
            timing: true,
            timeoutMs: 60_000,
            signal: abort.signal,
            onProgress: (m) => progress.report({ message: m }),
            ...(earlier ? { earlier } : {}),
          });
        },
      );
    } catch (err) {
      early?.close();
      // Messages in the editor name buttons, not command-line flags.
      const message = editorWording((err as Error).message);
      if (err instanceof MeasureError && err.kind === 'cancelled') return void this.log.info(`measuring on ${profile.name} cancelled`);
      // A wrong password is fixed where it is kept: re-entered, then measured again.
      if (isAuthFailure(err)) {
        const choice = await this.log.showError(`${profile.name}: ${message}`, 'Re-enter Password', 'Edit Connection');
        if (choice === 'Re-enter Password' && (await this.connections.setPassword(profile))) return this.measure(sql, uri, profile.name, allowSideEffects);
        if (choice === 'Edit Connection') await this.connections.edit(profile);
        return undefined;
      }
      if (err instanceof MeasureError && err.acknowledgeable && !allowSideEffects) {
        this.log.warn(`refused on ${profile.name}: ${message}`);
        const choice = await vscode.window.showWarningMessage(
          `BufferLens: ${message}`,
          { modal: true, detail: 'Measure Anyway runs the statement although a rollback cannot undo what is named above.' },
          'Measure Anyway',
        );
        return choice ? this.measure(sql, uri, profileName, true) : undefined;
      }
      // A syntax error points at the file's line and column, and is underlined there.
      const placed = err instanceof MeasureError && err.at && doc ? this.budgets.syntaxError(doc, sql, this.dialect(uri), err.at, message) : undefined;
      // What the server said is said of the connection it came from: the wrong one is a likely cause.
      const other = 'Measure on Another Connection';
      const choice = await this.log.showError(`on ${profile.name} (${profile.engine}): ${placed ?? message}`, other);
      if (choice === other && (await this.connections.select())) return this.measure(sql, uri);
      return undefined;
    }
    this.log.info(`measured on ${profile.name} (${describeTarget(target)}): ${oneLine(sql, 200)} — ${runSummary(report)}`);
    for (const w of report.warnings) this.log.warn(`  ${editorWording(w)}`);
    const stored = this.store.add({ connection: profile.name, summary: runSummary(report), report, ...(uri ? { file: uri.fsPath } : {}) });
    this.view.refresh();
    if (doc) this.budgets.clearError(doc, sql);
    const budget = doc ? this.budgets.update(doc, sql, this.dialect(uri), report) : undefined;
    if (uri) {
      const withBudget = (s: string) => (budget ? `${s} · ${budget}` : s);
      this.client.sendResult(uri.toString(), sql, withBudget(lensSummary(report)), withBudget(stored.summary), stored.id);
    }
    this.open(stored.id);
    return stored;
  }

  /**
   * A data-changing statement is measured only once the user has said yes, once per connection (the
   * setting turns the question off): it runs several times, each rolled back, and what it leaves is said.
   */
  private async writeConfirmed(sql: string, profile: ConnectionProfile, runs: number, uri?: vscode.Uri): Promise<boolean> {
    const key = `bufferlens.writesConfirmed.${profile.name}`;
    const { role, verb } = classifyStatement(sql, this.dialect(uri));
    if (role !== 'write' || !readConfig().confirmWrites || this.context.globalState.get<boolean>(key)) return true;
    const measureIt = 'Measure';
    const always = `Measure, and Don't Ask Again for ${profile.name}`;
    const leaves =
      profile.engine === 'postgresql'
        ? 'each run leaves the row versions it wrote as dead tuples until VACUUM'
        : 'AUTO_INCREMENT counters it advances stay advanced';
    const choice = await vscode.window.showWarningMessage(
      `BufferLens: measuring runs this ${verb} ${runs} times on ${profile.name}, each in a transaction that is rolled back.`,
      {
        modal: true,
        detail:
          `It holds the row locks it takes while it runs, and ${leaves}; sequences it advances are not given back. ` +
          'The setting BufferLens: Confirm Writes turns this question off.',
      },
      measureIt,
      always,
    );
    if (choice === always) await this.context.globalState.update(key, true);
    this.log.info(choice ? `measuring a ${verb} on ${profile.name}: confirmed` : `measuring a ${verb} on ${profile.name}: not confirmed`);
    return choice !== undefined;
  }

  /** One tab per statement and connection, unless the setting asks for a tab per report. */
  private reuseKey(connection: string, sql: string): string | undefined {
    return readConfig().oneTabPerStatement ? `${connection}\u0000${statementKey(sql)}` : undefined;
  }

  /**
   * The statement's panel, opened as the measurement starts where none is open yet: the editor's first
   * webview takes seconds to load (its service worker), time the statement's runs now overlap.
   */
  private openEarly(sql: string, connection: string): ReportPanel | undefined {
    const reuse = this.reuseKey(connection, sql);
    if (!reuse || ReportPanel.isOpen(reuse)) return undefined;
    const message = { type: 'measuring' as const, statement: oneLine(sql, 200), connection };
    return ReportPanel.open(this.context.extensionUri, panelTitle(sql, connection), message, () => undefined, reuse, connection);
  }

  open(id: string): void {
    const stored = this.store.get(id);
    if (!stored) return void vscode.window.showWarningMessage('BufferLens: that report is no longer in the history.');
    ReportPanel.open(
      this.context.extensionUri,
      panelTitle(stored.report.statement, stored.connection),
      { type: 'showReport', report: stored.report },
      (msg) => {
        if (msg.type === 'exportReport') void this.exportReport(stored, msg.format);
        else void this.rerun(stored);
      },
      this.reuseKey(stored.connection, stored.report.statement),
      stored.connection,
    );
  }

  async rerun(item?: StoredReport | ReportItem): Promise<void> {
    const stored = await this.pick(item, 'Re-run which report?');
    if (stored) await this.measure(stored.report.statement, stored.file ? vscode.Uri.file(stored.file) : undefined, stored.connection);
  }

  async remove(item?: StoredReport | ReportItem): Promise<void> {
    const stored = await this.pick(item, 'Delete which report?');
    if (!stored) return;
    const when = new Date(stored.savedAt).toLocaleString();
    const choice = await vscode.window.showWarningMessage(
      'BufferLens: delete this report from the history?',
      { modal: true, detail: `${oneLine(stored.report.statement)}\n${stored.connection} · ${when} · ${stored.summary}` },
      'Delete',
    );
    if (choice === 'Delete' && this.store.remove(stored.id)) this.view.refresh();
  }

  async compare(): Promise<void> {
    const picks = await vscode.window.showQuickPick(
      this.store.list().map((r) => ({
        label: r.report.statement.replace(/\s+/g, ' ').slice(0, 60),
        description: `${new Date(r.savedAt).toLocaleString()} · ${r.summary}`,
        r,
      })),
      { canPickMany: true, title: 'Compare Reports: pick two' },
    );
    if (!picks) return;
    if (picks.length !== 2) return void vscode.window.showInformationMessage('BufferLens: pick exactly two reports to compare.');
    const [a, b] = picks.map((p) => p.r).sort((x, y) => x.savedAt.localeCompare(y.savedAt));
    ReportPanel.open(this.context.extensionUri, 'BufferLens: compare', { type: 'showComparison', left: a.report, right: b.report }, () => undefined);
  }

  async exportReport(item?: StoredReport | ReportItem, format?: 'json' | 'markdown' | 'html'): Promise<void> {
    const stored = await this.pick(item, 'Export which report?');
    if (!stored) return;
    const fmt = format ?? (await vscode.window.showQuickPick(['json', 'markdown', 'html'] as const, { title: 'Export as' }));
    if (!fmt) return;
    const ext = fmt === 'markdown' ? 'md' : fmt;
    // Named after the statement and the day, beside the file it came from (else the workspace).
    const folder = stored.file ? dirname(stored.file) : (vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '');
    const target = await vscode.window.showSaveDialog({
      defaultUri: vscode.Uri.file(join(folder, exportName(stored.report.statement, stored.savedAt, ext))),
      filters: { [fmt]: [ext] },
    });
    if (!target) return;
    const content =
      fmt === 'json'
        ? JSON.stringify(stored.report, null, 2)
        : fmt === 'markdown'
          ? reportMarkdown(stored.report)
          : standaloneHtml({ type: 'showReport', report: stored.report }, vscode.Uri.joinPath(this.context.extensionUri, 'media').fsPath);
    await vscode.workspace.fs.writeFile(target, Buffer.from(content, 'utf8'));
    void vscode.window.showInformationMessage(`BufferLens: exported to ${target.fsPath}`);
  }

  private async pick(item: StoredReport | ReportItem | undefined, title: string): Promise<StoredReport | undefined> {
    if (item && 'stored' in item) return item.stored;
    if (item && 'report' in item) return item;
    const picked = await vscode.window.showQuickPick(
      this.store.list().map((r) => ({ label: r.report.statement.replace(/\s+/g, ' ').slice(0, 60), description: r.summary, r })),
      { title },
    );
    return picked?.r;
  }
}

function isMeasuredStatement(v: unknown): v is MeasuredStatement {
  const o = v as Partial<MeasuredStatement> | undefined;
  return typeof o?.uri === 'string' && typeof o.sql === 'string';
}

function panelTitle(sql: string, connection: string): string {
  return `BufferLens: ${oneLine(sql, 40)} · ${connection}`;
}
