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
  rerun: 'bufferlens.rerun',
  deleteReport: 'bufferlens.deleteReport',
  measureRange: 'bufferlens.measureRange',
  openReport: 'bufferlens.openReport',
} as const;

export type CommandId = (typeof COMMAND)[keyof typeof COMMAND];

// Handlers take whatever VS Code passes (tree items, lens arguments); each handler checks its own.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type CommandHandlers = Record<CommandId, (...args: any[]) => unknown>;

export function registerCommands(context: vscode.ExtensionContext, handlers: CommandHandlers): void {
  for (const [id, handler] of Object.entries(handlers)) {
    context.subscriptions.push(vscode.commands.registerCommand(id, handler));
  }
}
