// Activation only wires services together; the logic lives in the modules it calls.
import * as vscode from 'vscode';
import { COMMAND, notYetAvailable, registerCommands } from './commands';
import { startLanguageClient } from './views/language-client';
import { ReportsViewProvider } from './views/reports-view';

let stopClient: (() => Promise<void>) | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  registerCommands(context, {
    [COMMAND.measureStatementAtCursor]: notYetAvailable('Measure Statement at Cursor'),
    [COMMAND.measureSelection]: notYetAvailable('Measure Selection'),
    [COMMAND.selectConnection]: notYetAvailable('Select Connection'),
    [COMMAND.addConnection]: notYetAvailable('Add Connection'),
    [COMMAND.testConnection]: notYetAvailable('Test Connection'),
    [COMMAND.openReportHistory]: () => vscode.commands.executeCommand('bufferlens.reports.focus'),
    [COMMAND.compareReports]: notYetAvailable('Compare Reports'),
    [COMMAND.exportReport]: notYetAvailable('Export Report'),
  });
  context.subscriptions.push(vscode.window.registerTreeDataProvider('bufferlens.reports', new ReportsViewProvider()));
  stopClient = await startLanguageClient(context);
}

export async function deactivate(): Promise<void> {
  await stopClient?.();
}
