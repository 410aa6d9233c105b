import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodeBody, signed } from './harness.ts';

describe('gw-sandbox (the process entry)', () => {
  it('serves /v1 on the given port until SIGTERM, then exits cleanly', async () => {
    const child = spawn(process.execPath, ['--conditions=@gw/source', join(import.meta.dirname, '../src/bin.ts'), '--port', '0', '--seed', '3'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(chunk.toString());
        if (match) resolve(match[1]!);
      });
      child.once('exit', (code) => reject(new Error(`exited early with ${code}`)));
    });
    const response = await fetch(`${url}/v1/retrievalTrans`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: encodeBody('query', await signed('query', { order_no: 'NONE' })),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ return_status: '1', orders_list: [{ order_no: 'NONE', query_result: '0' }] });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
