// A name the spec does not list is refused before sending (unless unknownFields: 'send'), and card data is
// refused on every operation that does not carry it, whatever that option says, without echoing it.
import type { Sandbox } from '@gw/sandbox';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ConfigError, type GwClient } from '../src/index.ts';
import { CARD, CVV, refusedBeforeSending, reply, sandboxClient, startRecordingServer, withSandboxClient } from './support.ts';

let sandbox: Sandbox;
let client: GwClient;
withSandboxClient((s, c) => {
  sandbox = s;
  client = c;
});

/** Awaits `call`, expecting a ValidationError with nothing sent to the sandbox. */
const refused = (call: Promise<unknown>) => refusedBeforeSending(sandbox, call);

const order = { transaction_id: 'T1', order_no: 'O1', currency: 'USD' };

describe('unknown fields and card data where it does not belong', () => {
  it('capture with `amout`: refused before sending, naming the path and the closest known name', async () => {
    const error = await refused(client.capture({ capture_orders: [{ ...order, amout: '10.00' } as never] }));
    expect(error.details.problems).toEqual([expect.objectContaining({ field: 'capture_orders[0].amout', keyword: 'unknown' })]);
    expect(error.message).toContain('did you mean `amount`?');
  });

  it('every unknown name at once, top level and nested, and in a query selection', async () => {
    const error = await refused(client.checkout({ order_no: 'O1', amount: '1.00', retrun_url: 'https://x', subscription: { contract_nmae: 'C' } } as never));
    expect(error.details.problems.map((p) => p.field).sort()).toEqual(['retrun_url', 'subscription.contract_nmae']);
    const query = await refused(client.query({ order_no: ['O1'], transactoin_id: ['T'] } as never));
    expect(query.message).toContain('did you mean `transaction_id`?');
  });

  for (const unknownFields of ['refuse', 'send'] as const) {
    it(`unknownFields: '${unknownFields}': card data on checkout, capture and payout is refused, never echoed`, async () => {
      const strict = sandboxClient(sandbox, { unknownFields });
      try {
        for (const call of [
          () => strict.checkout({ order_no: 'O1', amount: '1.00', card: CARD, security_code: CVV, expiration_month: '12', expiration_year: '2031' } as never),
          () => strict.capture({ capture_orders: [{ ...order, amount: '1.00', card: CARD, security_code: CVV } as never] }),
          () => strict.payout({ request_id: '8c2f6b1e-4a63-4f0a-9d39-3c1f8f4b2a11', beneficiary: { card: CARD } } as never),
        ]) {
          const error = await refused(call());
          expect(error.details.problems.some((p) => p.keyword === 'card-data')).toBe(true);
          for (const text of [error.message, JSON.stringify(error), inspect(error, { depth: 10 })]) {
            expect(text).not.toContain(CARD);
            expect(text).not.toContain(`"${CVV}"`);
          }
        }
      } finally {
        await strict.close();
      }
    });
  }

  it("unknownFields: 'send' sends an extra member as given", async () => {
    await using server = await startRecordingServer((_request, res) =>
      reply(res, 200, '<html><body><form action="https://pay.example.test" method="post"></form></body></html>', 'text/html'),
    );
    await using loose = sandboxClient(server, { unknownFields: 'send' });
    await loose.checkout({ order_no: 'O1', amount: '1.00', partner_ref: 'P-77' } as never);
    expect(JSON.parse(server.received[0]!.body)).toMatchObject({ partner_ref: 'P-77' });
  });

  it('a bad unknownFields value is a ConfigError', () => {
    expect(() => sandboxClient(sandbox, { unknownFields: 'ignore' as never })).toThrow(ConfigError);
  });
});
