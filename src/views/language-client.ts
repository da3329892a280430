// Starts the SQL language server (dist/server.js) over IPC; it serves the CodeLens on SQL files.
import type * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';

export async function startLanguageClient(context: vscode.ExtensionContext): Promise<() => Promise<void>> {
  const module = context.asAbsolutePath('dist/server.js');
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc },
    debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6019'] } },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [{ language: 'sql' }],
    synchronize: { configurationSection: 'bufferlens' },
  };
  const client = new LanguageClient('bufferlens', 'BufferLens SQL', serverOptions, clientOptions);
  await client.start();
  return () => client.stop();
}
