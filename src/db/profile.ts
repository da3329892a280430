// Connection profiles as the settings hold them (no password), turned into a ConnectionTarget.
import { parseConnectionUrl, type ConnectionTarget } from './connection-url';

export interface ConnectionProfile {
  name: string;
  engine: 'postgresql' | 'mysql';
  host?: string;
  port?: number;
  user?: string;
  database?: string;
  socket?: string;
  ssl?: { mode?: 'disable' | 'require' | 'verify-ca' | 'verify-full'; ca?: string; cert?: string; key?: string };
}

/** A profile from settings, checked: anything malformed is reported, not guessed. */
export function parseProfile(value: unknown): ConnectionProfile | string {
  if (typeof value !== 'object' || value === null) return 'a connection profile must be an object';
  const v = value as Record<string, unknown>;
  if (typeof v.name !== 'string' || !v.name.trim()) return 'a connection profile needs a name';
  if (v.engine !== 'postgresql' && v.engine !== 'mysql') return `connection "${v.name}": engine must be postgresql or mysql`;
  if (v.port !== undefined && (typeof v.port !== 'number' || !Number.isInteger(v.port) || v.port < 1 || v.port > 65535))
    return `connection "${v.name}": bad port`;
  if ('password' in v) return `connection "${v.name}": a password does not belong in settings; BufferLens keeps it in VS Code's secret storage`;
  return v as unknown as ConnectionProfile;
}

/** The password comes from secret storage, else the environment the drivers read (PGPASSWORD, MYSQL_PWD, ~/.pgpass via pg). */
export function profileTarget(p: ConnectionProfile, password: string | undefined, env: NodeJS.ProcessEnv = process.env): ConnectionTarget {
  const t: ConnectionTarget = { engine: p.engine };
  if (p.host) t.host = p.host;
  if (p.port) t.port = p.port;
  if (p.user) t.user = p.user;
  if (p.database) t.database = p.database;
  if (p.socket) t.socket = p.socket;
  if (p.ssl?.mode) t.sslMode = p.ssl.mode;
  if (!t.host && !t.socket) t.host = p.engine === 'postgresql' ? (env.PGHOST ?? '127.0.0.1') : (env.MYSQL_HOST ?? '127.0.0.1');
  const pw = password ?? (p.engine === 'postgresql' ? env.PGPASSWORD : env.MYSQL_PWD);
  if (pw !== undefined && pw !== '') t.password = pw;
  return t;
}

/**
 * A profile from a pasted URL (postgres://…, mysql://…, with ?host=/dir, ?socket=/path, ?sslmode=): what
 * settings keep, and the URL's own password apart, for the secret storage (never the environment's).
 */
export function profileFromUrl(name: string, url: string): { profile: ConnectionProfile; password?: string } {
  const t = parseConnectionUrl(url, {});
  const profile: ConnectionProfile = { name, engine: t.engine };
  if (t.host) profile.host = t.host;
  if (t.port) profile.port = t.port;
  if (t.user) profile.user = t.user;
  if (t.database) profile.database = t.database;
  if (t.socket) profile.socket = t.socket;
  if (t.sslMode) profile.ssl = { mode: t.sslMode };
  return t.password !== undefined ? { profile, password: t.password } : { profile };
}

/** A name for a profile made from a URL: user@host/database, as a person would say it. */
export function suggestedName(p: Pick<ConnectionProfile, 'user' | 'host' | 'socket' | 'database'>): string {
  return `${p.user ? `${p.user}@` : ''}${p.host ?? 'socket'}${p.database ? `/${p.database}` : ''}`;
}

export type ProfileField = 'host' | 'port' | 'database' | 'user' | 'password';

/** The fields a failed connection points at, likeliest first, from the driver's message; every field comes once. */
export function suspectFields(message: string): ProfileField[] {
  const first: ProfileField[] = /database .* does not exist|unknown database/i.test(message)
    ? ['database']
    : /password|access denied|authentication/i.test(message)
      ? ['password', 'user']
      : /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EHOSTUNREACH|timed? ?out|connect/i.test(message)
        ? ['host', 'port']
        : /role .* does not exist/i.test(message)
          ? ['user']
          : [];
  const all: ProfileField[] = ['host', 'port', 'database', 'user', 'password'];
  return [...first, ...all.filter((f) => !first.includes(f))];
}
