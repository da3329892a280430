// Opening MySQL/MariaDB connections from a ConnectionTarget, and turning driver errors into one clear line.
import { readFileSync } from 'node:fs';
import { createConnection, type Connection, type ConnectionOptions } from 'mysql2/promise';
import { describeTarget, type ConnectionTarget } from './connection-url';
import { MeasureError } from './errors';
import { networkErrorMessage } from './network-errors';

export function mysqlOptions(t: ConnectionTarget): ConnectionOptions {
  const options: ConnectionOptions = {
    user: t.user ?? process.env.MYSQL_USER ?? process.env.USER,
    password: t.password,
    database: t.database || undefined,
    connectTimeout: 10_000,
    supportBigNumbers: true,
    bigNumberStrings: false,
    dateStrings: true,
    multipleStatements: false,
  };
  if (t.socket) options.socketPath = t.socket;
  else {
    options.host = t.host ?? process.env.MYSQL_HOST ?? '127.0.0.1';
    options.port = t.port ?? (process.env.MYSQL_TCP_PORT ? Number(process.env.MYSQL_TCP_PORT) : 3306);
  }
  if (t.sslMode && t.sslMode !== 'disable') {
    options.ssl = {
      rejectUnauthorized: t.sslMode !== 'require',
      ...(process.env.MYSQL_SSL_CA ? { ca: readFileSync(process.env.MYSQL_SSL_CA, 'utf8') } : {}),
    };
  }
  return options;
}

interface MysqlError {
  code?: string;
  errno?: number;
  message: string;
  sqlMessage?: string;
}

export function mysqlConnectionErrorMessage(err: unknown, t: ConnectionTarget): string {
  const e = err as MysqlError;
  const where = describeTarget(t);
  const network = networkErrorMessage(e.code, where, t.socket, 'MySQL/MariaDB');
  if (network) return network;
  switch (e.code) {
    case 'ER_ACCESS_DENIED_ERROR':
      return `access denied for user "${t.user ?? ''}" at ${where} (wrong password, or no such user from this host)`;
    case 'ER_BAD_DB_ERROR':
      return `database "${t.database ?? ''}" does not exist at ${where}`;
    case 'HANDSHAKE_NO_SSL_SUPPORT':
      return `TLS failed with ${where}: the server does not support TLS`;
  }
  if (/SSL|TLS|certificate/i.test(e.message)) return `TLS failed with ${where}: ${e.message}`;
  return `cannot connect to ${where}: ${e.sqlMessage ?? e.message}`;
}

export async function connectMysql(t: ConnectionTarget): Promise<Connection> {
  try {
    const conn = await createConnection(mysqlOptions(t));
    // A connection that dies while idle must not crash the process; the next query reports it.
    conn.on('error', () => undefined);
    return conn;
  } catch (err) {
    throw new MeasureError(mysqlConnectionErrorMessage(err, t), 'connection');
  }
}

/** What the server says it is (Test Connection). */
export async function mysqlVersion(t: ConnectionTarget): Promise<string> {
  const c = await connectMysql(t);
  try {
    return ((await c.query('SELECT VERSION() AS v'))[0] as Array<{ v: string }>)[0].v;
  } finally {
    await c.end().catch(() => c.destroy());
  }
}
