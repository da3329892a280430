// The "Reports" side view. Stored reports arrive with the report history; until then it explains itself.
import * as vscode from 'vscode';

export class ReportsViewProvider implements vscode.TreeDataProvider<vscode.TreeItem> {
  getTreeItem(item: vscode.TreeItem): vscode.TreeItem {
    return item;
  }

  getChildren(): vscode.TreeItem[] {
    const empty = new vscode.TreeItem('No reports yet');
    empty.description = 'measure a statement to create one';
    return [empty];
  }
}
