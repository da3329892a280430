// Custom LSP traffic between the extension (client) and the SQL language server, typed once for both
// sides. The server's statement spans are the one source of what "the statement" is: the lenses carry
// their statement, and Measure Statement at Cursor asks the server for the statement there.
import { NotificationType, RequestType } from 'vscode-languageserver-protocol';
import type { Dialect } from './dialect';
import { COMMAND } from './command-ids';

export interface ServerSettings {
  codeLensEnabled: boolean;
  dialect: Dialect;
  /** Without a connection the lenses invite the user to add one. */
  hasConnection: boolean;
  /**
   * Documents whose own connection is of another engine than the default: split with its dialect. A
   * connection belongs to a document; `dialect` is the workspace default's.
   */
  documentDialects?: Record<string, Dialect>;
}

/** The settings one document is served with: its own connection's dialect where it has one. */
export function settingsFor(settings: ServerSettings, uri: string): ServerSettings {
  const dialect = settings.documentDialects?.[uri];
  return dialect && dialect !== settings.dialect ? { ...settings, dialect } : settings;
}

/** Client → server, at start and whenever settings or the active connection change. */
export const SettingsNotification = new NotificationType<ServerSettings>('bufferlens/settings');

export interface StatementResult {
  /** The statement text, whitespace collapsed: lenses follow a statement wherever it moves. */
  statement: string;
  /** The lens's title, short; `detail` is its tooltip. */
  summary: string;
  detail?: string;
  reportId: string;
}
export interface ResultsParams {
  uri: string;
  results: StatementResult[];
}

/** Client → server, after a measurement: the last result per statement, for the second lens. */
export const ResultsNotification = new NotificationType<ResultsParams>('bufferlens/results');

export interface LspRange {
  start: { line: number; character: number };
  end: { line: number; character: number };
}

/** A statement as the server split it: its exact text, where it stands, and the dialect that split it. */
export interface MeasuredStatement {
  uri: string;
  sql: string;
  range: LspRange;
  dialect: Dialect;
}

export interface StatementAtParams {
  uri: string;
  /** Offset of the cursor in the document as the server has it. */
  offset: number;
}

/** Client → server: the statement at an offset (the one that contains it, or the last before it). */
export const StatementAtRequest = new RequestType<StatementAtParams, MeasuredStatement | null, void>('bufferlens/statementAt');

/** Commands the lenses run; registered by the extension from the one command table. */
export const LENS_COMMAND = {
  measure: COMMAND.measureRange,
  openReport: COMMAND.openReport,
  addConnection: COMMAND.addConnection,
  predictWorkload: COMMAND.predictWorkload,
} as const;

/** A statement's identity for its result lens: whitespace collapsed, a selection's closing semicolons left out. */
export function statementKey(sql: string): string {
  return sql
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/(\s*;)+$/, '');
}
