// The "Reports" side view: every stored report, newest first, by file and statement, with headline numbers.
import * as vscode from 'vscode';
import { basename } from 'node:path';
import type { ReportStore, StoredReport } from '../store/report-store';
import { oneLine } from '../shared/export-name';
import { formatCount } from '../shared/format';
import { PRODUCT_NAME } from '../shared/report-view';

export class ReportItem extends vscode.TreeItem {
  constructor(readonly stored: StoredReport) {
    super(oneLine(stored.report.statement, 48), vscode.TreeItemCollapsibleState.None);
    // What tells two reports of one statement apart comes first: the numbers and the time, then where.
    const r = stored.report.runs[0];
    const headline = r ? `${formatCount(r.measured.logicalReads)} logical, ${formatCount(r.measured.physicalReads)} from disk` : '';
    const when = new Date(stored.savedAt).toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    this.description = [headline, when, `${PRODUCT_NAME[stored.report.engine.product]} on ${stored.connection}`, stored.file ? basename(stored.file) : '']
      .filter(Boolean)
      .join(' · ');
    this.tooltip = new vscode.MarkdownString(
      `**${stored.connection}** (${PRODUCT_NAME[stored.report.engine.product]} ${stored.report.engine.version}) — ` +
        `${new Date(stored.savedAt).toLocaleString()}${stored.file ? ` — ${stored.file}` : ''}\n\n${stored.summary}\n\n` +
        `\`\`\`sql\n${stored.report.statement}\n\`\`\``,
    );
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
