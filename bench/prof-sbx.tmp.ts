import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { captureBody } from './sandbox/cpu-per-request.ts';
const child = spawn(process.execPath, ['--conditions=@gw/source', '--cpu-prof', '--cpu-prof-dir=/tmp/sprof', 'sandbox/sandbox-server.ts'], { stdio: ['ignore', 'pipe', 'inherit'] });
const line = await new Promise<string>((r) => createInterface({ input: child.stdout! }).once('line', r));
const port = Number(/PORT (\d+)/.exec(line)![1]);
const body = await captureBody();
for (let i = 0; i < 3; i++) {
  const r = await autocannon({ url: `http://127.0.0.1:${port}/v1/capture`, method: 'POST', headers: { 'content-type': 'application/json' }, body, connections: 32, amount: 30000 });
  console.log(r.requests.average, r.non2xx);
}
child.kill('SIGTERM');
await new Promise((r) => child.once('exit', r));
