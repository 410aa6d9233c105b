// Issue 37, item 1: card numbers sent in every place a request or an answer carries text, through gw proxy to a real
// upstream (node:http on 127.0.0.1), are in neither the report file, gw spec drift's summary, nor stdout or stderr.
import { mkdtemp, readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gw, gwStarted } from './io.ts';

/** A card number (Luhn-valid, 13 to 19 digits) as written: plain, or in groups of four split by spaces or dashes. */
interface WrittenCard {
  readonly digits: string;
  readonly text: string;
}

function luhnCheckDigit(body: string): string {
  let sum = 0;
  for (let i = body.length - 1, double = true; i >= 0; i -= 1, double = !double) {
    const d = Number(body[i]) * (double ? 2 : 1);
    sum += d > 9 ? d - 9 : d;
  }
  return String((10 - (sum % 10)) % 10);
}

const writtenCard: fc.Arbitrary<WrittenCard> = fc
  .tuple(fc.integer({ min: 13, max: 19 }), fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 18, maxLength: 18 }), fc.constantFrom('', ' ', '-'))
  .map(([length, digits, separator]) => {
    const body = `${1 + (digits[0]! % 9)}${digits.slice(1, length - 1).join('')}`;
    const all = `${body}${luhnCheckDigit(body)}`;
    return { digits: all, text: all.match(/.{1,4}/g)!.join(separator) };
  });

/** The answer the upstream gives to each path, every place of it holding the current card number. */
function answer(req: IncomingMessage, res: ServerResponse, card: WrittenCard): void {
  const path = (req.url ?? '/').split('?')[0]!;
  const name = `n${card.digits}`;
  const headers = { [`x-${card.digits}`]: card.text, 'x-card': card.text };
  if (path === '/v1/authorise') {
    res
      .writeHead(200, { ...headers, 'content-type': 'text/xml' })
      .end(`<respon><card>${card.text}</card><${name} a="${card.text}">${card.text}</${name}><order_no>${card.text}</order_no></respon>`);
  } else if (path === '/v1/checkout') {
    res
      .writeHead(200, { ...headers, 'content-type': 'text/html' })
      .end(
        `<html><body><form><input type="hidden" name="${card.text}" value="${card.text}"><input type="hidden" name="order_no" value="${card.text}"></form><p>${card.text}</p></body></html>`,
      );
  } else if (path === '/v1/capture' || path === '/v1/cancelsubscription') {
    const record = { [card.text]: card.text, result: card.text, cvv: '123', capture_orders: [{ order_no: card.text, [card.text]: { pan: card.text } }] };
    res.writeHead(200, { ...headers, 'content-type': `application/json; charset=${card.digits}` }).end(JSON.stringify(record));
  } else if (path === '/v1/refund') {
    res.writeHead(429, { ...headers, 'retry-after': card.text, 'content-type': 'application/json' }).end(JSON.stringify({ card: card.text }));
  } else {
    res.writeHead(card.digits.length % 2 ? 404 : 200, { ...headers, 'content-type': `application/x-${card.digits}` }).end(card.text);
  }
}

/** Every place a request carries text: path, query, header names and values, member names and values, form, XML. */
async function sendEverywhere(proxy: string, card: WrittenCard): Promise<void> {
  const headers = { [`x-${card.digits}`]: card.text, 'x-card': card.text };
  const send = async (path: string, contentType: string, body?: string): Promise<void> => {
    await (
      await fetch(`${proxy}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { ...headers, 'content-type': contentType },
        ...(body === undefined ? {} : { body }),
      })
    ).text();
  };
  const member = { [card.text]: card.text, card: card.text, cvv: '123', card_number: card.text, note: `paid with ${card.text}` };
  await send(`/v1/cards/${encodeURIComponent(card.text)}?card=${encodeURIComponent(card.text)}`, 'text/plain');
  await send(`/v1/${card.digits}`, 'text/plain', card.text);
  await send(
    `/v1/capture?pan=${card.digits}`,
    `application/json; x=${card.digits}`,
    JSON.stringify({ capture_orders: [{ transaction_id: card.text, order_no: card.text, currency: 'USD', amount: card.text, ...member }], ...member }),
  );
  await send(
    '/v1/authorise',
    'application/x-www-form-urlencoded',
    new URLSearchParams({ ...member, order_no: card.text, amount: card.text, currency: 'USD' }).toString(),
  );
  await send(
    '/v1/cancelsubscription',
    'application/xml',
    `<cancel_subscription><recurring_id>${card.text}</recurring_id><n${card.digits} card="${card.text}">${card.text}</n${card.digits}><cvv>123</cvv></cancel_subscription>`,
  );
  await send('/v1/checkout', 'application/json', JSON.stringify({ order_no: card.text, return_url: `https://shop.example/${card.text}`, ...member }));
  await send('/v1/refund', 'application/json', JSON.stringify({ refund_orders: [member] }));
  await send('/v1/authorise', 'application/json', `{"order_no":"${card.text}",${card.text}]}`);
}

describe('gw proxy and gw spec drift hold no card number', () => {
  it('card numbers in every place of requests and answers reach neither the report, the summary, stdout nor stderr', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gw-cli-redact-'));
    let card: WrittenCard = { digits: '4111111111111111', text: '4111111111111111' };
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => answer(req, res, card));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const upstream = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const proxy = await gwStarted(['proxy', '--upstream', upstream, '--port', '0', '--report', 'drift.json'], /on (http:\/\/127\.0\.0\.1:\d+)/, { cwd: dir });
    const sent: WrittenCard[] = [];
    try {
      await fc.assert(
        fc.asyncProperty(writtenCard, async (generated) => {
          card = generated;
          sent.push(generated);
          await sendEverywhere(proxy.url, generated);
        }),
        { numRuns: 40, examples: [[{ digits: '4111111111111111', text: '4111 1111 1111 1111' }]] },
      );
    } finally {
      expect(await proxy.stop()).toBe(0);
      await new Promise<void>((resolve) => (server.close(() => resolve()), server.closeAllConnections()));
    }
    const file = await readFile(join(dir, 'drift.json'), 'utf8');
    const summary = await gw(['spec', 'drift', 'drift.json'], { cwd: dir });
    const json = await gw(['spec', 'drift', 'drift.json', '--json'], { cwd: dir });
    expect(summary.status).toBe(13);
    expect(summary.out).toContain('/v1/cards/{digits}');
    expect(JSON.parse(file).exchanges).toBe(sent.length * 8);
    const everything = [file, proxy.c.out(), proxy.c.err(), summary.out, summary.err, json.out, json.err].join('\n');
    for (const { digits, text } of sent) {
      for (const written of new Set([digits, text, digits.match(/.{1,4}/g)!.join(' '), digits.match(/.{1,4}/g)!.join('-')]))
        expect(everything).not.toContain(written);
    }
    expect(everything).not.toContain('"123"');
  }, 120_000);
});
