// The "Connections" side view: every profile, the one of the file in front and the workspace default
// marked, with Select, Test, Edit, Set Password and Remove on each (as SQLTools and the Microsoft extension
// manage theirs from a view).
import * as vscode from 'vscode';
import { readConfig } from '../config';
import type { ConnectionProfile } from '../db/profile';
import type { ConnectionService } from './connections';

export class ConnectionItem extends vscode.TreeItem {
  constructor(
    readonly profile: ConnectionProfile,
    forFile: boolean,
    isDefault: boolean,
  ) {
    super(profile.name, vscode.TreeItemCollapsibleState.None);
    const address = `${profile.host ?? profile.socket ?? ''}${profile.port ? `:${profile.port}` : ''}`;
    const where = `${profile.engine} · ${profile.user ?? ''}@${address}/${profile.database ?? ''}`;
    this.description = [forFile ? 'this file' : '', isDefault ? 'default' : '', where].filter(Boolean).join(' · ');
    this.tooltip = `${profile.name}: ${where}${forFile ? '\nThe connection of the file in front.' : ''}${isDefault ? '\nThe workspace default.' : ''}`;
    this.iconPath = new vscode.ThemeIcon(forFile ? 'database' : 'circle-outline');
    this.contextValue = 'connection';
    this.command = { command: 'bufferlens.selectConnection', title: 'Select Connection', arguments: [this] };
  }
}

export class ConnectionsViewProvider implements vscode.TreeDataProvider<vscode.TreeItem>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly connections: ConnectionService) {
    this.subscription = connections.onDidChange(() => this.changed.fire());
  }

  getTreeItem(item: vscode.TreeItem): vscode.TreeItem {
    return item;
  }

  getChildren(): vscode.TreeItem[] {
    const { connections } = readConfig();
    if (!connections.length) {
      const add = new vscode.TreeItem('Add a connection…');
      add.command = { command: 'bufferlens.addConnection', title: 'Add Connection' };
      add.iconPath = new vscode.ThemeIcon('add');
      return [add];
    }
    const current = this.connections.active()?.name;
    const fallback = this.connections.defaultConnection()?.name;
    return connections.map((c) => new ConnectionItem(c, c.name === current, c.name === fallback));
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
