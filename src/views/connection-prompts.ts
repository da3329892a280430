// The prompts of Add Connection and Edit Connection: one walk through engine, name, host, port, user and
// database, and the password (kept in VS Code's secret storage only), prefilled when editing.
import * as vscode from 'vscode';
import type { ConnectionProfile } from '../db/profile';
import { ENGINES } from '../measure/engines';

export interface ProfileAnswers {
  profile: ConnectionProfile;
  /** undefined: keep the stored one (editing); '' : none. */
  password: string | undefined;
}

export async function promptProfile(
  verb: 'Add Connection' | 'Edit Connection',
  taken: string[],
  initial?: ConnectionProfile,
): Promise<ProfileAnswers | undefined> {
  const engine = initial
    ? { engine: initial.engine }
    : await vscode.window.showQuickPick(
        Object.values(ENGINES).map((e) => ({ label: e.label, engine: e.id })),
        { title: `${verb} (1/6): engine` },
      );
  if (!engine) return undefined;
  const name = await vscode.window.showInputBox({
    title: `${verb} (2/6): a name`,
    value: initial?.name ?? '',
    validateInput: (v) => (!v.trim() ? 'A name is needed' : taken.includes(v.trim()) ? 'That name is taken' : undefined),
  });
  if (!name) return undefined;
  const host = await vscode.window.showInputBox({ title: `${verb} (3/6): host`, value: initial?.host ?? '127.0.0.1' });
  if (host === undefined) return undefined;
  const port = await vscode.window.showInputBox({
    title: `${verb} (4/6): port`,
    value: String(initial?.port ?? ENGINES[engine.engine].defaultPort),
    validateInput: (v) => (/^\d+$/.test(v) && Number(v) > 0 && Number(v) < 65536 ? undefined : 'A port from 1 to 65535'),
  });
  if (port === undefined) return undefined;
  const login = initial ? `${initial.user ?? ''}@${initial.database ?? ''}` : ENGINES[engine.engine].defaultLogin;
  const userAndDb = await vscode.window.showInputBox({ title: `${verb} (5/6): user@database`, value: login });
  if (userAndDb === undefined) return undefined;
  const [user, database] = userAndDb.split('@');
  const password = await promptPassword(`${verb} (6/6)`, initial !== undefined);
  if (password === null) return undefined;
  const profile: ConnectionProfile = {
    ...(initial ?? {}),
    name: name.trim(),
    engine: engine.engine,
    host,
    port: Number(port),
    ...(user ? { user } : {}),
    ...(database ? { database } : {}),
  };
  if (!user) delete profile.user;
  if (!database) delete profile.database;
  return { profile, password };
}

/** The password prompt; null when dismissed, undefined when editing and left empty (keep the stored one). */
export async function promptPassword(title: string, keepable: boolean): Promise<string | undefined | null> {
  const v = await vscode.window.showInputBox({
    title: `${title}: password (kept in VS Code's secret storage${keepable ? '; empty keeps the stored one' : '; empty for none'})`,
    password: true,
  });
  if (v === undefined) return null;
  return keepable && v === '' ? undefined : v;
}
