/** Creating and dropping whole test databases on the real PostgreSQL server (global setup, own databases). */
import pg from 'pg';

/** The URL of another database on the same server. */
export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** Runs one statement on the server's maintenance database (creating or dropping a database needs one). */
export async function adminQuery(url: string, statement: string): Promise<void> {
  const c = new pg.Client({ connectionString: withDatabase(url, 'postgres') });
  await c.connect();
  try {
    await c.query(statement);
  } finally {
    await c.end();
  }
}
