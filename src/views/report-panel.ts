// The report panel: one webview per report (or comparison), HTML from the one CSP'd shell, data by
// message once the view says it is ready, and every message from it validated before use.
import * as vscode from 'vscode';
import { randomBytes } from 'node:crypto';
import { isReportToHost, type HostToReport, type ReportToHost } from '../shared/protocol';
import { assertNever } from '../shared/assert-never';
import { webviewHtml } from '../html/webview-html';

export class ReportPanel {
  /** The open panel of each statement (see open's `reuse`). */
  private static readonly byKey = new Map<string, ReportPanel>();
  private key: string | undefined;
  private ready = false;
  private pending: HostToReport[] = [];
  private readonly disposables: vscode.Disposable[] = [];
  /** The connection the report in this panel was measured on. */
  private connection: string | undefined;
  private static readonly focused = new vscode.EventEmitter<string | undefined>();
  /** A report panel came to the front (its connection), or the one in front closed (undefined). */
  static readonly onDidFocus = ReportPanel.focused.event;

  private constructor(
    private readonly panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    private onAction: (msg: Exclude<ReportToHost, { type: 'ready' }>) => void,
  ) {
    const media = vscode.Uri.joinPath(extensionUri, 'media');
    panel.webview.html = webviewHtml({
      nonce: randomBytes(16).toString('base64'),
      cspSource: panel.webview.cspSource,
      scriptUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(media, 'dist', 'report.js')).toString(),
      styleUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(media, 'report.css')).toString(),
      title: panel.title,
    });
    this.disposables.push(
      panel.webview.onDidReceiveMessage((msg: unknown) => this.receive(msg)),
      panel.onDidDispose(() => this.dispose()),
      panel.onDidChangeViewState((e) => {
        if (e.webviewPanel.active) ReportPanel.focused.fire(this.connection);
      }),
    );
  }

  /**
   * Shows a report. With `reuse` (a statement's key), the statement's open panel shows it instead of a new
   * one, revealed in the column it is in: re-running never opens another column.
   */
  static open(
    extensionUri: vscode.Uri,
    title: string,
    message: HostToReport,
    onAction: (msg: Exclude<ReportToHost, { type: 'ready' }>) => void,
    reuse?: string,
    connection?: string,
  ): ReportPanel {
    const existing = reuse ? ReportPanel.byKey.get(reuse) : undefined;
    // The status bar names the connection of what is in front: this report's, from now.
    ReportPanel.focused.fire(connection);
    if (existing) {
      existing.connection = connection;
      existing.panel.title = title;
      existing.onAction = onAction;
      existing.post(message);
      existing.panel.reveal(existing.panel.viewColumn, true);
      return existing;
    }
    const panel = vscode.window.createWebviewPanel('bufferlens.report', title, vscode.ViewColumn.Beside, {
      enableScripts: true,
      localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'media')],
      retainContextWhenHidden: true,
    });
    const p = new ReportPanel(panel, extensionUri, onAction);
    p.connection = connection;
    if (reuse) {
      p.key = reuse;
      ReportPanel.byKey.set(reuse, p);
    }
    p.post(message);
    return p;
  }

  post(message: HostToReport): void {
    if (this.ready) void this.panel.webview.postMessage(message);
    else this.pending.push(message);
  }

  /** Whether a statement's panel is open (see open's `reuse`). */
  static isOpen(reuse: string): boolean {
    return ReportPanel.byKey.has(reuse);
  }

  /** Closes the panel (a measurement it was opened for ended without a report). */
  close(): void {
    this.panel.dispose();
  }

  private receive(msg: unknown): void {
    if (!isReportToHost(msg)) return; // untrusted input: anything unexpected is dropped
    switch (msg.type) {
      case 'ready':
        this.ready = true;
        for (const m of this.pending.splice(0)) void this.panel.webview.postMessage(m);
        break;
      case 'exportReport':
      case 'rerun':
        this.onAction(msg);
        break;
      default:
        assertNever(msg);
    }
  }

  dispose(): void {
    if (this.panel.active) ReportPanel.focused.fire(undefined);
    if (this.key && ReportPanel.byKey.get(this.key) === this) ReportPanel.byKey.delete(this.key);
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
