// Custom LSP traffic between the extension (client) and the SQL language server.
import type { Dialect } from './dialect';

/** Client → server, at start and whenever settings or the active connection change. */
export const SETTINGS_NOTIFICATION = 'bufferlens/settings';
export interface ServerSettings {
  codeLensEnabled: boolean;
  dialect: Dialect;
  /** Without a connection the lenses invite the user to add one. */
  hasConnection: boolean;
}

/** Client → server, after a measurement: the last result per statement, for the second lens. */
export const RESULTS_NOTIFICATION = 'bufferlens/results';
export interface StatementResult {
  /** The statement text, whitespace collapsed: lenses follow a statement wherever it moves. */
  statement: string;
  summary: string;
  reportId: string;
}
export interface ResultsParams {
  uri: string;
  results: StatementResult[];
}

/** Commands the lenses run; registered by the extension. */
export const LENS_COMMAND = { measure: 'bufferlens.measureRange', openReport: 'bufferlens.openReport', addConnection: 'bufferlens.addConnection' } as const;

export function statementKey(sql: string): string {
  return sql.replace(/\s+/g, ' ').trim();
}
