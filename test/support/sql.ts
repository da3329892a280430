// One-off queries for test set-up and checks, each on its own connection.
import { Client } from 'pg';
import { createConnection } from 'mysql2/promise';

export async function pgQuery<T = Record<string, unknown>>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(text, values)).rows as T[];
  } finally {
    await c.end();
  }
}

/** The same for a private MariaDB on 127.0.0.1, as root: the rows of one statement. */
export async function mariadbQuery<T = Record<string, unknown>>(port: number, text: string): Promise<T[]> {
  const c = await createConnection({ host: '127.0.0.1', port, user: 'root' });
  try {
    return (await c.query(text))[0] as T[];
  } finally {
    await c.end();
  }
}
