// Whatever throws while a request is prepared or its answer is read, the caller gets a GwError with a code,
// and for money-moving operations an answer that came but cannot be checked or read is an unknown outcome, never "not sent".
import { startSandbox } from '@gw/sandbox';
import type { Signer, Verifier } from '@gw/signer-interface';
import { describe, expect, it } from 'vitest';
import { GwError, redactRecord } from '../src/index.ts';
import { FieldNames } from '../src/field-names.ts';
import { authorisedOrder, cardPayment, reply, requestsTo, sandboxClient, sandboxSigner, startForwardingServer } from './support.ts';

const downVerifier: Verifier = {
  verify() {
    throw new Error('verification service unavailable');
  },
};
const rejectingVerifier: Verifier = { verify: () => Promise.reject(new Error('HSM timed out')) };

function nested(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

function deepObject(depth: number): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  let current = root;
  for (let i = 0; i < depth; i++) current = current.a = {};
  current.card = '4111111111111111';
  return root;
}

describe('every failure leaves the client as a GwError that says whether anything may have happened', () => {
  for (const [name, verifier] of [
    ['throws', downVerifier],
    ['rejects', rejectingVerifier],
  ] as const) {
    it(`a verifier that ${name}: capture and authoriseCard applied by the gateway are an unknown outcome`, async () => {
      await using sandbox = await startSandbox();
      await using setup = sandboxClient(sandbox);
      await using client = sandboxClient(sandbox, { verifier });
      const order = await authorisedOrder(setup);
      const error = await client.capture({ capture_orders: [order] }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(GwError);
      expect((error as GwError).code).toBe('GW_OUTCOME_UNKNOWN');
      expect((error as GwError).details).toMatchObject({ operation: 'capture', outcome: 'unknown', transaction_id: [order.transaction_id] });
      expect((error as GwError).message).toMatch(/reconcile/i);
      expect(sandbox.state.appliedCounts('capture').get(order.transaction_id)).toBe(1);
      const payment = cardPayment();
      const auth = await client.authoriseCard(payment).catch((e: unknown) => e);
      expect((auth as GwError).code).toBe('GW_OUTCOME_UNKNOWN');
      expect((auth as GwError).details).toMatchObject({ operation: 'authoriseCard', outcome: 'unknown', order_no: [payment.order_no] });
      expect(JSON.stringify(auth)).not.toContain(payment.card);
    });
  }

  it('a signer that throws: a typed error saying nothing was sent, and nothing reached the gateway', async () => {
    await using sandbox = await startSandbox();
    const broken: Signer = {
      sign() {
        throw new Error('HSM down');
      },
    };
    await using client = sandboxClient(sandbox, { signer: broken, verifier: sandboxSigner });
    const error = await client
      .capture({ capture_orders: [{ transaction_id: 'T1', order_no: 'O1', currency: 'USD', amount: '1.00' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GwError);
    expect((error as GwError).code).toBe('GW_NOT_SENT');
    expect((error as GwError).details).toMatchObject({ operation: 'capture', sent: false, outcome: 'not-sent', stage: 'sign' });
    expect((error as GwError).message).toMatch(/nothing was sent/);
    const rejecting: Signer = { sign: () => Promise.reject(new TypeError('bad key')) };
    await using other = sandboxClient(sandbox, { signer: rejecting, verifier: sandboxSigner });
    await expect(other.authoriseCard(cardPayment())).rejects.toMatchObject({ code: 'GW_NOT_SENT', details: { sent: false } });
    expect(requestsTo(sandbox, '/v1/capture')).toHaveLength(0);
    expect(requestsTo(sandbox, '/v1/authorise')).toHaveLength(0);
  });

  it('answers nested 5,000 deep (JSON and XML) from a hostile server in front of the sandbox: typed, outcome unknown, applied once', async () => {
    await using sandbox = await startSandbox();
    await using setup = sandboxClient(sandbox);
    const order = await authorisedOrder(setup);
    await using proxy = await startForwardingServer(sandbox, (request, text, res) => {
      if (request.path === '/v1/capture') reply(res, 200, `${text.slice(0, -1)},"extra":${nested(5_000)}}`);
      else reply(res, 200, text.replace('</respon>', `<extra>${'<a>'.repeat(5_000)}x${'</a>'.repeat(5_000)}</extra></respon>`), 'application/xml');
    });
    const seen: unknown[] = [];
    await using client = sandboxClient(proxy, {
      fieldNameOverrides: { amount: 'amount' },
      hooks: { onResponse: (event) => seen.push(event), onError: (event) => seen.push(event) },
    });
    const error = await client.capture({ capture_orders: [order] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GwError);
    expect((error as GwError).details).toMatchObject({ operation: 'capture', outcome: 'unknown' });
    expect(sandbox.state.appliedCounts('capture').get(order.transaction_id)).toBe(1);
    const payment = cardPayment();
    const auth = await client.authoriseCard(payment).catch((e: unknown) => e);
    expect(auth).toBeInstanceOf(GwError);
    expect((auth as GwError).details).toMatchObject({ operation: 'authoriseCard', outcome: 'unknown' });
    expect(seen.length).toBeGreaterThan(0);
  });

  it('redaction and field renames walk records 100,000 deep without recursion', () => {
    const deep = deepObject(100_000);
    const redacted = redactRecord(deep);
    let node = redacted as Record<string, unknown>;
    for (let i = 0; i < 100_000; i++) node = node.a as Record<string, unknown>;
    expect(node.card).toBe('[redacted]');
    const names = new FieldNames({ card: 'pan' });
    let wire = names.toWire(deep) as Record<string, unknown>;
    for (let i = 0; i < 100_000; i++) wire = wire.a as Record<string, unknown>;
    expect(wire).toEqual({ pan: '4111111111111111' });
  });
});
