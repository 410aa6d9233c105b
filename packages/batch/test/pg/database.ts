import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

/** A fresh database in the test run's PostgreSQL cluster: its URL, and a drop for afterwards. */
export async function freshDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = inject('postgres').url;
  if (!admin) throw new Error(`PostgreSQL did not start: ${inject('postgres').why}`);
  const name = `t_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  return {
    url: admin.replace(/\/postgres$/, `/${name}`),
    drop: async () => {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
