import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '@gw/types';
import { startSandbox, type Sandbox } from '../src/index.ts';
import { merchant, post, send } from './harness.ts';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ maxBodyBytes: 4 * 1024 * 1024 });
});
afterAll(() => sandbox.stop());

const PATHS = [...new Set(Object.values(operations).map((o) => o.path))];

function nested(depth: number): string {
  return '['.repeat(depth) + ']'.repeat(depth);
}

/** The same deep member as a JSON body, a form body with a JSON member, and an XML body. */
function bodies(depth: number): { contentType: string; body: string }[] {
  const ids = `"merchant_id":"${merchant.merchant_id}","account_id":"${merchant.account_id}","encryption_data":"${'0'.repeat(64)}"`;
  const form = new URLSearchParams({ ...merchant, encryption_data: '0'.repeat(64), note: 'n' }).toString();
  return [
    { contentType: 'application/json', body: `{${ids},"a":${nested(depth)}}` },
    { contentType: 'application/json', body: `{${ids},"subscription":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}` },
    { contentType: 'application/x-www-form-urlencoded', body: `${form}&subscription=${encodeURIComponent(nested(depth))}` },
    { contentType: 'application/xml', body: `<request><recurring_id>R1</recurring_id>${'<a>'.repeat(depth)}${'</a>'.repeat(depth)}</request>` },
  ];
}

describe('deeply nested bodies', () => {
  for (const depth of [5_000, 100_000]) {
    it(`answers a body nested ${depth} deep on every path and content type with a structured refusal below 500`, async () => {
      for (const path of PATHS) {
        for (const { contentType, body } of bodies(depth)) {
          const reply = await post(sandbox, path, body, contentType);
          expect(reply.status, `${path} ${contentType}`).toBeLessThan(500);
          // A body its path reads as a form (query, refund...) has no deep member to refuse: it is refused as unsigned.
          if (reply.status === 200) expect(reply.text, `${path} ${contentType}`).toMatch(/E00[13]:/);
          else expect(reply.json, `${path} ${contentType}`).toMatchObject({ return_status: '0' });
        }
      }
      expect(sandbox.state.internalErrors).toEqual([]);
    }, 60_000);
  }

  it('names the place nested too deep', async () => {
    const reply = await post(sandbox, '/v1/authorise', JSON.stringify({ ...merchant, a: JSON.parse(nested(40)) }));
    expect(reply.status).toBe(400);
    expect(reply.json.errors[0]).toEqual({ path: `a${'[0]'.repeat(31)}`, message: 'nests deeper than 32 levels' });
  });

  it('keeps serving after deep bodies', async () => {
    await post(sandbox, '/v1/checkout', `{"a":${nested(50_000)}}`);
    const reply = await send(sandbox, 'capture', { capture_orders: [{ transaction_id: 'T-NONE', order_no: 'O', currency: 'USD', amount: '1.00' }] });
    expect(reply.status).toBe(200);
    expect(reply.json.return_status).toBe('1');
  });
});

describe('many structural problems in one body', () => {
  it('counts them all but lists at most 100, so the answer stays small', async () => {
    await using sandbox = await startSandbox();
    const body = Array.from({ length: 500 }, (_, i) => `f${i}=${encodeURIComponent(nested(40))}`).join('&');
    const reply = await post(sandbox, '/v1/authorise', body, 'application/x-www-form-urlencoded');
    expect(reply.status).toBe(400);
    expect(reply.json.return_message).toBe("500 problem(s) in the body's structure, the first 100 listed");
    expect(reply.json.errors).toHaveLength(100);
  });
});
