// Connection profiles in the editor: the active one per workspace (status bar), the guided Add Connection
// flow (profile to settings, password to SecretStorage only), and Test Connection.
import * as vscode from 'vscode';
import { readConfig } from '../config';
import { profileTarget, type ConnectionProfile } from '../db/profile';
import type { ConnectionTarget } from '../db/connection-url';
import { serverNeeds } from '../measure/readiness';
import { ENGINES } from '../measure/engines';

const ACTIVE_KEY = 'bufferlens.activeConnection';
const secretKey = (name: string) => `bufferlens.password.${name}`;

export class ConnectionService implements vscode.Disposable {
  private readonly status: vscode.StatusBarItem;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly context: vscode.ExtensionContext) {
    this.status = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 50);
    this.status.command = 'bufferlens.selectConnection';
    this.refreshStatus();
    this.status.show();
  }

  active(): ConnectionProfile | undefined {
    const { connections } = readConfig();
    const name = this.context.workspaceState.get<string>(ACTIVE_KEY);
    return connections.find((c) => c.name === name) ?? (connections.length === 1 ? connections[0] : undefined);
  }

  refreshStatus(): void {
    const a = this.active();
    this.status.text = a ? `$(database) ${a.name}` : '$(database) BufferLens: no connection';
    this.status.tooltip = a ? `BufferLens measures on ${a.engine}://${a.user ?? ''}@${a.host ?? a.socket ?? ''}${a.port ? `:${a.port}` : ''}/${a.database ?? ''}` : 'Select or add a connection for BufferLens';
    this.changed.fire();
  }

  async target(profile: ConnectionProfile): Promise<ConnectionTarget> {
    return profileTarget(profile, await this.context.secrets.get(secretKey(profile.name)));
  }

  async select(): Promise<ConnectionProfile | undefined> {
    const { connections, problems } = readConfig();
    for (const p of problems) void vscode.window.showWarningMessage(`BufferLens: ${p}`);
    const items: Array<vscode.QuickPickItem & { profile?: ConnectionProfile }> = [
      ...connections.map((c) => ({ label: c.name, description: `${c.engine} ${c.host ?? c.socket ?? ''}`, profile: c })),
      { label: '$(add) Add Connection…' },
    ];
    const picked = await vscode.window.showQuickPick(items, { title: 'BufferLens: measure on which connection?' });
    if (!picked) return undefined;
    if (!picked.profile) return this.add();
    await this.context.workspaceState.update(ACTIVE_KEY, picked.profile.name);
    this.refreshStatus();
    return picked.profile;
  }

  async add(): Promise<ConnectionProfile | undefined> {
    const engine = await vscode.window.showQuickPick(
      Object.values(ENGINES).map((e) => ({ label: e.label, engine: e.id })),
      { title: 'Add Connection (1/6): engine' },
    );
    if (!engine) return undefined;
    const existing = readConfig().connections;
    const name = await vscode.window.showInputBox({
      title: 'Add Connection (2/6): a name',
      validateInput: (v) => (!v.trim() ? 'A name is needed' : existing.some((c) => c.name === v.trim()) ? 'That name is taken' : undefined),
    });
    if (!name) return undefined;
    const host = await vscode.window.showInputBox({ title: 'Add Connection (3/6): host', value: '127.0.0.1' });
    if (host === undefined) return undefined;
    const port = await vscode.window.showInputBox({
      title: 'Add Connection (4/6): port',
      value: String(ENGINES[engine.engine].defaultPort),
      validateInput: (v) => (/^\d+$/.test(v) && Number(v) > 0 && Number(v) < 65536 ? undefined : 'A port from 1 to 65535'),
    });
    if (port === undefined) return undefined;
    const userAndDb = await vscode.window.showInputBox({ title: 'Add Connection (5/6): user@database', value: ENGINES[engine.engine].defaultLogin });
    if (userAndDb === undefined) return undefined;
    const [user, database] = userAndDb.split('@');
    const password = await vscode.window.showInputBox({ title: 'Add Connection (6/6): password (kept in VS Code\'s secret storage; empty for none)', password: true });
    if (password === undefined) return undefined;
    const profile: ConnectionProfile = { name: name.trim(), engine: engine.engine, host, port: Number(port), ...(user ? { user } : {}), ...(database ? { database } : {}) };
    const config = vscode.workspace.getConfiguration('bufferlens');
    await config.update('connections', [...(config.get<unknown[]>('connections') ?? []), profile], vscode.ConfigurationTarget.Global);
    if (password) await this.context.secrets.store(secretKey(profile.name), password);
    await this.context.workspaceState.update(ACTIVE_KEY, profile.name);
    this.refreshStatus();
    void this.test(profile);
    return profile;
  }

  async test(profile = this.active()): Promise<void> {
    if (!profile) {
      void vscode.window.showInformationMessage('BufferLens: no connection to test. Add one first.');
      return;
    }
    const target = await this.target(profile);
    try {
      const engine = ENGINES[target.engine];
      const version = await engine.serverVersion(target);
      // Connected is not enough: what measuring needs is checked too, with the SQL that provides it.
      const needs = await serverNeeds(target);
      const missing = needs.filter((n) => !n.ok && !n.note);
      const head = `BufferLens: connected to ${profile.name}: ${version.split(',')[0]}`;
      const grants = 'Show Least-Privilege GRANTs';
      const fixIt = 'Show the SQL That Fixes It';
      const action = missing.length
        ? await vscode.window.showWarningMessage(`${head}, but: ${missing.map((n) => n.what).join('; ')}.`, ...(missing.some((n) => n.fix) ? [fixIt] : []), grants)
        : await vscode.window.showInformationMessage(`${head}. Everything BufferLens needs is there${needs.some((n) => n.note) ? ` (${needs.filter((n) => n.note).map((n) => n.what).join('; ')})` : ''}.`, grants);
      const content =
        action === fixIt
          ? missing.flatMap((n) => (n.fix ? [`-- ${n.what}`, n.fix, ''] : [])).join('\n')
          : action === grants
            ? engine.leastPrivilegeGrants(target.database) + '\n'
            : undefined;
      if (content) await vscode.window.showTextDocument(await vscode.workspace.openTextDocument({ language: 'sql', content }));
    } catch (err) {
      void vscode.window.showErrorMessage(`BufferLens: ${(err as Error).message}`);
    }
  }

  dispose(): void {
    this.status.dispose();
    this.changed.dispose();
  }
}
