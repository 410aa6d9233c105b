// When the answer to a capture cannot be checked (a Verifier that throws, an answer too deep to walk), the
// request did reach the gateway: its orders are settled by query, never reported "failed: not sent" (which invites a
// resend that would capture them twice).
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sandboxReconciler, startSandbox, type Sandbox } from '@gw/sandbox';
import type { SignableMessage } from '@gw/signer-interface';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBatch, type BatchClient, type BatchResult } from '../src/index.ts';
import { authorisedOrders, clientFor, signer } from './harness.ts';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.stop());

const DEPTH = 5_000;

/** A proxy on 127.0.0.1 in front of the sandbox that adds a member nested DEPTH deep to every capture answer. */
async function deepAnswerProxy(target: string): Promise<{ url: string; server: Server }> {
  const upstream = new URL(target);
  const server = createServer((req, res) => {
    const forward = request({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (c: Buffer) => chunks.push(c));
      answer.on('end', () => {
        let body = Buffer.concat(chunks).toString('utf8');
        if (req.url === '/v1/capture' && body.startsWith('{')) body = `{"gw_deep":${'['.repeat(DEPTH)}${']'.repeat(DEPTH)},${body.slice(1)}`;
        const headers = { ...answer.headers, 'content-length': String(Buffer.byteLength(body)) };
        delete headers['transfer-encoding'];
        res.writeHead(answer.statusCode ?? 502, headers).end(body);
      });
    });
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** Runs the capture batch, then sends its failed orders again as an operator would, and checks the sandbox's ledger. */
async function captureThenResendFailed(client: BatchClient, orders: Awaited<ReturnType<typeof authorisedOrders>>): Promise<BatchResult> {
  const result = await runBatch({ client, operation: 'capture', orders, reconcile: sandboxReconciler });
  const applied = sandbox.state.appliedCounts('capture');
  result.outcomes.forEach((outcome, i) => {
    // Every order the gateway applied is settled by query, or left unknown: never failed.
    if (applied.get(orders[i]!.transaction_id) === 1) expect(['succeeded', 'unknown'], `order #${i}: ${outcome.reason ?? ''}`).toContain(outcome.kind);
    expect(outcome.kind, `order #${i}`).not.toBe('failed');
  });
  const failed = result.outcomes.filter((o) => o.kind === 'failed').map((o) => orders[o.index]!);
  if (failed.length > 0) await runBatch({ client: clientFor(sandbox), operation: 'capture', orders: failed });
  for (const o of orders) expect(sandbox.state.appliedCounts('capture').get(o.transaction_id) ?? 0, o.order_no).toBeLessThanOrEqual(1);
  expect(sandbox.state.invariantViolations()).toEqual([]);
  return result;
}

describe('a capture batch whose answers cannot be checked', () => {
  it('with a Verifier that throws on capture answers: all 20 captured orders are settled by query as succeeded, none failed', async () => {
    const orders = await authorisedOrders(sandbox, 20);
    const verifier = {
      verify(message: SignableMessage, signature: string) {
        if (message.operation.name === 'capture') throw new Error('verification service unavailable');
        return signer.verify(message, signature);
      },
    };
    const result = await captureThenResendFailed(clientFor(sandbox, { verifier }), orders);
    expect(result.counts).toEqual({ succeeded: 20, failed: 0, rejected: 0, unknown: 0 });
    expect(result.outcomes.every((o) => o.reconciled === true)).toBe(true);
  });

  it(`with capture answers carrying a member nested ${DEPTH} deep: all 20 captured orders are settled by query, none failed`, async () => {
    const proxy = await deepAnswerProxy(sandbox.url);
    try {
      const orders = await authorisedOrders(sandbox, 20);
      const result = await captureThenResendFailed(clientFor(sandbox, { baseUrl: proxy.url }), orders);
      expect(result.counts).toEqual({ succeeded: 20, failed: 0, rejected: 0, unknown: 0 });
      for (const o of orders) expect(sandbox.state.appliedCounts('capture').get(o.transaction_id)).toBe(1);
    } finally {
      await new Promise((resolve) => proxy.server.close(resolve));
    }
  });
});
