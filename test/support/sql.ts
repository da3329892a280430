// One-off queries for test set-up and checks, each on its own connection.
import { Client } from 'pg';

export async function pgQuery<T = Record<string, unknown>>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(text, values)).rows as T[];
  } finally {
    await c.end();
  }
}
