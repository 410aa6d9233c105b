#!/usr/bin/env node
// `gw-sandbox --port 8787`: the sandbox as a process (the `gw sandbox` command of @gw/cli does the same).
import { parseArgs } from 'node:util';
import { startSandbox } from './server/start-sandbox.ts';
import { SandboxStateFileError } from './store/state-file-error.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '8787' },
    host: { type: 'string', default: '127.0.0.1' },
    'allowed-host': { type: 'string', multiple: true, default: [] },
    seed: { type: 'string', default: '1' },
    state: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  console.log(
    'usage: gw-sandbox [--port 8787] [--host 127.0.0.1] [--allowed-host NAME]... [--seed 1] [--state FILE]\nA stateful local Merchant Payment Gateway serving every /v1 operation.\nIt answers loopback Host names and its listening address; --allowed-host adds a name (.team.test: it and every name under it).\n--state FILE keeps the state in that SQLite file across restarts.',
  );
  process.exit(0);
}
let sandbox;
try {
  sandbox = await startSandbox({
    port: Number(values.port),
    host: values.host,
    allowedHosts: values['allowed-host'],
    seed: Number(values.seed),
    ...(values.state ? { stateFile: values.state } : {}),
  });
} catch (error) {
  // A state file it cannot use: the reason and what to do, exit 2 (as `gw sandbox` does), never a stack trace.
  if (!(error instanceof SandboxStateFileError)) throw error;
  console.error(`gw-sandbox: ${error.name} (${error.code}): ${error.message}`);
  process.exit(2);
}
console.log(`gw sandbox listening on ${sandbox.url} (POST ${sandbox.url}/v1/...)`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void sandbox.stop().then(() => process.exit(0));
  });
}
