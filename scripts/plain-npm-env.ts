import { execFileSync } from 'node:child_process';

/**
 * The environment for running the machine's own npm / npx from inside a pnpm script: without the npm_config_* /
 * pnpm_config_* variables pnpm sets, so npm reads the machine's global npmrc (its CA file among them). Without this,
 * npm read another npmrc and every registry fetch failed with SELF_SIGNED_CERT_IN_CHAIN.
 * - `node: 'machine'` (default): node_modules/.bin (where the workspace's Node 24 sits) is taken off PATH, so npm runs
 *   on the machine's Node, as a team's would.
 * - `node: 'workspace'`: npm runs on the workspace's Node 24 (for tools that need it, like Prism), told where the
 *   machine's global npmrc is, since npm looks for it beside the Node it runs on.
 */
export function plainNpmEnv(options: { node?: 'machine' | 'workspace' } = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(npm|pnpm)_config_/i.test(key)));
  const machinePath = (process.env.PATH ?? '')
    .split(':')
    .filter((dir) => !dir.includes('node_modules'))
    .join(':');
  if (options.node === 'workspace') {
    env.npm_config_globalconfig = execFileSync('npm', ['config', 'get', 'globalconfig'], {
      env: { ...env, PATH: machinePath },
      encoding: 'utf8',
      timeout: 30_000,
    }).trim();
  } else {
    env.PATH = machinePath;
  }
  return env;
}
