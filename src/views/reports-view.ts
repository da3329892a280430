// The "Reports" side view: every stored report, newest first, by file and statement, with headline numbers.
import * as vscode from 'vscode';
import { basename } from 'node:path';
import type { ReportStore, StoredReport } from '../store/report-store';

export class ReportItem extends vscode.TreeItem {
  constructor(readonly stored: StoredReport) {
    super(stored.report.statement.replace(/\s+/g, ' ').slice(0, 80), vscode.TreeItemCollapsibleState.None);
    this.description = `${stored.file ? `${basename(stored.file)} · ` : ''}${new Date(stored.savedAt).toLocaleString()}`;
    this.tooltip = new vscode.MarkdownString(`**${stored.connection}** — ${stored.summary}\n\n\`\`\`sql\n${stored.report.statement}\n\`\`\``);
    this.contextValue = 'report';
    this.id = stored.id;
    this.command = { command: 'bufferlens.openReport', title: 'Open Report', arguments: [stored.id] };
  }
}

export class ReportsViewProvider implements vscode.TreeDataProvider<vscode.TreeItem> {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(private readonly store: ReportStore) {}

  refresh(): void {
    this.changed.fire();
  }

  getTreeItem(item: vscode.TreeItem): vscode.TreeItem {
    return item;
  }

  getChildren(): vscode.TreeItem[] {
    const reports = this.store.list();
    if (reports.length) return reports.map((r) => new ReportItem(r));
    const empty = new vscode.TreeItem('No reports yet');
    empty.description = 'measure a statement to create one';
    return [empty];
  }
}
