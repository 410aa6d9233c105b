import type { TestProject } from 'vitest/node';
import { startCluster } from '@gw/test-postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A throwaway PostgreSQL cluster's admin URL (database `postgres`), or null with why it could not start. */
    postgres: { url: string | null; why: string | null };
  }
}

/**
 * Starts one throwaway PostgreSQL cluster for the test run and stops and removes it afterwards. Each test makes
 * its own database in it (test/pg/database.ts).
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const cluster = await startCluster();
  project.provide('postgres', { url: cluster.url, why: null });
  return cluster.stop;
}
