// A private server for the schema corpus, the same calls for PostgreSQL and MariaDB: run statements, restart
// with a pool size, the size of the loaded data. Not a test file itself.
import { createConnection } from 'mysql2/promise';
import { Client } from 'pg';
import { LocalPostgres, type PostgresBinaries } from '../../../src/local-server/postgres';
import { LocalInnodbServer, type InnodbServerBinaries } from '../../../src/local-server/mariadb';
import { parseConnectionUrl, type ConnectionTarget } from '../../../src/db/connection-url';
import type { SchemaDialect } from './statements';

export interface SchemaServer {
  engine: string;
  dialect: SchemaDialect;
  /** The smallest pool the engine starts with, in MiB. */
  minPoolMB: number;
  target(): ConnectionTarget;
  exec(statements: string[]): Promise<void>;
  restart(poolMB: number): Promise<void>;
  /** Heap and index pages of the schema's tables, in MiB. */
  dataMB(): Promise<number>;
  stop(): Promise<void>;
}

const DATABASE = 'shop';

export async function postgresServer(binaries: PostgresBinaries): Promise<SchemaServer> {
  // Autovacuum off: a state is what it says, and a worker starting mid-measurement would be another session.
  const server = await LocalPostgres.start({ binaries, settings: { shared_buffers: '256MB', autovacuum: false } });
  const query = async <T>(f: (c: Client) => Promise<T>, database = DATABASE): Promise<T> => {
    const c = new Client({ connectionString: server.url(database) });
    await c.connect();
    try {
      return await f(c);
    } finally {
      await c.end();
    }
  };
  try {
    await query((c) => c.query(`CREATE DATABASE ${DATABASE}`), 'postgres');
  } catch (err) {
    await server.stop();
    throw err;
  }
  return {
    engine: `PostgreSQL ${binaries.major}`,
    dialect: 'postgresql',
    minPoolMB: 8,
    target: () => parseConnectionUrl(server.url(DATABASE)),
    exec: (statements) =>
      query(async (c) => {
        for (const s of statements) await c.query(s);
      }),
    restart: (mb) => server.restart({ shared_buffers: `${mb}MB` }),
    dataMB: () =>
      query(async (c) => {
        const r = await c.query<{ b: string }>("SELECT pg_total_relation_size('orders') + pg_total_relation_size('customers') AS b");
        return Number(r.rows[0].b) / 2 ** 20;
      }),
    stop: () => server.stop(),
  };
}

export async function mariadbServer(binaries: InnodbServerBinaries): Promise<SchemaServer> {
  const server = await LocalInnodbServer.start({ binaries, settings: { 'innodb-buffer-pool-size': '512M' } });
  const query = async <T>(f: (c: Awaited<ReturnType<typeof createConnection>>) => Promise<T>, database = DATABASE): Promise<T> => {
    const c = await createConnection({ host: '127.0.0.1', port: server.port, user: 'root', database: database || undefined });
    try {
      return await f(c);
    } finally {
      await c.end();
    }
  };
  try {
    await query((c) => c.query(`CREATE DATABASE ${DATABASE}`), '');
  } catch (err) {
    await server.stop();
    throw err;
  }
  return {
    engine: `MariaDB ${binaries.version.split('-')[0]}`,
    dialect: 'mariadb',
    minPoolMB: 8,
    target: () => parseConnectionUrl(server.url(DATABASE)),
    exec: (statements) =>
      query(async (c) => {
        for (const s of statements) await c.query(s);
      }),
    restart: (mb) => server.restart({ 'innodb-buffer-pool-size': `${mb}M` }),
    dataMB: () =>
      query(async (c) => {
        const [rows] = await c.query(
          `SELECT SUM(data_length + index_length) AS b FROM information_schema.tables WHERE table_schema = '${DATABASE}' AND table_name IN ('orders', 'customers')`,
        );
        return Number((rows as Array<{ b: string }>)[0].b) / 2 ** 20;
      }),
    stop: () => server.stop(),
  };
}
