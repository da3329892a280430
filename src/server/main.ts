// The SQL language server: a separate Node process that knows nothing of the `vscode` API.
import { createConnection, ProposedFeatures, TextDocuments, TextDocumentSyncKind } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';

const connection = createConnection(ProposedFeatures.all);
const documents = new TextDocuments(TextDocument);

connection.onInitialize(() => ({
  capabilities: {
    textDocumentSync: TextDocumentSyncKind.Incremental,
    codeLensProvider: { resolveProvider: false },
  },
}));

// Statement lenses arrive with the statement splitter; until then the server answers with none.
connection.onCodeLens(() => []);

documents.listen(connection);
connection.listen();
