// Typed access to the contributed settings.
import * as vscode from 'vscode';
import { parseProfile, type ConnectionProfile } from './db/profile';
import type { Dialect } from './shared/dialect';

export interface BufferLensConfig {
  connections: ConnectionProfile[];
  /** Profiles that could not be used, with the reason. */
  problems: string[];
  defaultRuns: number;
  codeLensEnabled: boolean;
  dialect: 'auto' | Dialect;
  historyMaxReports: number;
  oneTabPerStatement: boolean;
  /** Ask once per connection before measuring a data-changing statement. */
  confirmWrites: boolean;
}

export function readConfig(): BufferLensConfig {
  const c = vscode.workspace.getConfiguration('bufferlens');
  const connections: ConnectionProfile[] = [];
  const problems: string[] = [];
  for (const raw of c.get<unknown[]>('connections', [])) {
    const p = parseProfile(raw);
    if (typeof p === 'string') problems.push(p);
    else connections.push(p);
  }
  return {
    connections,
    problems,
    defaultRuns: c.get<number>('defaultRuns', 3),
    codeLensEnabled: c.get<boolean>('codeLens.enabled', true),
    dialect: c.get<'auto' | Dialect>('dialect', 'auto'),
    historyMaxReports: c.get<number>('history.maxReports', 200),
    oneTabPerStatement: c.get<boolean>('reports.oneTabPerStatement', true),
    confirmWrites: c.get<boolean>('confirmWrites', true),
  };
}
