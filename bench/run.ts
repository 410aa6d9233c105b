// Runs bench/<area>/bench.ts for the areas named on the command line, or every area found, one after the other.
// `--profile` also writes each area's V8 CPU profile (node --cpu-prof) to bench/profiles/.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const here = import.meta.dirname;
const found = readdirSync(here, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && entry.name !== 'node_modules' && existsSync(join(here, entry.name, 'bench.ts')))
  .map((entry) => entry.name)
  .sort();
const profile = process.argv.includes('--profile');
const requested = process.argv.slice(2).filter((arg) => arg !== '--profile');
const unknown = requested.filter((area) => !found.includes(area));
if (unknown.length > 0) {
  console.error(`unknown bench area(s): ${unknown.join(', ')}; found: ${found.join(', ') || 'none'}`);
  process.exit(2);
}

let failed = 0;
for (const area of requested.length > 0 ? requested : found) {
  console.log(`\n== bench ${area} ==`);
  // Each area in its own process, with this process's flags (--conditions=@gw/source), so one JIT state never skews another.
  const profiling = profile ? ['--cpu-prof', `--cpu-prof-dir=${join(here, 'profiles')}`, `--cpu-prof-name=${area}.cpuprofile`] : [];
  const run = spawnSync(process.execPath, [...process.execArgv, ...profiling, join(here, area, 'bench.ts')], { stdio: 'inherit', cwd: here });
  if (run.status !== 0) {
    failed++;
    console.error(`bench ${area} failed (${run.status ?? run.signal})`);
  }
}
process.exit(failed > 0 ? 1 : 0);
