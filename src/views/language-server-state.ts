// What the language server is told: its settings (lenses on, the dialect of each document) and the last
// result of each statement in a document, from the history, so that lenses survive a restart.
import type * as vscode from 'vscode';
import { readConfig } from '../config';
import type { ReportStore } from '../store/report-store';
import type { ConnectionService } from './connections';
import type { LanguageClientHandle } from './language-client';
import { lensSummary } from '../shared/format';

/**
 * The default dialect is the workspace default connection's; documents with their own connection of
 * another engine are split with theirs.
 */
export function languageServerSettings(connections: ConnectionService) {
  const config = readConfig();
  const dialect = config.dialect === 'auto' ? (connections.defaultConnection()?.engine ?? 'postgresql') : config.dialect;
  const documentDialects: Record<string, 'postgresql' | 'mysql'> = {};
  if (config.dialect === 'auto') {
    for (const [uri, name] of Object.entries(connections.documentConnections())) {
      const engine = config.connections.find((c) => c.name === name)?.engine;
      if (engine && engine !== dialect) documentDialects[uri] = engine;
    }
  }
  return {
    codeLensEnabled: config.codeLensEnabled,
    dialect,
    hasConnection: connections.defaultConnection() !== undefined || config.connections.length > 0,
    documentDialects,
  };
}

/** The last result of each statement of a SQL document, oldest first so that the newest of a statement is the one kept. */
export function sendHistory(store: ReportStore, lsp: LanguageClientHandle, doc: vscode.TextDocument): void {
  if (doc.languageId !== 'sql') return;
  const results = [...store.list()]
    .filter((r) => r.file === doc.uri.fsPath)
    .reverse()
    .map((r) => ({ statement: r.report.statement, summary: lensSummary(r.report), detail: r.summary, reportId: r.id }));
  if (results.length) lsp.sendResults({ uri: doc.uri.toString(), results });
}
