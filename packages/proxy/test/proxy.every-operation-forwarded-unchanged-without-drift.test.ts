import { startSandbox } from '@gw/sandbox';
import { describe, expect, it } from 'vitest';
import { startProxy, type Exchange } from '../src/index.ts';
import { clientAt, everyOperation, fixedClock, signer } from './support.ts';

async function answerOf(baseUrl: string, exchange: Exchange) {
  const res = await fetch(`${baseUrl}${exchange.path}`, {
    method: 'POST',
    headers: { 'content-type': exchange.requestContentType },
    body: exchange.requestBody!,
  });
  return { status: res.status, contentType: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
}

describe('client -> gw proxy -> sandbox', () => {
  it('every operation and wire form: no drift, every answer decoded and its signature verified', async () => {
    await using sandbox = await startSandbox({ clock: fixedClock });
    await using proxy = await startProxy({ upstream: sandbox.url, verifier: signer });
    await everyOperation(clientAt(proxy.url), clientAt(proxy.url, { encodingOverrides: { authoriseCard: 'form' } }), 'CLEAN');
    await proxy.settled();
    expect(proxy.report.drift).toEqual([]);
    expect(proxy.report.exchanges).toBe(13);
    expect(proxy.report.unchecked).toBe(0);
    expect(proxy.report.signaturesChecked).toBe(true);
    for (const name of [
      'authoriseCard',
      'authoriseAlternative',
      'checkout',
      'capture',
      'refund',
      'review',
      'cancel',
      'query',
      'cancelSubscription',
      'payout',
    ]) {
      expect(proxy.report.observations[name]?.statuses, name).toMatchObject({ '200': expect.any(Number) });
    }
    expect(proxy.report.observations.authoriseCard?.requestForms).toEqual({ json: 3, form: 1 });
    expect(proxy.report.observations.cancelSubscription?.requestForms).toEqual({ xml: 1 });
    expect(proxy.report.observations.capture?.values['capture_orders[].capture_status']).toEqual({ unknowns: 'U47', counts: { '1': 1 } });
  });

  it('the bytes, status and content type a caller receives are the same with and without the proxy', async () => {
    const exchanges: Exchange[] = [];
    {
      await using sandbox = await startSandbox({ clock: fixedClock, seed: 7 });
      await using proxy = await startProxy({ upstream: sandbox.url, onExchange: (e) => exchanges.push(e) });
      await everyOperation(clientAt(proxy.url), clientAt(proxy.url, { encodingOverrides: { authoriseCard: 'form' } }), 'BYTES');
    }
    expect(exchanges).toHaveLength(13);
    await using direct = await startSandbox({ clock: fixedClock, seed: 7 });
    await using behind = await startSandbox({ clock: fixedClock, seed: 7 });
    await using proxy = await startProxy({ upstream: behind.url });
    let identical = 0;
    for (const exchange of exchanges) {
      const [straight, proxied] = [await answerOf(direct.url, exchange), await answerOf(proxy.url, exchange)];
      expect(proxied.status, exchange.path).toBe(straight.status);
      expect(proxied.contentType).toBe(straight.contentType);
      if (!straight.bytes.includes('/sandbox/pay/')) {
        expect(proxied.bytes.equals(straight.bytes), exchange.path).toBe(true);
        identical += 1;
        continue;
      }
      // An answer naming a shopper page carries the sandbox's address and a random page token, so its signature differs too.
      const masked = (a: Buffer, base: string) =>
        a
          .toString('utf8')
          .replaceAll(base, 'BASE')
          .replace(/\/sandbox\/pay\/[A-Za-z0-9_-]{22}/g, '/sandbox/pay/TOKEN')
          .replace(/<encryption_data>[0-9a-f]{64}</g, '<encryption_data>SIG<');
      expect(masked(proxied.bytes, behind.url)).toBe(masked(straight.bytes, direct.url));
    }
    expect(identical).toBe(11);
  });
});
