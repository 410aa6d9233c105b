// @gw/test-postgres: a throwaway PostgreSQL cluster (TLS on request) and PgBouncer in front of one, for tests and benches.
export { createDatabase, startCluster, type Cluster, type ClusterOptions } from './cluster.ts';
export { pgBouncerInstalled, startPgBouncer, type PgBouncer, type PgBouncerOptions } from './pgbouncer.ts';
export type { ClusterTls } from './tls.ts';
