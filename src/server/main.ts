// The SQL language server: a separate Node process that knows nothing of the `vscode` API. It keeps each
// open document's statements up to date incrementally and serves a CodeLens above each one.
import { CodeLensRefreshRequest, createConnection, ProposedFeatures, TextDocuments, TextDocumentSyncKind } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { IncrementalSplitter } from '../sql/incremental';
import { buildLenses, statementAt } from './codelens';
import {
  ResultsNotification,
  SettingsNotification,
  StatementAtRequest,
  settingsFor,
  statementKey,
  type ServerSettings,
  type StatementResult,
} from '../shared/lsp';

const connection = createConnection(ProposedFeatures.all);
const documents = new TextDocuments(TextDocument);
const splitters = new Map<string, IncrementalSplitter>();
const results = new Map<string, Map<string, StatementResult>>();
let settings: ServerSettings = { codeLensEnabled: true, dialect: 'postgresql', hasConnection: false };

connection.onInitialize((params) => {
  const init = params.initializationOptions as Partial<ServerSettings> | undefined;
  settings = { ...settings, ...init };
  return { capabilities: { textDocumentSync: TextDocumentSyncKind.Incremental, codeLensProvider: { resolveProvider: false } } };
});

function spansOf(doc: TextDocument) {
  let splitter = splitters.get(doc.uri);
  const dialect = settingsFor(settings, doc.uri).dialect;
  if (!splitter || splitter.dialect !== dialect) {
    splitter = new IncrementalSplitter(dialect);
    splitter.reset(doc.getText());
    splitters.set(doc.uri, splitter);
    return splitter.statements;
  }
  return splitter.update(doc.getText());
}

documents.onDidChangeContent((e) => void spansOf(e.document));
documents.onDidClose((e) => {
  splitters.delete(e.document.uri);
  results.delete(e.document.uri);
});

connection.onCodeLens((params) => {
  const doc = documents.get(params.textDocument.uri);
  return doc ? buildLenses(doc, spansOf(doc), settingsFor(settings, doc.uri), results.get(doc.uri)) : [];
});

connection.onNotification(SettingsNotification, (next) => {
  settings = next;
  void connection.sendRequest(CodeLensRefreshRequest.type).catch(() => undefined);
});

connection.onNotification(ResultsNotification, (p) => {
  const map = results.get(p.uri) ?? new Map<string, StatementResult>();
  for (const r of p.results) map.set(statementKey(r.statement), r);
  results.set(p.uri, map);
  void connection.sendRequest(CodeLensRefreshRequest.type).catch(() => undefined);
});

connection.onRequest(StatementAtRequest, (p) => {
  const doc = documents.get(p.uri);
  return doc ? statementAt(doc, spansOf(doc), p.offset, settingsFor(settings, doc.uri)) : null;
});

documents.listen(connection);
connection.listen();
