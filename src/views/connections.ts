// Connection profiles in the editor: the active one per workspace (status bar), the guided Add Connection
// flow (profile to settings, password to SecretStorage only), and Test Connection.
import * as vscode from 'vscode';
import { readConfig } from '../config';
import { profileTarget, suspectFields, type ConnectionProfile } from '../db/profile';
import type { ConnectionTarget } from '../db/connection-url';
import { serverNeeds } from '../measure/readiness';
import { ENGINES } from '../measure/engines';
import { promptField, promptPassword, promptProfile, type ProfileAnswers } from './connection-prompts';
import type { Log } from './log';

const ACTIVE_KEY = 'bufferlens.activeConnection';
/** Each document's own connection, by URI: a connection belongs to a document, the active one is the default. */
const DOCUMENT_KEY = 'bufferlens.documentConnections';
const secretKey = (name: string) => `bufferlens.password.${name}`;

/** The SQL document in the active editor, the one a connection chosen now is for. */
function sqlDocument(): vscode.Uri | undefined {
  const doc = vscode.window.activeTextEditor?.document;
  return doc && doc.languageId === 'sql' ? doc.uri : undefined;
}

export class ConnectionService implements vscode.Disposable {
  private readonly status: vscode.StatusBarItem;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly chosen = new vscode.EventEmitter<void>();
  /** A document's connection, or the default, was chosen anew (not merely the editor in front changed). */
  readonly onDidChangeChoice = this.chosen.event;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: Log,
  ) {
    this.status = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 50);
    this.status.command = 'bufferlens.selectConnection';
    this.refreshStatus();
    this.status.show();
    // The status bar shows the connection of the file in front, or of the report in front.
    this.disposables.push(
      vscode.window.onDidChangeActiveTextEditor((editor) => {
        if (editor) this.reportInFront = undefined;
        this.refreshStatus();
      }),
    );
  }

  /** The connection of a document (its own, else the workspace default), or the default. */
  active(uri: vscode.Uri | undefined = vscode.window.activeTextEditor?.document.uri): ConnectionProfile | undefined {
    const { connections } = readConfig();
    const own = uri ? this.documentConnections()[uri.toString()] : undefined;
    const byName = (n: string | undefined) => (n ? connections.find((c) => c.name === n) : undefined);
    return byName(own) ?? byName(this.context.workspaceState.get<string>(ACTIVE_KEY)) ?? (connections.length === 1 ? connections[0] : undefined);
  }

  /** The workspace default alone, whatever document is open. */
  defaultConnection(): ConnectionProfile | undefined {
    return this.active(undefined);
  }

  documentConnections(): Record<string, string> {
    return this.context.workspaceState.get<Record<string, string>>(DOCUMENT_KEY) ?? {};
  }

  /** Documents of a renamed connection follow it; those of a removed one fall back to the default. */
  private async renameInDocuments(from: string, to: string | undefined): Promise<void> {
    const next = Object.fromEntries(Object.entries(this.documentConnections()).flatMap(([uri, n]) => (n !== from ? [[uri, n]] : to ? [[uri, to]] : [])));
    await this.context.workspaceState.update(DOCUMENT_KEY, next);
  }

  /** Makes a profile the document's connection, and the workspace default where there is none yet. */
  private async assign(profile: ConnectionProfile, uri: vscode.Uri | undefined): Promise<void> {
    this.log.info(`${uri ? uri.path.split('/').pop() : 'the workspace'} measures on ${profile.name}`);
    this.chosen.fire();
    if (uri) await this.context.workspaceState.update(DOCUMENT_KEY, { ...this.documentConnections(), [uri.toString()]: profile.name });
    if (!uri || !this.context.workspaceState.get<string>(ACTIVE_KEY)) await this.context.workspaceState.update(ACTIVE_KEY, profile.name);
  }

  /** The connection of the report panel in front, which the status bar names while no file is in front. */
  private reportInFront: string | undefined;

  reportFocused(connection: string | undefined): void {
    this.reportInFront = connection;
    this.refreshStatus();
  }

  refreshStatus(): void {
    const shown = !vscode.window.activeTextEditor && this.reportInFront ? readConfig().connections.find((c) => c.name === this.reportInFront) : undefined;
    if (shown) {
      this.status.text = `$(database) ${shown.name}`;
      this.status.tooltip = `The report in front was measured on ${shown.name}`;
      return void this.changed.fire();
    }
    const a = this.active();
    this.status.text = a ? `$(database) ${a.name}` : '$(database) BufferLens: no connection';
    this.status.tooltip = a
      ? `BufferLens measures on ${a.engine}://${a.user ?? ''}@${a.host ?? a.socket ?? ''}${a.port ? `:${a.port}` : ''}/${a.database ?? ''}`
      : 'Select or add a connection for BufferLens';
    this.changed.fire();
  }

  async target(profile: ConnectionProfile): Promise<ConnectionTarget> {
    return profileTarget(profile, await this.context.secrets.get(secretKey(profile.name)));
  }

  /** A profile picked from the Connections view becomes the connection of the file in front. */
  async choose(profile: ConnectionProfile): Promise<ConnectionProfile> {
    await this.assign(profile, sqlDocument());
    this.refreshStatus();
    return profile;
  }

  async select(): Promise<ConnectionProfile | undefined> {
    const { connections, problems } = readConfig();
    for (const p of problems) void vscode.window.showWarningMessage(`BufferLens: ${p}`);
    const items: Array<vscode.QuickPickItem & { profile?: ConnectionProfile }> = [
      ...connections.map((c) => ({ label: c.name, description: `${c.engine} ${c.host ?? c.socket ?? ''}`, profile: c })),
      { label: '$(add) Add Connection…' },
    ];
    const uri = sqlDocument();
    const picked = await vscode.window.showQuickPick(items, {
      title: uri ? `BufferLens: measure ${uri.path.split('/').pop()} on which connection?` : 'BufferLens: measure on which connection?',
    });
    if (!picked) return undefined;
    if (!picked.profile) return this.add();
    await this.assign(picked.profile, uri);
    this.refreshStatus();
    return picked.profile;
  }

  async add(): Promise<ConnectionProfile | undefined> {
    const answers = await promptProfile(
      'Add Connection',
      readConfig().connections.map((c) => c.name),
    );
    if (!answers) return undefined;
    const working = await this.confirmWorking({ ...answers, password: answers.password ?? '' });
    if (!working) return undefined;
    const { profile, password } = working;
    // A workspace whose one connection was its default by being the only one keeps it as its default: the
    // files that used it do not move to the new connection.
    const before = readConfig().connections;
    if (before.length === 1 && !this.context.workspaceState.get<string>(ACTIVE_KEY)) await this.context.workspaceState.update(ACTIVE_KEY, before[0].name);
    const config = vscode.workspace.getConfiguration('bufferlens');
    await config.update('connections', [...(config.get<unknown[]>('connections') ?? []), profile], vscode.ConfigurationTarget.Global);
    await this.storePassword(profile.name, password);
    // The new connection is this file's; it becomes the workspace default only where there is none.
    await this.assign(profile, sqlDocument());
    this.log.info(`connection ${profile.name} added (${profile.engine})`);
    this.refreshStatus();
    void this.test(profile);
    return profile;
  }

  /**
   * Connects before a profile is saved. On failure the user re-enters the password, edits the field the
   * failure points at (the others stay as answered), saves anyway, or stops: a profile that does not
   * connect is kept only if they say so. The answers to store, or undefined to stop.
   */
  private async confirmWorking(answers: ProfileAnswers): Promise<ProfileAnswers | undefined> {
    for (;;) {
      try {
        await ENGINES[answers.profile.engine].serverVersion(profileTarget(answers.profile, answers.password || undefined));
        return answers;
      } catch (err) {
        const message = (err as Error).message;
        const reenter = 'Re-enter Password';
        const editField = 'Edit a Field…';
        const keep = 'Save Anyway';
        const choice = await vscode.window.showWarningMessage(
          `BufferLens: ${answers.profile.name} does not connect: ${message}`,
          { modal: true },
          editField,
          reenter,
          keep,
        );
        this.log.error(`${answers.profile.name} does not connect: ${message}`);
        if (choice === keep) return answers;
        if (choice === editField) {
          const next = await promptField(answers, suspectFields(message));
          if (next === null) return undefined;
          answers = next;
          continue;
        }
        if (choice !== reenter) return undefined;
        const next = await promptPassword(`Password for ${answers.profile.name}`, false);
        if (next === null) return undefined;
        answers = { ...answers, password: next ?? '' };
      }
    }
  }

  private async storePassword(name: string, password: string | undefined): Promise<void> {
    if (password === undefined) return;
    if (password) await this.context.secrets.store(secretKey(name), password);
    else await this.context.secrets.delete(secretKey(name));
  }

  private async pick(title: string, profile?: ConnectionProfile): Promise<ConnectionProfile | undefined> {
    if (profile) return profile;
    const { connections } = readConfig();
    if (!connections.length) {
      void vscode.window.showInformationMessage('BufferLens: there is no connection yet. Add one with BufferLens: Add Connection.');
      return undefined;
    }
    const picked = await vscode.window.showQuickPick(
      connections.map((c) => ({ label: c.name, description: `${c.engine} ${c.host ?? c.socket ?? ''}`, profile: c })),
      { title },
    );
    return picked?.profile;
  }

  async edit(chosen?: ConnectionProfile): Promise<void> {
    const old = await this.pick('Edit which connection?', chosen);
    if (!old) return;
    const answers = await promptProfile(
      'Edit Connection',
      readConfig()
        .connections.map((c) => c.name)
        .filter((n) => n !== old.name),
      old,
    );
    if (!answers) return;
    const stored = (await this.context.secrets.get(secretKey(old.name))) ?? '';
    const working = await this.confirmWorking({ ...answers, password: answers.password ?? stored });
    if (!working) return;
    const { profile, password } = working;
    const config = vscode.workspace.getConfiguration('bufferlens');
    const list = (config.get<Array<{ name?: string }>>('connections') ?? []).map((c) => (c.name === old.name ? profile : c));
    await config.update('connections', list, vscode.ConfigurationTarget.Global);
    if (profile.name !== old.name) {
      await this.context.secrets.delete(secretKey(old.name));
      await this.renameInDocuments(old.name, profile.name);
    }
    await this.storePassword(profile.name, password);
    if (this.context.workspaceState.get<string>(ACTIVE_KEY) === old.name) await this.context.workspaceState.update(ACTIVE_KEY, profile.name);
    this.log.info(`connection ${old.name} edited`);
    this.refreshStatus();
  }

  /** A profile's settings entry replaced under the same name (a field edited after a failed test). */
  private async replaceProfile(name: string, profile: ConnectionProfile): Promise<void> {
    const config = vscode.workspace.getConfiguration('bufferlens');
    const list = (config.get<Array<{ name?: string }>>('connections') ?? []).map((c) => (c.name === name ? profile : c));
    await config.update('connections', list, vscode.ConfigurationTarget.Global);
  }

  async remove(profile?: ConnectionProfile): Promise<void> {
    const p = await this.pick('Remove which connection?', profile);
    if (!p) return;
    const choice = await vscode.window.showWarningMessage(
      `BufferLens: remove the connection ${p.name}?`,
      { modal: true, detail: 'Its settings entry and its stored password are removed; reports measured on it stay in the history.' },
      'Remove',
    );
    if (choice !== 'Remove') return;
    const config = vscode.workspace.getConfiguration('bufferlens');
    await config.update(
      'connections',
      (config.get<Array<{ name?: string }>>('connections') ?? []).filter((c) => c.name !== p.name),
      vscode.ConfigurationTarget.Global,
    );
    await this.context.secrets.delete(secretKey(p.name));
    await this.renameInDocuments(p.name, undefined);
    if (this.context.workspaceState.get<string>(ACTIVE_KEY) === p.name) await this.context.workspaceState.update(ACTIVE_KEY, undefined);
    this.refreshStatus();
  }

  /** Asks for a connection's password and stores it; true when one was given. */
  async setPassword(profile?: ConnectionProfile): Promise<boolean> {
    const p = await this.pick('Set the password of which connection?', profile);
    if (!p) return false;
    const password = await promptPassword(`Password for ${p.name}`, false);
    if (password === null) return false;
    // Tested before it is kept: a wrong password is said now, not at the next measurement.
    const working = await this.confirmWorking({ profile: p, password: password ?? '' });
    if (!working) return false;
    if (working.profile !== p) await this.replaceProfile(p.name, working.profile);
    await this.storePassword(p.name, working.password);
    this.log.info(`password of ${p.name} set`);
    return true;
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
        ? await vscode.window.showWarningMessage(
            `${head}, but: ${missing.map((n) => n.what).join('; ')}.`,
            ...(missing.some((n) => n.fix) ? [fixIt] : []),
            grants,
          )
        : await vscode.window.showInformationMessage(
            `${head}. Everything BufferLens needs is there${
              needs.some((n) => n.note)
                ? ` (${needs
                    .filter((n) => n.note)
                    .map((n) => n.what)
                    .join('; ')})`
                : ''
            }.`,
            grants,
          );
      const content =
        action === fixIt
          ? missing.flatMap((n) => (n.fix ? [`-- ${n.what}`, n.fix, ''] : [])).join('\n')
          : action === grants
            ? engine.leastPrivilegeGrants(target.database) + '\n'
            : undefined;
      if (content) await vscode.window.showTextDocument(await vscode.workspace.openTextDocument({ language: 'sql', content }));
    } catch (err) {
      void this.log.showError(`${profile.name}: ${(err as Error).message}`);
    }
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
    this.status.dispose();
    this.changed.dispose();
    this.chosen.dispose();
  }
}
