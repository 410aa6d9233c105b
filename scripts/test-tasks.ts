// The test tasks of `pnpm test:all`: every workspace package's `test` script (Node 24) and, for published packages, its
// `test:node22` script, which waits for the package's Node 24 run (they share the package's scratch folders). A package
// may split its Node 24 run into parts that run side by side with other packages' tests (SPLITS), so one long file
// does not hold a lane while the other idles.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export interface TestTask {
  /** `<package>:<script>`, the prefix of its log lines. */
  readonly id: string;
  readonly dir: string;
  readonly script: string;
  /** Ids of the tasks that must end first. */
  readonly after: readonly string[];
  /** Expected seconds, for the order (longest chains first). */
  readonly estimate: number;
}

/** Scripts run instead of `test` in the queue: each a part of the package's tests, together all of them. */
const SPLITS: Readonly<Record<string, readonly string[]>> = {
  '@gw/release-check': ['test:registry', 'test:packages'],
  // The ledger's exactly-once and fleet tests again, their ledgers reached through PgBouncer in transaction mode.
  '@gw/batch': ['test', 'test:pgbouncer'],
};

/**
 * Seconds per task in the clean-clone CI of 2f65138 (vitest JSON reports, before this queue); only the order depends on
 * them. The queue's timeline at the end of `node scripts/run-tests.ts` gives fresh figures.
 */
const ESTIMATES: Readonly<Record<string, number>> = {
  '@gw/batch:test': 186,
  '@gw/batch:test:node22': 148,
  '@gw/batch:test:pgbouncer': 80,
  '@gw/sandbox:test': 169,
  '@gw/sandbox:test:node22': 87,
  '@gw/release-check:test:registry': 150,
  '@gw/release-check:test:packages': 98,
  '@gw/client:test': 87,
  '@gw/client:test:node22': 58,
  '@gw/xml-codec:test': 85,
  '@gw/xml-codec:test:node22': 56,
  '@gw/codegen:test': 59,
  '@gw/browser-tests:test': 46,
  '@gw/signer-interface:test': 46,
  '@gw/signer-interface:test:node22': 47,
  '@gw/cli:test': 44,
  '@gw/cli:test:node22': 46,
  '@gw/notifications:test': 8,
  '@gw/notifications:test:node22': 7,
  '@gw/types:test': 6,
  '@gw/types:test:node22': 7,
};
const UNKNOWN_ESTIMATE = 30;

/** The test tasks of every package under packages/, tools/ and bench/ of `root`, for the given kinds of run. */
export function testTasks(root: string, runs: { node24: boolean; node22: boolean }): TestTask[] {
  const tasks: TestTask[] = [];
  for (const group of ['packages', 'tools', 'bench']) {
    const groupDir = join(root, group);
    if (!existsSync(groupDir)) continue;
    for (const name of readdirSync(groupDir).sort()) {
      const dir = join(groupDir, name);
      if (!existsSync(join(dir, 'package.json'))) continue;
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name: string; scripts?: Record<string, string> };
      const scripts = pkg.scripts ?? {};
      const node24 = scripts.test ? (SPLITS[pkg.name] ?? ['test']) : [];
      const node24Ids = node24.map((script) => `${pkg.name}:${script}`);
      if (runs.node24) for (const script of node24) tasks.push(task(pkg.name, dir, script, []));
      if (runs.node22 && scripts['test:node22']) tasks.push(task(pkg.name, dir, 'test:node22', runs.node24 ? node24Ids : []));
    }
  }
  return tasks;
}

function task(name: string, dir: string, script: string, after: readonly string[]): TestTask {
  const id = `${name}:${script}`;
  return { id, dir, script, after, estimate: ESTIMATES[id] ?? UNKNOWN_ESTIMATE };
}
