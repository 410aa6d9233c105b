// Runs every published package's tests again on Node 22, the oldest Node its `engines` accept, so the claim is proven,
// not assumed. Node 22 comes from the npm registry's `node` package, installed once into .cache/node22.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { failedTests } from './failed-tests.ts';
import { plainNpmEnv } from './plain-npm-env.ts';

const NODE22 = '22.23.3';
const root = join(import.meta.dirname, '..');
const prefix = join(root, '.cache/node22');
const node = join(prefix, 'node_modules/node/bin/node');
if (!existsSync(node)) {
  console.log(`test:node22: installing node@${NODE22} from the npm registry into .cache/node22`);
  const env = plainNpmEnv();
  execFileSync('npm', ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--prefix', prefix, `node@${NODE22}`], { stdio: 'inherit', env, timeout: 300_000 });
}
const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
const vitest = join(root, 'node_modules/vitest/vitest.mjs');
const published = readdirSync(join(root, 'packages'))
  .filter((name) => {
    const file = join(root, 'packages', name, 'package.json');
    return existsSync(file) && existsSync(join(root, 'packages', name, 'test')) && !(JSON.parse(readFileSync(file, 'utf8')) as { private?: boolean }).private;
  })
  .sort();
const failures: string[] = [];
for (const name of published) {
  console.log(`\n== ${name} on node ${version} ==`);
  const run = spawnSync(node, [vitest, 'run', '--reporter=dot', '--reporter=json', '--outputFile.json=.vitest-report.node22.json'], {
    cwd: join(root, 'packages', name),
    stdio: 'inherit',
    // The 100,000-request fuzz and the 10,000-order fault test already ran on Node 24; smaller runs prove the same on 22.
    env: { ...process.env, GW_FUZZ_REQUESTS: '10000', GW_BATCH_FAULT_ORDERS: '2000' },
  });
  if (run.status !== 0) {
    const lines = failedTests(join(root, 'packages', name, '.vitest-report.node22.json'), `${name} (node 22)`);
    failures.push(...(lines.length > 0 ? lines : [`${name} (node 22): vitest exited with ${run.status ?? run.signal}`]));
  }
}
if (failures.length > 0) {
  console.error(`\ntest:node22 failed:\n${failures.map((line) => `  ${line}`).join('\n')}`);
  process.exit(1);
}
