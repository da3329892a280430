// Every report the editor measured, kept as one versioned JSON file in the extension's storage folder,
// with a cap: the oldest are pruned first. No vscode import: tested directly.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Report } from '../shared/report';
import { sameStatement } from '../measure/earlier-measurement';

export const STORE_VERSION = 1;

export interface StoredReport {
  id: string;
  savedAt: string;
  /** The document the statement came from, if any. */
  file?: string;
  connection: string;
  summary: string;
  report: Report;
}

interface StoreFile {
  version: number;
  reports: StoredReport[];
}

export interface StoreLimits {
  maxReports: number;
  maxBytes: number;
}

export class ReportStore {
  private reports: StoredReport[] = [];
  /** Why the file could not be read, when it could not (it is then kept aside, never overwritten blindly). */
  readonly loadProblem: string | undefined;

  constructor(
    private readonly file: string,
    private readonly limits: StoreLimits = { maxReports: 200, maxBytes: 20 * 1048576 },
  ) {
    this.loadProblem = this.load();
  }

  private load(): string | undefined {
    if (!existsSync(this.file)) return undefined;
    try {
      const data = JSON.parse(readFileSync(this.file, 'utf8')) as StoreFile;
      if (data.version !== STORE_VERSION || !Array.isArray(data.reports)) throw new Error(`unknown store version ${String(data.version)}`);
      this.reports = data.reports;
      return undefined;
    } catch (err) {
      const aside = `${this.file}.unreadable-${Date.now()}`;
      renameSync(this.file, aside);
      return `the report history could not be read (${(err as Error).message}); it was moved to ${aside}`;
    }
  }

  private save(): void {
    mkdirSync(dirname(this.file), { recursive: true });
    const tmp = `${this.file}.tmp`;
    writeFileSync(tmp, JSON.stringify({ version: STORE_VERSION, reports: this.reports } satisfies StoreFile));
    renameSync(tmp, this.file); // atomic: a crash never leaves half a file
  }

  list(): readonly StoredReport[] {
    return this.reports;
  }

  /** The newest report of this statement on this connection: what a new measurement of it may start from. */
  latestOf(connection: string, sql: string): StoredReport | undefined {
    return this.reports.find((r) => r.connection === connection && sameStatement(r.report.statement, sql));
  }

  get(id: string): StoredReport | undefined {
    return this.reports.find((r) => r.id === id);
  }

  add(entry: Omit<StoredReport, 'id' | 'savedAt'>): StoredReport {
    const stored: StoredReport = { id: randomUUID(), savedAt: new Date().toISOString(), ...entry };
    this.reports.unshift(stored);
    this.prune();
    this.save();
    return stored;
  }

  remove(id: string): boolean {
    const before = this.reports.length;
    this.reports = this.reports.filter((r) => r.id !== id);
    if (this.reports.length === before) return false;
    this.save();
    return true;
  }

  private prune(): void {
    if (this.reports.length > this.limits.maxReports) this.reports.length = this.limits.maxReports;
    let bytes = this.reports.reduce((a, r) => a + JSON.stringify(r).length, 0);
    while (bytes > this.limits.maxBytes && this.reports.length > 1) bytes -= JSON.stringify(this.reports.pop()).length;
  }
}
