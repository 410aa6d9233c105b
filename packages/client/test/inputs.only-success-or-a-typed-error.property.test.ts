// Arbitrary records to every client method. The only outcomes are success or a documented typed
// error (GwError with a stable code), never another exception, never a hang, never card data in an error. Most inputs
// are refused before sending; the ones that pass are answered by a real sandbox over 127.0.0.1.
import { startSandbox, type Sandbox } from '@gw/sandbox';
import { inspect } from 'node:util';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GW_ERROR_CODES, GwError, type GwClient } from '../src/index.ts';
import { CARD, CVV, exampleInput, METHOD_NAMES, sandboxClient } from './support.ts';

// 100,000 inputs on Node 24; Node 22 runs the published tests again in CI to show they work there, with
// 5,000 of the same inputs. RUNS_OVERRIDE: a smaller count while working on this file.
const RUNS = Number(process.env.RUNS_OVERRIDE ?? 0) || (process.versions.node.startsWith('22') ? 5_000 : 100_000);
const CODES: ReadonlySet<string> = new Set(Object.values(GW_ERROR_CODES));
const PER_CALL_MS = 10_000;

type Method = Exclude<keyof GwClient, 'close' | typeof Symbol.asyncDispose>;
let counter = 0;
const unique = (prefix: string) => `${prefix}-${process.pid}-${(counter += 1)}`;
const element = () => ({ transaction_id: unique('T'), order_no: unique('O'), currency: 'USD', amount: '1.00' });

/** A record each method accepts, fresh for every input (order numbers are unique); other methods take their spec example. */
const FRESH: Readonly<Partial<Record<Method, () => Record<string, unknown>>>> = {
  authoriseCard: () => ({
    order_no: unique('A'),
    currency: 'USD',
    amount: '1.00',
    card: CARD,
    security_code: CVV,
    expiration_month: '12',
    expiration_year: '2031',
  }),
  authoriseAlternative: () => ({ order_no: unique('ALT'), currency: 'USD', amount: '1.00', payment_method: 'PIX' }),
  checkout: () => ({ order_no: unique('CO'), currency: 'USD', amount: '1.00' }),
  query: () => ({ order_no: [unique('Q')] }),
  capture: () => ({ capture_orders: [element()] }),
  review: () => ({ review_orders: [{ ...element(), review_flag: '1' }] }),
  cancel: () => ({ cancel_orders: [element()] }),
  refund: () => ({ refund_orders: [element()] }),
  cancelSubscription: () => ({ recurring_id: unique('R'), contract_name: 'C' }),
  payout: () => ({ request_id: crypto.randomUUID(), payment_amount: '1.00', payment_currency: 'USD' }),
};
// Every operation of the spec: one added since gets its example request (spec/v1/examples) as its base record.
const METHODS: readonly Method[] = METHOD_NAMES;
const BASES = Object.fromEntries(METHODS.map((method) => [method, FRESH[method] ?? (() => structuredClone(exampleInput(method)))])) as Record<
  Method,
  () => Record<string, unknown>
>;

const SECRET_NAMES: ReadonlySet<string> = new Set(['card', 'security_code', 'expiration_month', 'expiration_year']);

function nested(depth: number, leaf: unknown): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? { a: value } : [value];
  return value;
}

const names = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '__proto__',
      'constructor',
      'prototype',
      'toString',
      'hasOwnProperty',
      'card',
      'security_code',
      'expiration_month',
      'expiration_year',
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'amount',
      'amout',
      'currency',
      'order_no',
      'transaction_id',
      'capture_orders',
      'subscription',
      'person',
      'beneficiary',
      'cart_items',
      'merchant_id',
      'encryption_data',
      'the service',
    ),
  },
  { weight: 3, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 8 }) },
);
const values: fc.Arbitrary<unknown> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.oneof(
      fc.string({ maxLength: 20 }),
      fc.string({ unit: 'binary', maxLength: 10 }),
      fc.constantFrom('1.00', '12.345', 'USD', 'usd', '', '\ud800'),
    ),
  },
  { weight: 2, arbitrary: fc.oneof(fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.constant(undefined), fc.bigInt().map(String)) },
  { weight: 2, arbitrary: fc.anything({ maxDepth: 3, maxKeys: 4, withNullPrototype: true, withObjectString: true }) },
  // Deep nesting: mostly just past the 32-level limit, now and then up to 100,000 levels.
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.oneof({ weight: 30, arbitrary: fc.integer({ min: 20, max: 300 }) }, { weight: 1, arbitrary: fc.integer({ min: 300, max: 100_000 }) }),
        fc.constantFrom<unknown>('x', { card: CARD }, []),
      )
      .map(([depth, leaf]) => nested(depth, leaf)),
  },
  // Arrays over the batch limits.
  {
    weight: 1,
    arbitrary: fc
      .oneof({ weight: 10, arbitrary: fc.integer({ min: 51, max: 200 }) }, { weight: 1, arbitrary: fc.integer({ min: 200, max: 5_000 }) })
      .map((n) => Array.from({ length: n }, () => ({ order_no: 'O', amount: '1.00' }))),
  },
);

/** One change to a record: set a member (at the top or in its first element or nested object), or delete one. */
const mutation = fc.record({ where: fc.constantFrom('top', 'element', 'nested'), name: names, value: values, remove: fc.nat(11).map((n) => n === 0) });

function apply(record: Record<string, unknown>, change: { where: string; name: string; value: unknown; remove: boolean }): void {
  let target: Record<string, unknown> = record;
  const array = Object.values(record).find((member) => Array.isArray(member)) as Record<string, unknown>[] | undefined;
  if (change.where === 'element' && array?.[0] && typeof array[0] === 'object') target = array[0];
  if (change.where === 'nested') {
    record.subscription ??= {};
    if (record.subscription !== null && typeof record.subscription === 'object') target = record.subscription as Record<string, unknown>;
  }
  // An earlier change may have made `subscription` an array, whose `length` cannot be deleted or redefined as text.
  if (Array.isArray(target)) target = record;
  // Card data is what goes under a card-data name: that value must never come back in an error.
  const value = SECRET_NAMES.has(change.name) ? (change.name === 'card' ? CARD : CVV) : change.value;
  if (change.remove) delete target[change.name];
  else Object.defineProperty(target, change.name, { value, enumerable: true, writable: true, configurable: true });
}

const input = fc.oneof(
  {
    weight: 80,
    arbitrary: fc
      .tuple(fc.constantFrom(...METHODS), fc.array(mutation, { minLength: 1, maxLength: 4 }))
      .map(([method, changes]) => ({ method, build: () => changes.reduce((r, c) => (apply(r, c), r), BASES[method]()) })),
  },
  {
    weight: 8,
    arbitrary: fc
      .tuple(fc.constantFrom(...METHODS), fc.oneof(fc.anything({ maxDepth: 2 }), fc.constant(null), fc.constant([])))
      .map(([method, raw]) => ({ method, build: () => raw })),
  },
  { weight: 1, arbitrary: fc.constantFrom(...METHODS).map((method) => ({ method, build: () => BASES[method]() })) },
);

let sandbox: Sandbox;
let strict: GwClient;
let loose: GwClient;
beforeAll(async () => {
  sandbox = await startSandbox();
  strict = sandboxClient(sandbox, { timeoutMs: 5_000, retry: { attempts: 1 } });
  loose = sandboxClient(sandbox, { timeoutMs: 5_000, retry: { attempts: 1 }, unknownFields: 'send' });
});
afterAll(async () => {
  await strict.close();
  await loose.close();
  await sandbox.stop();
});

async function outcome(client: GwClient, method: Method, record: unknown): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise(
    (_resolve, reject) => (timer = setTimeout(() => reject(new Error(`hang: ${method} did not settle in ${PER_CALL_MS} ms`)), PER_CALL_MS)),
  );
  try {
    const call = (client[method] as (input: unknown) => Promise<unknown>)(record);
    return await Promise.race([
      call.then(
        () => null,
        (error: unknown) => error,
      ),
      hang,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

describe('client inputs', () => {
  it(`${RUNS} generated records to every method: success or a typed error, nothing else`, { timeout: 300_000 }, async () => {
    const seen = { ok: 0, refusedBeforeSending: 0, answered: 0 };
    await fc.assert(
      fc.asyncProperty(
        input,
        fc.nat(19).map((n) => n === 0),
        async ({ method, build }, useLoose) => {
          const before = sandbox.state.requestCount;
          const error = await outcome(useLoose ? loose : strict, method, build());
          if (error === null) {
            seen.ok += 1;
            return;
          }
          // Plain checks rather than expect() in this hot loop: the same failures, a fraction of the cost per input.
          if (!(error instanceof GwError) || !CODES.has(error.code)) throw new Error(`${method}: not a typed error: ${inspect(error)}`);
          if (error.code === 'GW_VALIDATION' || error.code === 'GW_CONFIG') {
            if (sandbox.state.requestCount !== before) throw new Error(`${method}: refused with ${error.code} but a request reached the sandbox`);
            seen.refusedBeforeSending += 1;
          } else seen.answered += 1;
          // A ValidationError has no cause or other hidden state: its toJSON shows all; others are inspected too.
          const text = `${error.message}\n${JSON.stringify(error)}\n${error.code === 'GW_VALIDATION' ? '' : inspect(error, { depth: 6 })}`;
          if (text.includes(CARD)) throw new Error(`${method}: the card number is in a ${error.name}`);
        },
      ),
      { numRuns: RUNS },
    );
    if (process.env.RUNS_OVERRIDE) console.log(seen);
    // The generator reaches every kind of outcome.
    expect(seen.ok + seen.refusedBeforeSending + seen.answered).toBe(RUNS);
    expect(seen.ok).toBeGreaterThan(0);
    expect(seen.refusedBeforeSending).toBeGreaterThan(RUNS / 2);
  });
});
