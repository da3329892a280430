// Statements → CodeLens: "Measure buffer I/O" above each, and the last result once measured. Pure.
import type { CodeLens } from 'vscode-languageserver';
import type { Span } from '../sql/statement';
import { LENS_COMMAND, statementKey, type ServerSettings, type StatementResult } from '../shared/lsp';

export interface DocumentLike {
  uri: string;
  getText(): string;
  positionAt(offset: number): { line: number; character: number };
}

export function buildLenses(doc: DocumentLike, spans: readonly Span[], settings: ServerSettings, results: Map<string, StatementResult> | undefined): CodeLens[] {
  if (!settings.codeLensEnabled) return [];
  const text = doc.getText();
  const lenses: CodeLens[] = [];
  for (const s of spans) {
    const range = { start: doc.positionAt(s.start), end: doc.positionAt(s.end) };
    lenses.push({
      range,
      command: settings.hasConnection
        ? { title: 'Measure buffer I/O', command: LENS_COMMAND.measure, arguments: [doc.uri, range] }
        : { title: 'Add a connection to measure buffer I/O', command: LENS_COMMAND.addConnection, arguments: [] },
    });
    const result = results?.get(statementKey(text.slice(s.start, s.end)));
    if (result) lenses.push({ range, command: { title: result.summary, command: LENS_COMMAND.openReport, arguments: [result.reportId] } });
  }
  return lenses;
}
