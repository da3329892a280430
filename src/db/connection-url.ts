// Connection URLs as the CLI contract states them. The password never leaves this object:
// describeTarget() is what logs and reports show.

export type EngineFamily = 'postgresql' | 'mysql';

export interface ConnectionTarget {
  engine: EngineFamily;
  host?: string;
  port?: number;
  user?: string;
  database?: string;
  /** PostgreSQL: socket directory; MySQL/MariaDB: socket file. */
  socket?: string;
  password?: string;
  /** libpq-style sslmode; 'disable' when absent. */
  sslMode?: 'disable' | 'require' | 'verify-ca' | 'verify-full';
}

export class BadUrlError extends Error {}

const SCHEMES: Record<string, EngineFamily> = {
  'postgres:': 'postgresql',
  'postgresql:': 'postgresql',
  'mysql:': 'mysql',
  'mariadb:': 'mysql',
};

export function parseConnectionUrl(text: string, env: NodeJS.ProcessEnv = process.env): ConnectionTarget {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new BadUrlError(`not a URL: ${redact(text)} (expected postgres://user@host:port/db or mysql://user@host:port/db)`);
  }
  const engine = SCHEMES[url.protocol];
  if (!engine) throw new BadUrlError(`unsupported URL scheme "${url.protocol}" (use postgres://, postgresql:// or mysql://)`);
  const target: ConnectionTarget = { engine };
  if (url.hostname) target.host = decode(url.hostname.replace(/^\[|\]$/g, ''), 'host');
  if (url.port) {
    const port = Number(url.port);
    if (!Number.isInteger(port) || port < 1 || port > 65535) throw new BadUrlError(`bad port in URL: ${url.port}`);
    target.port = port;
  }
  if (url.username) target.user = decode(url.username, 'user');
  const db = decode(url.pathname.replace(/^\//, ''), 'database');
  if (db.includes('/')) throw new BadUrlError(`bad database name in URL: ${db}`);
  if (db) target.database = db;
  const params = url.searchParams;
  for (const key of params.keys()) {
    if (!['socket', 'host', 'sslmode'].includes(key)) throw new BadUrlError(`unknown URL parameter "${key}"`);
  }
  const socket = engine === 'postgresql' ? params.get('host') : params.get('socket');
  if (socket) target.socket = socket;
  const sslMode = params.get('sslmode');
  if (sslMode) {
    if (!['disable', 'require', 'verify-ca', 'verify-full'].includes(sslMode)) throw new BadUrlError(`bad sslmode "${sslMode}"`);
    target.sslMode = sslMode as ConnectionTarget['sslMode'];
  }
  if (!target.host && !target.socket) throw new BadUrlError('the URL names no host (and no socket)');
  const password = url.password ? decode(url.password, 'password') : engine === 'postgresql' ? env.PGPASSWORD : env.MYSQL_PWD;
  if (password !== undefined) target.password = password;
  return target;
}

/** The URL as it may be shown: never with a password. */
export function describeTarget(t: ConnectionTarget): string {
  const scheme = t.engine === 'postgresql' ? 'postgres' : 'mysql';
  const user = t.user ? `${encodeURIComponent(t.user)}@` : '';
  const host = t.host ? (t.host.includes(':') ? `[${t.host}]` : t.host) : '';
  const port = t.port ? `:${t.port}` : '';
  const socket = t.socket ? `?${t.engine === 'postgresql' ? 'host' : 'socket'}=${t.socket}` : '';
  return `${scheme}://${user}${host}${port}/${t.database ?? ''}${socket}`;
}

/**
 * Removes whatever could be a password from a URL-like string before it is shown: everything between the
 * scheme and the last '@' (a malformed URL may have a space, a second '@' or a stray '%' in its password).
 */
export function redact(text: string): string {
  return text.replace(/^(\s*[A-Za-z][\w+.-]*:\/\/)[\s\S]*@/, '$1***@');
}

/** Percent-decoding that says which part of the URL is wrong instead of "URI malformed". */
function decode(part: string, what: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw new BadUrlError(`bad percent-encoding in the URL's ${what} (write a literal % as %25)`);
  }
}
