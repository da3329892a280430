// The prompts of Add Connection and Edit Connection: a pasted URL, or one walk through engine, name, host
// (or socket), port, user and database, and the password (kept in VS Code's secret storage only),
// prefilled when editing; and one field changed alone when a connection fails. Every prompt stays open when
// focus moves (to copy a value from elsewhere, or as a panel opens): a walk dismissed halfway added nothing,
// with no word of why.
import * as vscode from 'vscode';
import { profileFromUrl, suggestedName, type ConnectionProfile, type ProfileField } from '../db/profile';
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
    : await vscode.window.showQuickPick<vscode.QuickPickItem & { engine?: ConnectionProfile['engine'] }>(
        [
          ...Object.values(ENGINES).map((e) => ({ label: e.label, engine: e.id })),
          { label: '$(link) Paste a Connection URL…', detail: 'postgres://… or mysql://…' },
        ],
        { title: `${verb} (1/6): engine, or a URL`, ignoreFocusOut: true },
      );
  if (!engine) return undefined;
  if (!engine.engine) return promptUrl(verb, taken);
  const name = await vscode.window.showInputBox({
    title: `${verb} (2/6): a name`,
    ignoreFocusOut: true,
    value: initial?.name ?? '',
    validateInput: (v) => (!v.trim() ? 'A name is needed' : taken.includes(v.trim()) ? 'That name is taken' : undefined),
  });
  if (!name) return undefined;
  const host = await vscode.window.showInputBox({
    title: `${verb} (3/6): host, or the path of a Unix socket`,
    ignoreFocusOut: true,
    value: initial?.socket ?? initial?.host ?? '127.0.0.1',
  });
  if (host === undefined) return undefined;
  const port = await vscode.window.showInputBox({
    title: `${verb} (4/6): port`,
    ignoreFocusOut: true,
    value: String(initial?.port ?? ENGINES[engine.engine].defaultPort),
    validateInput: (v) => (/^\d+$/.test(v) && Number(v) > 0 && Number(v) < 65536 ? undefined : 'A port from 1 to 65535'),
  });
  if (port === undefined) return undefined;
  const login = initial ? `${initial.user ?? ''}@${initial.database ?? ''}` : ENGINES[engine.engine].defaultLogin;
  const userAndDb = await vscode.window.showInputBox({ title: `${verb} (5/6): user@database`, value: login, ignoreFocusOut: true });
  if (userAndDb === undefined) return undefined;
  const [user, database] = userAndDb.split('@');
  const password = await promptPassword(`${verb} (6/6)`, initial !== undefined);
  if (password === null) return undefined;
  const profile: ConnectionProfile = {
    ...(initial ?? {}),
    name: name.trim(),
    engine: engine.engine,
    ...(host.startsWith('/') ? { socket: host } : { host }),
    port: Number(port),
    ...(user ? { user } : {}),
    ...(database ? { database } : {}),
  };
  if (host.startsWith('/')) delete profile.host;
  else delete profile.socket;
  if (!user) delete profile.user;
  if (!database) delete profile.database;
  return { profile, password };
}

/** The password prompt; null when dismissed, undefined when editing and left empty (keep the stored one). */
export async function promptPassword(title: string, keepable: boolean): Promise<string | undefined | null> {
  const v = await vscode.window.showInputBox({
    title: `${title}: password (kept in VS Code's secret storage${keepable ? '; empty keeps the stored one' : '; empty for none'})`,
    password: true,
    ignoreFocusOut: true,
  });
  if (v === undefined) return null;
  return keepable && v === '' ? undefined : v;
}

/** Add Connection from one pasted URL: its password, if it has one, goes to the secret storage only. */
async function promptUrl(verb: string, taken: string[]): Promise<ProfileAnswers | undefined> {
  const url = await vscode.window.showInputBox({
    title: `${verb}: connection URL`,
    placeHolder: 'postgres://user@host:5432/db?sslmode=require, or mysql://user@host:3306/db?socket=/run/mysqld/mysqld.sock',
    prompt: "A password in the URL is kept in VS Code's secret storage, never in settings",
    ignoreFocusOut: true,
    validateInput: (v) => {
      try {
        profileFromUrl('x', v.trim());
        return undefined;
      } catch (err) {
        return (err as Error).message;
      }
    },
  });
  if (!url) return undefined;
  const parsed = profileFromUrl('x', url.trim());
  const name = await vscode.window.showInputBox({
    title: `${verb}: a name`,
    ignoreFocusOut: true,
    value: suggestedName(parsed.profile),
    validateInput: (v) => (!v.trim() ? 'A name is needed' : taken.includes(v.trim()) ? 'That name is taken' : undefined),
  });
  if (!name) return undefined;
  const password = parsed.password ?? (await promptPassword(`${verb}`, false));
  if (password === null) return undefined;
  return { profile: { ...parsed.profile, name: name.trim() }, password };
}

const FIELD_LABEL: Record<ProfileField, string> = { host: 'Host', port: 'Port', database: 'Database', user: 'User', password: 'Password' };

/**
 * One field of a profile that did not connect, the likeliest first, changed in place: the rest of the
 * answers stay. Null when dismissed.
 */
export async function promptField(answers: ProfileAnswers, order: ProfileField[]): Promise<ProfileAnswers | null> {
  const p = answers.profile;
  const shown: Record<ProfileField, string> = {
    host: p.socket ?? p.host ?? '',
    port: String(p.port ?? ENGINES[p.engine].defaultPort),
    database: p.database ?? '',
    user: p.user ?? '',
    password: answers.password ? '••••' : '(none)',
  };
  const pick = await vscode.window.showQuickPick(
    order.map((f) => ({ label: FIELD_LABEL[f], description: shown[f], field: f })),
    { title: `Edit which field of ${p.name}?`, ignoreFocusOut: true },
  );
  if (!pick) return null;
  if (pick.field === 'password') {
    const password = await promptPassword(`Password for ${p.name}`, false);
    return password === null ? null : { profile: p, password: password ?? '' };
  }
  const value = await vscode.window.showInputBox({
    title: `${p.name}: ${FIELD_LABEL[pick.field].toLowerCase()}`,
    ignoreFocusOut: true,
    value: shown[pick.field],
    validateInput: (v) => (pick.field === 'port' && !(/^\d+$/.test(v) && Number(v) > 0 && Number(v) < 65536) ? 'A port from 1 to 65535' : undefined),
  });
  if (value === undefined) return null;
  const next: ConnectionProfile = { ...p };
  if (pick.field === 'port') next.port = Number(value);
  else if (pick.field === 'host') {
    delete next.host;
    delete next.socket;
    if (value.startsWith('/')) next.socket = value;
    else next.host = value;
  } else if (value) next[pick.field] = value;
  else delete next[pick.field];
  return { profile: next, password: answers.password };
}
