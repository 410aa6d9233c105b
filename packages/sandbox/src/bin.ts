#!/usr/bin/env node
// `gw-sandbox --port 8787`: the sandbox as a process (the `gw sandbox` command of @gw/cli does the same).
import { parseArgs } from 'node:util';
import { startSandbox } from './start-sandbox.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '8787' },
    host: { type: 'string', default: '127.0.0.1' },
    'allowed-host': { type: 'string', multiple: true, default: [] },
    seed: { type: 'string', default: '1' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  console.log('usage: gw-sandbox [--port 8787] [--host 127.0.0.1] [--allowed-host NAME]... [--seed 1]\nA stateful local Merchant Payment Gateway serving every /v1 operation.\nIt answers loopback Host names and its listening address; --allowed-host adds a name (.team.test: it and every name under it).');
  process.exit(0);
}
const sandbox = await startSandbox({ port: Number(values.port), host: values.host, allowedHosts: values['allowed-host'], seed: Number(values.seed) });
console.log(`gw sandbox listening on ${sandbox.url} (POST ${sandbox.url}/v1/...)`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void sandbox.stop().then(() => process.exit(0));
  });
}
