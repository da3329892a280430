// Opening PostgreSQL connections from a ConnectionTarget, and turning driver errors into one clear line.
import { readFileSync } from 'node:fs';
import { Client, type ClientConfig } from 'pg';
import { describeTarget, type ConnectionTarget } from './connection-url';
import { MeasureError } from './errors';
import { networkErrorMessage } from './network-errors';

export function clientConfig(t: ConnectionTarget, extra: Partial<ClientConfig> = {}): ClientConfig {
  const config: ClientConfig = {
    host: t.socket ?? t.host,
    port: t.port ?? 5432,
    user: t.user ?? process.env.PGUSER ?? process.env.USER,
    database: t.database ?? process.env.PGDATABASE,
    password: t.password,
    connectionTimeoutMillis: 10_000,
    application_name: 'bufferlens',
    ...extra,
  };
  if (t.sslMode && t.sslMode !== 'disable') {
    config.ssl = {
      rejectUnauthorized: t.sslMode === 'verify-ca' || t.sslMode === 'verify-full',
      ...(process.env.PGSSLROOTCERT ? { ca: readFileSync(process.env.PGSSLROOTCERT, 'utf8') } : {}),
      ...(t.sslMode === 'verify-ca' ? { checkServerIdentity: () => undefined } : {}),
    };
  }
  return config;
}

interface PgError {
  code?: string;
  message: string;
  position?: string;
  severity?: string;
}

/** One line for a failure to connect. */
export function connectionErrorMessage(err: unknown, t: ConnectionTarget): string {
  const e = err as PgError;
  const where = describeTarget(t);
  const network = networkErrorMessage(e.code, where, t.socket, 'PostgreSQL');
  if (network) return network;
  switch (e.code) {
    case '28P01':
      return `password authentication failed for user "${t.user ?? ''}" at ${where}`;
    case '28000':
      return `${e.message} (${where})`;
    case '3D000':
      return `database "${t.database ?? ''}" does not exist at ${where}`;
    case '57P03':
      return `the server at ${where} is starting up or shutting down`;
  }
  if (/SSL|TLS|certificate/i.test(e.message)) return `TLS failed with ${where}: ${e.message}`;
  if (/timeout/i.test(e.message)) return `connecting to ${where} timed out`;
  if (/password must be a string|SASL/i.test(e.message)) return `the server at ${where} asks for a password and none was given (PGPASSWORD or the URL)`;
  return `cannot connect to ${where}: ${e.message}`;
}

export async function connectPostgres(t: ConnectionTarget, extra: Partial<ClientConfig> = {}): Promise<Client> {
  const client = new Client(clientConfig(t, extra));
  // A connection that dies while idle must not crash the process; the next query reports it.
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (err) {
    await client.end().catch(() => undefined);
    throw new MeasureError(connectionErrorMessage(err, t), 'connection');
  }
  return client;
}

/** Line and column (1-based) of a 1-based character position in text. */
export function lineColumn(text: string, position: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, position - 1));
  const lines = before.split('\n');
  return { line: lines.length, column: lines[lines.length - 1].length + 1 };
}

/** What the server says it is (Test Connection). */
export async function postgresVersion(t: ConnectionTarget): Promise<string> {
  const c = await connectPostgres(t);
  try {
    return (await c.query('SELECT version() AS v')).rows[0].v;
  } finally {
    await c.end().catch(() => undefined);
  }
}
