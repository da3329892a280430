// Database servers refuse to run as root, and a test run that dies must not leave servers behind.
// Every local server is therefore started through util-linux `setpriv`, which drops to the server's own
// system user when we are root and asks the kernel to kill the server when its parent process dies.
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync } from 'node:fs';
import { userInfo } from 'node:os';

export interface OwnerIds {
  uid: number;
  gid: number;
  user: string;
}

export function isRoot(): boolean {
  return process.getuid?.() === 0;
}

/** The ids of a system user, or undefined when it does not exist. */
export function lookupUser(user: string): OwnerIds | undefined {
  try {
    const uid = Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', user], { encoding: 'utf8' }).trim());
    return { uid, gid, user };
  } catch {
    return undefined;
  }
}

/**
 * The user a server runs as: the current one, or (as root) the named service user, created when missing
 * as the engines' own installers would.
 */
export function serverOwner(serviceUser: string): OwnerIds {
  if (!isRoot()) {
    const me = userInfo();
    return { uid: me.uid, gid: me.gid, user: me.username };
  }
  const found = lookupUser(serviceUser);
  if (found) return found;
  execFileSync('useradd', ['--system', '--user-group', '--no-create-home', serviceUser]);
  const created = lookupUser(serviceUser);
  if (!created) throw new Error(`could not create the system user ${serviceUser} to run the server as`);
  return created;
}

export function giveTo(owner: OwnerIds, ...paths: string[]): void {
  if (!isRoot()) return;
  for (const p of paths) if (existsSync(p)) chownSync(p, owner.uid, owner.gid);
}

const SETPRIV = '/usr/bin/setpriv';

/** Command and arguments that run `command` as `owner` and die with this process. */
export function ownedCommand(owner: OwnerIds, command: string, args: string[]): [string, string[]] {
  if (!existsSync(SETPRIV)) return [command, args];
  const drop = isRoot() ? ['--reuid', String(owner.uid), '--regid', String(owner.gid), '--init-groups'] : [];
  return [SETPRIV, [...drop, '--pdeathsig', 'KILL', '--', command, ...args]];
}
