// Starts the SQL language server (dist/server.js) over IPC and keeps it told what it needs: the dialect,
// whether lenses are on, whether there is a connection, and the last result per statement.
import type * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import { ResultsNotification, SettingsNotification, StatementAtRequest, type MeasuredStatement, type ResultsParams, type ServerSettings } from '../shared/lsp';

export interface LanguageClientHandle {
  sendSettings(settings: ServerSettings): void;
  sendResult(uri: string, statement: string, summary: string, detail: string, reportId: string): void;
  sendResults(params: ResultsParams): void;
  /** The statement at an offset, as the server split the document. */
  statementAt(uri: string, offset: number): Promise<MeasuredStatement | null>;
  stop(): Promise<void>;
}

export async function startLanguageClient(context: vscode.ExtensionContext, settings: ServerSettings): Promise<LanguageClientHandle> {
  const module = context.asAbsolutePath('dist/server.js');
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc },
    debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6019'] } },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [{ language: 'sql' }],
    initializationOptions: settings,
  };
  const client = new LanguageClient('bufferlens', 'BufferLens SQL', serverOptions, clientOptions);
  await client.start();
  return {
    sendSettings: (s) => void client.sendNotification(SettingsNotification, s),
    sendResult: (uri, statement, summary, detail, reportId) =>
      void client.sendNotification(ResultsNotification, { uri, results: [{ statement, summary, detail, reportId }] }),
    sendResults: (params) => void client.sendNotification(ResultsNotification, params),
    statementAt: (uri, offset) => client.sendRequest(StatementAtRequest, { uri, offset }),
    stop: () => client.stop(),
  };
}
