// A verifier that answers later (a key service, an HSM) still has every answer checked, and `settled()` waits for all
// of them; a synchronous one is checked at once. Both find the same drift.
import { setTimeout as sleep } from 'node:timers/promises';
import { startSandbox } from '@gw/sandbox';
import type { Verifier } from '@gw/signer-interface';
import { describe, expect, it } from 'vitest';
import { startProxy, type DriftReport } from '../src/index.ts';
import { CARD, clientAt, CVV, signer } from './support.ts';

/** The reference signer's verdict, given after a few ms (each call a different wait, so answers come out of order). */
const slowVerifier: Verifier = {
  verify: async (message, signature) => {
    await sleep(1 + Math.floor(Math.random() * 15));
    return signer.verify(message, signature);
  },
};

async function driftThrough(verifier: Verifier): Promise<DriftReport> {
  await using sandbox = await startSandbox();
  await using proxy = await startProxy({ upstream: sandbox.url, verifier });
  const client = clientAt(proxy.url, { verifyResponses: false });
  const pay = (n: number) =>
    client.authoriseCard({
      order_no: `ASYNC-${n}-${Math.random()}`,
      currency: 'USD',
      amount: '40.00',
      card: CARD,
      expiration_month: '12',
      expiration_year: '2031',
      security_code: CVV,
    });
  await Promise.all(Array.from({ length: 12 }, (_, n) => pay(n)));
  sandbox.answerDrift.set({ authoriseCard: { wrongSignature: true } });
  await Promise.all(Array.from({ length: 5 }, (_, n) => pay(100 + n)));
  sandbox.answerDrift.set({});
  await Promise.all(Array.from({ length: 6 }, (_, n) => pay(200 + n)));
  await proxy.settled();
  return structuredClone(proxy.report);
}

describe('the proxy verifying answers with an asynchronous verifier', () => {
  it('checks every answer, finds each wrong signature, and settled() waits for the last verdict', async () => {
    const report = await driftThrough(slowVerifier);
    expect(report.observations.authoriseCard?.answers).toBe(23);
    expect(report.drift.map(({ kind, path, count }) => ({ kind, path, count }))).toEqual([{ kind: 'signature', path: 'encryption_data', count: 5 }]);
  });

  it('finds the same with the synchronous verifier', async () => {
    const report = await driftThrough(signer);
    expect(report.observations.authoriseCard?.answers).toBe(23);
    expect(report.drift.map(({ kind, path, count }) => ({ kind, path, count }))).toEqual([{ kind: 'signature', path: 'encryption_data', count: 5 }]);
  });
});
