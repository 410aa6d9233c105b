// "failed: not sent" only when the error proves the request never left; any other error is settled by query.
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { NotSentError, type GuardedCall } from '@gw/client';
import { GwError } from '@gw/types';
import { describe, expect, it } from 'vitest';
import { runBatch, type BatchClient, type Reconciler } from '../src/index.ts';
import { clientFor } from './harness.ts';

const order = { transaction_id: 'T-1', order_no: 'O-1', currency: 'USD', amount: '1.00' };
const notApplied: Reconciler = () => 'not-applied';

/** A client whose capture always throws `error` and whose query finds nothing (so a query-settled order is resent). */
function throwing(error: unknown): BatchClient & { captures: number } {
  const client = {
    captures: 0,
    // As the real client does, the check before the write runs before a failure that may follow a write.
    capture: async (_request: unknown, call: GuardedCall) => {
      client.captures += 1;
      call.beforeSend();
      throw error;
    },
    query: async () => ({ return_status: '1', orders_list: [] }),
  };
  return client as unknown as BatchClient & { captures: number };
}

describe('a capture call that throws', () => {
  it('against a port nobody listens on (connection refused, details.sent false): failed, not sent, safe to send again', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    const client = clientFor({ url: `http://127.0.0.1:${port}` } as never, { retry: { attempts: 1, baseDelayMs: 0, maxDelayMs: 0 } });
    const result = await runBatch({ client, operation: 'capture', orders: [order] });
    expect(result.outcomes).toEqual([expect.objectContaining({ kind: 'failed', reason: expect.stringMatching(/^not sent, safe to send again/) })]);
  });

  for (const [name, error, kind] of [
    ['a timeout with details.sent false', new GwError('GW_TIMEOUT', 'never left', { sent: false }), 'failed'],
    [
      'a NotSentError (the signer threw before sending)',
      new NotSentError({ operation: 'capture', stage: 'sign', causeText: 'HSM down', causeName: 'Error' }),
      'failed',
    ],
    ['a timeout with details.sent true', new GwError('GW_TIMEOUT', 'no answer', { sent: true }), 'query'],
    ['a ConfigError-like GW_CONFIG that says outcome unknown', new GwError('GW_CONFIG', 'odd', { outcome: 'unknown' }), 'query'],
    ['a bare Error', new Error('verification service unavailable'), 'query'],
    ['a bare RangeError', new RangeError('Maximum call stack size exceeded'), 'query'],
    ['a thrown string', 'boom', 'query'],
  ] as const) {
    it(`${name}: ${kind === 'failed' ? 'failed without a query' : 'settled by query before any resend'}`, async () => {
      const client = throwing(error);
      const result = await runBatch({ client, operation: 'capture', orders: [order], reconcile: notApplied, maxResends: 1 });
      if (kind === 'failed') {
        expect(result.outcomes[0]).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/^not sent, safe to send again/) });
        expect(client.captures).toBe(1);
      } else {
        // Queried, found not applied, sent once more, queried again: failed with the query's word, after 2 sends.
        expect(result.outcomes[0]).toMatchObject({ kind: 'failed', reconciled: true, reason: expect.stringContaining('after 2 sends') });
        expect(client.captures).toBe(2);
      }
    });
  }
});
