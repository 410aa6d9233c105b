// `pnpm format` formats the tree's TypeScript and JavaScript with Prettier (.prettierrc.json, .prettierignore);
// `pnpm format --check` only checks, failing with the files that are not formatted (as CI runs it).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const check = process.argv.includes('--check');
const prettier = join(import.meta.dirname, '..', 'node_modules', '.bin', 'prettier');
const { status } = spawnSync(prettier, [check ? '--check' : '--write', '--log-level', check ? 'warn' : 'log', '**/*.{ts,js}'], {
  stdio: 'inherit',
  cwd: join(import.meta.dirname, '..'),
});
process.exit(status ?? 1);
