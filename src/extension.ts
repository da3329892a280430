// Activation only wires services together; the logic lives in the modules it calls.
import * as vscode from 'vscode';
import { join } from 'node:path';
import { COMMAND, registerCommands } from './commands';
import { readConfig } from './config';
import { ReportStore } from './store/report-store';
import { ConnectionService } from './views/connections';
import { EditorCommands } from './views/editor-commands';
import { BudgetDiagnostics } from './views/budget-diagnostics';
import { startLanguageClient, type LanguageClientHandle } from './views/language-client';
import { languageServerSettings, sendHistory } from './views/language-server-state';
import { ReportsViewProvider } from './views/reports-view';
import { ConnectionItem, ConnectionsViewProvider } from './views/connections-view';
import { WorkloadCommands } from './views/workload-commands';
import { Log } from './views/log';
import { ReportPanel } from './views/report-panel';

let client: LanguageClientHandle | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const store = new ReportStore(join(context.globalStorageUri.fsPath, 'reports.json'), { maxReports: readConfig().historyMaxReports, maxBytes: 20 * 1048576 });
  if (store.loadProblem) void vscode.window.showWarningMessage(`BufferLens: ${store.loadProblem}`);
  const log = new Log();
  context.subscriptions.push(log);
  const connections = new ConnectionService(context, log);
  const view = new ReportsViewProvider(store);
  const connectionsView = new ConnectionsViewProvider(connections);
  context.subscriptions.push(connectionsView);
  const serverSettings = () => languageServerSettings(connections);
  const lsp: LanguageClientHandle = {
    sendSettings: (s) => client?.sendSettings(s),
    sendResult: (...a) => client?.sendResult(...a),
    sendResults: (p) => client?.sendResults(p),
    statementAt: async (uri, offset) => (client ? client.statementAt(uri, offset) : null),
    stop: async () => client?.stop(),
  };
  const sendHistoryFor = (doc: vscode.TextDocument) => sendHistory(store, lsp, doc);
  const budgets = new BudgetDiagnostics();
  context.subscriptions.push(budgets);
  const editor = new EditorCommands(context, connections, store, view, lsp, budgets, log);
  const workload = new WorkloadCommands(context, connections, log);
  context.subscriptions.push(workload);
  registerCommands(context, {
    [COMMAND.measureStatementAtCursor]: () => editor.measureAtCursor(),
    [COMMAND.measureSelection]: () => editor.measureSelection(),
    // From the Connections view a command gets the item it was run on.
    [COMMAND.selectConnection]: (item) => (item instanceof ConnectionItem ? connections.choose(item.profile) : connections.select()),
    [COMMAND.addConnection]: () => connections.add(),
    [COMMAND.testConnection]: (item) => connections.test(item instanceof ConnectionItem ? item.profile : undefined),
    [COMMAND.editConnection]: (item) => connections.edit(item instanceof ConnectionItem ? item.profile : undefined),
    [COMMAND.removeConnection]: (item) => connections.remove(item instanceof ConnectionItem ? item.profile : undefined),
    [COMMAND.setPassword]: (item) => connections.setPassword(item instanceof ConnectionItem ? item.profile : undefined),
    [COMMAND.openReportHistory]: () => vscode.commands.executeCommand('bufferlens.reports.focus'),
    [COMMAND.compareReports]: () => editor.compare(),
    [COMMAND.exportReport]: (item) => editor.exportReport(item),
    [COMMAND.rerun]: (item) => editor.rerun(item),
    [COMMAND.deleteReport]: (item) => editor.remove(item),
    [COMMAND.measureRange]: (statement) => editor.measureStatement(statement),
    [COMMAND.openReport]: (id) => editor.open(id),
    // From the lens a command gets the document's URI as a string.
    [COMMAND.predictWorkload]: (uri) => workload.predict(typeof uri === 'string' ? vscode.Uri.parse(uri) : uri instanceof vscode.Uri ? uri : undefined),
    [COMMAND.tryDemoWorkload]: () => workload.tryDemo(),
    [COMMAND.workloadFromStatistics]: () => workload.fromStatistics(),
    [COMMAND.stopDemoDatabase]: () => workload.stopDemo(),
    [COMMAND.runWorkload]: (uri) => workload.run(typeof uri === 'string' ? vscode.Uri.parse(uri) : uri instanceof vscode.Uri ? uri : undefined),
  });
  context.subscriptions.push(
    connections,
    vscode.window.registerTreeDataProvider('bufferlens.reports', view),
    vscode.window.registerTreeDataProvider('bufferlens.connections', connectionsView),
    connections.onDidChange(() => lsp.sendSettings(serverSettings())),
    // An error the server gave on one connection says nothing once the file measures on another.
    connections.onDidChangeChoice(() => budgets.clearAllErrors()),
    ReportPanel.onDidFocus((connection) => connections.reportFocused(connection)),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration('bufferlens')) return;
      connections.refreshStatus();
      lsp.sendSettings(serverSettings());
    }),
  );
  client = await startLanguageClient(context, serverSettings());
  vscode.workspace.textDocuments.forEach(sendHistoryFor);
  context.subscriptions.push(vscode.workspace.onDidOpenTextDocument(sendHistoryFor));
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}
