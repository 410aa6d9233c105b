#!/usr/bin/env node
// `gw-sandbox --port 8787`: the sandbox as a process (the `gw sandbox` command of @gw/cli does the same).
import { parseArgs } from 'node:util';
import { startSandbox } from './start-sandbox.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '8787' },
    host: { type: 'string', default: '127.0.0.1' },
    seed: { type: 'string', default: '1' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  console.log('usage: gw-sandbox [--port 8787] [--host 127.0.0.1] [--seed 1]\nA stateful local Merchant Payment Gateway serving every /v1 operation.');
  process.exit(0);
}
const sandbox = await startSandbox({ port: Number(values.port), host: values.host, seed: Number(values.seed) });
console.log(`gw sandbox listening on ${sandbox.url} (POST ${sandbox.url}/v1/...)`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void sandbox.stop().then(() => process.exit(0));
  });
}
