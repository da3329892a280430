// Every command the extension contributes. test/manifest.test.ts keeps this table and package.json in sync.
import * as vscode from 'vscode';

export const COMMAND = {
  measureStatementAtCursor: 'bufferlens.measureStatementAtCursor',
  measureSelection: 'bufferlens.measureSelection',
  selectConnection: 'bufferlens.selectConnection',
  addConnection: 'bufferlens.addConnection',
  testConnection: 'bufferlens.testConnection',
  openReportHistory: 'bufferlens.openReportHistory',
  compareReports: 'bufferlens.compareReports',
  exportReport: 'bufferlens.exportReport',
} as const;

export type CommandId = (typeof COMMAND)[keyof typeof COMMAND];

export type CommandHandlers = Record<CommandId, (...args: unknown[]) => unknown>;

/** A command whose feature has not landed yet says so instead of failing silently. */
export function notYetAvailable(what: string): () => void {
  return () => void vscode.window.showInformationMessage(`BufferLens: ${what} is not available in this version yet.`);
}

export function registerCommands(context: vscode.ExtensionContext, handlers: CommandHandlers): void {
  for (const [id, handler] of Object.entries(handlers)) {
    context.subscriptions.push(vscode.commands.registerCommand(id, handler));
  }
}
