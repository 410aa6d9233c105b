import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '@gw/types';
import { SeededRandom } from '../src/state/random.ts';
import { startSandbox, type Sandbox } from '../src/index.ts';
import { cardPayment, encodeBody, signed } from './harness.ts';

// 100,000 on Node 24; Node 22 (CI's second run, there to show the package works on Node 22) sends 5,000.
const TOTAL = Number(process.env.GW_FUZZ_REQUESTS ?? (process.versions.node.startsWith('22') ? 5_000 : 100_000));
const CONCURRENCY = 32;
const PATHS = [...new Set(Object.values(operations).map((o) => o.path)), '/v1/unknown', '/', '/v1/capture/../refund'];
const CONTENT_TYPES = ['application/json', 'application/x-www-form-urlencoded', 'application/xml', 'text/plain', '', 'application/json; charset=latin1'];

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ maxBodyBytes: 64 * 1024 });
});
afterAll(() => sandbox.stop());

function randomJsonValue(r: SeededRandom, depth = 0): unknown {
  const k = Math.floor(r.next() * (depth > 2 ? 5 : 7));
  switch (k) {
    case 0:
      return r.text(Math.floor(r.next() * 12), 'abc019.,#;:<>&"\'\\ \u00e9\u4e2d\ud83d\ude00');
    case 1:
      return r.next() * 1e6 - 5e5;
    case 2:
      return r.next() < 0.5;
    case 3:
      return null;
    case 4:
      return Math.floor(r.next() * 100);
    case 5:
      return Array.from({ length: Math.floor(r.next() * 4) }, () => randomJsonValue(r, depth + 1));
    default: {
      const fields = [
        'merchant_id',
        'account_id',
        'capture_orders',
        'refund_orders',
        'amount',
        'currency',
        'order_no',
        'transaction_id',
        'refund_amount',
        'review_flag',
        'checkout_time',
        'payment_method',
        'request_id',
        'subscription',
        'beneficiary',
        '__proto__',
        'constructor',
        'the service',
      ];
      return Object.fromEntries(
        Array.from({ length: Math.floor(r.next() * 5) }, () => [fields[Math.floor(r.next() * fields.length)]!, randomJsonValue(r, depth + 1)]),
      );
    }
  }
}

async function randomBody(r: SeededRandom, valid: Map<string, string>): Promise<string | Buffer> {
  const kind = Math.floor(r.next() * 9);
  switch (kind) {
    case 0:
      return Buffer.from(Array.from({ length: Math.floor(r.next() * 200) }, () => Math.floor(r.next() * 256)));
    case 1:
      return JSON.stringify(randomJsonValue(r)).slice(0, Math.floor(r.next() * 80));
    case 2:
      return JSON.stringify(randomJsonValue(r));
    case 3:
      return `<${r.text(5)}><recurring_id>${r.text(8, '<>&;abc')}</recurring_id>${r.next() < 0.5 ? '</request>' : ''}`;
    case 4:
      return `<!DOCTYPE x [<!ENTITY a "${'A'.repeat(50)}"><!ENTITY b "&a;&a;&a;&a;">]><request><contract_name>&b;</contract_name></request>`;
    case 5:
      return (
        new URLSearchParams(Object.entries((randomJsonValue(r, 2) as object) ?? {}).map(([k, v]): [string, string] => [k, String(v)])).toString() +
        (r.next() < 0.3 ? '&order_no=a&order_no=b' : '')
      );
    case 6:
      return r.next() < 0.02 ? 'x'.repeat(70 * 1024) : 'x'.repeat(Math.floor(r.next() * 2000));
    default: {
      // A well-formed signed request with one field mutated.
      const keys = [...valid.keys()];
      const key = keys[Math.floor(r.next() * keys.length)]!;
      const record = JSON.parse(valid.get(key)!);
      const field = Object.keys(record)[Math.floor(r.next() * Object.keys(record).length)]!;
      record[field] = randomJsonValue(r, 1);
      return JSON.stringify(record);
    }
  }
}

describe(`fuzz: ${TOTAL} random and malformed requests`, () => {
  it('answers every one with a structured response, never crashes, and keeps its state consistent', async () => {
    const valid = new Map<string, string>();
    for (const op of ['capture', 'refund', 'review', 'cancel', 'payout', 'authoriseCard', 'checkout'] as const) {
      const record =
        op === 'authoriseCard' || op === 'checkout'
          ? cardPayment()
          : op === 'payout'
            ? { request_id: crypto.randomUUID(), payment_amount: '1.00' }
            : { [`${op}_orders`]: [{ transaction_id: 'T1', order_no: 'O1', currency: 'USD', amount: '1.00' }] };
      valid.set(op, encodeBody(op, await signed(op, record)));
    }
    const r = new SeededRandom(7);
    const dispatcher = new Agent({ connections: CONCURRENCY, pipelining: 1 });
    const statuses = new Map<number, number>();
    const unexpected: string[] = [];
    let next = 0;
    const worker = async () => {
      while (next < TOTAL) {
        next += 1;
        const path = r.next() < 0.85 ? PATHS[Math.floor(r.next() * 9)]! : PATHS[Math.floor(r.next() * PATHS.length)]!;
        const body = await randomBody(r, valid);
        const contentType = CONTENT_TYPES[Math.floor(r.next() * CONTENT_TYPES.length)]!;
        const method = r.next() < 0.03 ? 'PUT' : 'POST';
        try {
          const response = await request(`${sandbox.url}${path}`, { method, body, headers: contentType ? { 'content-type': contentType } : {}, dispatcher });
          const text = await response.body.text();
          statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
          if (response.statusCode >= 500) unexpected.push(`${response.statusCode} ${path}: ${text.slice(0, 120)}`);
          else if (response.statusCode !== 200 && response.statusCode !== 302) {
            const json = JSON.parse(text) as { return_status?: string; return_message?: string };
            if (json.return_status !== '0' || typeof json.return_message !== 'string')
              unexpected.push(`${response.statusCode} without a structured error: ${text.slice(0, 120)}`);
          }
        } catch (error) {
          unexpected.push(`${path}: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    await dispatcher.close();
    expect(sandbox.state.internalErrors.slice(0, 3)).toEqual([]);
    expect(unexpected.slice(0, 10)).toEqual([]);
    expect(sandbox.state.invariantViolations()).toEqual([]);
    expect([...statuses.values()].reduce((a, b) => a + b, 0)).toBe(TOTAL);
    expect(statuses.get(400)).toBeGreaterThan(TOTAL / 4);
    // The sandbox still works afterwards.
    const health = await request(`${sandbox.url}/v1/capture`, { method: 'POST', body: valid.get('capture')! });
    expect(health.statusCode).toBe(200);
    await health.body.text();
  }, 240_000);
});
