// Card number, security code and expiry never reach a journal, an outcome or a hook. A batch element with
// card fields (from JavaScript, or cast in TypeScript) is refused at intake, and its card fields are dropped unread.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { startSandbox, type Sandbox } from '@gw/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaptureOrder } from '@gw/types';
import { outcomesFromJournal, resumeBatch, runBatch, type OrderOutcome } from '../src/index.ts';
import { authorisedOrders, clientFor } from './harness.ts';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.stop());

const CARD = '4000056655665556';
const CVV = '737';
const card = { card: CARD, security_code: CVV, expiration_month: '09', expiration_year: '2031' };

describe('a batch element carrying card data', () => {
  it('is rejected at intake naming each card field; no card value reaches the journal, outcomes, hooks or the gateway', async () => {
    const [clean, carded, nested] = await authorisedOrders(sandbox, 3, '27.00');
    const orders = [clean!, { ...carded!, ...card }, { ...nested!, note: { holder: { card: CARD, security_code: CVV } } }] as unknown as CaptureOrder[];
    const journal = join(mkdtempSync(join(tmpdir(), 'gw-card-')), 'journal.jsonl');
    const seen: OrderOutcome[] = [];
    const requestsBefore = sandbox.state.requests.length;
    const result = await runBatch({ client: clientFor(sandbox), operation: 'capture', orders, journal, onOutcome: (o) => seen.push(o) });
    expect(result.outcomes.map((o) => o.kind)).toEqual(['succeeded', 'rejected', 'rejected']);
    expect(result.outcomes[1]!.problems!.map((p) => p.field).sort()).toEqual(['card', 'expiration_month', 'expiration_year', 'security_code']);
    expect(result.outcomes[2]!.problems!.map((p) => p.field).sort()).toEqual(['note.holder.card', 'note.holder.security_code']);
    expect(result.outcomes[1]!.reason).toMatch(/card data/);

    const resumed = await resumeBatch({ client: clientFor(sandbox), journal, orders });
    expect(resumed.outcomes.map((o) => o.kind)).toEqual(['succeeded', 'rejected', 'rejected']);

    const visible = [
      readFileSync(journal, 'utf8'),
      JSON.stringify(result),
      inspect(result, { depth: null }),
      inspect(seen, { depth: null }),
      JSON.stringify(resumed),
      JSON.stringify(await outcomesFromJournal(journal)),
      JSON.stringify(sandbox.state.requests.slice(requestsBefore)),
    ].join('\n');
    expect(visible).not.toContain(CARD);
    expect(visible).not.toMatch(new RegExp(`\\b${CVV}\\b`));
    expect(visible).not.toContain('2031');
    expect(sandbox.state.appliedCounts('capture').get(carded!.transaction_id) ?? 0).toBe(0);
  });
});
