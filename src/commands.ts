// Registers every command the extension contributes (the ids are in shared/command-ids.ts, which
// test/manifest.test.ts keeps in sync with package.json).
import * as vscode from 'vscode';
import { COMMAND, type CommandId } from './shared/command-ids';

export { COMMAND, type CommandId };

// Handlers take whatever VS Code passes (tree items, lens arguments); each handler checks its own.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type CommandHandlers = Record<CommandId, (...args: any[]) => unknown>;

export function registerCommands(context: vscode.ExtensionContext, handlers: CommandHandlers): void {
  for (const [id, handler] of Object.entries(handlers)) {
    context.subscriptions.push(vscode.commands.registerCommand(id, handler));
  }
}
