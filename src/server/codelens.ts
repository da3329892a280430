// Statements → CodeLens: "Measure buffer I/O" above each, and the last result once measured. Pure.
import type { CodeLens } from 'vscode-languageserver';
import type { Span } from '../sql/statement';
import { refusalOf } from './refusal';
import { LENS_COMMAND, statementKey, type MeasuredStatement, type ServerSettings, type StatementResult } from '../shared/lsp';

/** A line only a workload script has: pgbench's \set, or a BufferLens weight annotation. */
const WORKLOAD_LINE = /^\s*(\\set\s+[A-Za-z_]\w*\s|--\s*bufferlens:\s*weight\s+\d)/im;

export interface DocumentLike {
  uri: string;
  getText(): string;
  positionAt(offset: number): { line: number; character: number };
}

export function buildLenses(
  doc: DocumentLike,
  spans: readonly Span[],
  settings: ServerSettings,
  results: Map<string, StatementResult> | undefined,
): CodeLens[] {
  if (!settings.codeLensEnabled) return [];
  const text = doc.getText();
  const lenses: CodeLens[] = [];
  // A pgbench-style workload file (\set lines, weight annotations): one lens above all for the whole mix.
  if (WORKLOAD_LINE.test(text)) {
    const top = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    lenses.push({
      range: top,
      command: settings.hasConnection
        ? { title: 'Predict the pool-size curve of this workload', command: LENS_COMMAND.predictWorkload, arguments: [doc.uri] }
        : { title: 'Add a connection to predict this workload', command: LENS_COMMAND.addConnection, arguments: [] },
    });
    // Its statements hold :variables only the workload's draws give values: measured one by one they would fail.
    return lenses;
  }
  for (const s of spans) {
    const range = { start: doc.positionAt(s.start), end: doc.positionAt(s.end) };
    const statement: MeasuredStatement = { uri: doc.uri, sql: text.slice(s.start, s.end), range, dialect: settings.dialect };
    // A statement BufferLens would refuse says so and why: no measure action that could only fail.
    const refused = refusalOf(statement.sql, settings.dialect);
    if (refused) {
      lenses.push({
        range,
        command: { title: `Not measured: ${refused.length > 110 ? `${refused.slice(0, 109)}…` : refused}`, command: '', tooltip: refused },
      });
      continue;
    }
    lenses.push({
      range,
      command: settings.hasConnection
        ? { title: 'Measure buffer I/O', command: LENS_COMMAND.measure, arguments: [statement] }
        : { title: 'Add a connection to measure buffer I/O', command: LENS_COMMAND.addConnection, arguments: [] },
    });
    const result = results?.get(statementKey(statement.sql));
    if (result) {
      const tooltip = `${result.detail ?? result.summary} · open the report`;
      lenses.push({ range, command: { title: result.summary, command: LENS_COMMAND.openReport, arguments: [result.reportId], tooltip } });
    }
  }
  return lenses;
}

/** The statement that contains the offset, or else the last one before it (the cursor after its semicolon). */
export function statementAt(doc: DocumentLike, spans: readonly Span[], offset: number, settings: ServerSettings): MeasuredStatement | null {
  const s = spans.find((x) => offset >= x.start && offset <= x.end + 1) ?? [...spans].reverse().find((x) => x.start <= offset);
  if (!s) return null;
  return {
    uri: doc.uri,
    sql: doc.getText().slice(s.start, s.end),
    range: { start: doc.positionAt(s.start), end: doc.positionAt(s.end) },
    dialect: settings.dialect,
  };
}
