import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Sandbox } from '@gw/sandbox';
import { describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../src/index.ts';
import { gw } from './io.ts';
import { sandboxForFile } from './sandbox-harness.ts';

const examples = join(import.meta.dirname, '../../../spec/v1/examples');
let sandbox: Sandbox;
sandboxForFile((started) => (sandbox = started));

describe('gw on the command line', () => {
  it('prints help with every command and the exit statuses, on every command', async () => {
    const help = await gw(['--help']);
    expect(help.status).toBe(0);
    for (const word of ['sandbox', 'demo', 'call', 'batch', 'decode', 'Exit status', 'outcome unknown']) expect(help.out).toContain(word);
    const batchHelp = await gw(['batch', '--help']);
    expect(batchHelp.status).toBe(0);
    expect(batchHelp.out).toContain('--journal');
    expect(batchHelp.out).toContain('--resume');
    expect((await gw(['nope'])).status).toBe(EXIT_CODES.usage);
  });

  it('calls an operation and prints the typed result as JSON', async () => {
    const data = join(mkdtempSync(join(tmpdir(), 'gw-cli-')), 'query.json');
    writeFileSync(data, JSON.stringify({ order_no: 'NOT-THERE' }));
    const result = await gw(['call', 'query', '--data', data, '--base-url', sandbox.url, '--sandbox-defaults']);
    expect(result.err).toBe('');
    expect(result.status).toBe(0);
    expect(JSON.parse(result.out)).toMatchObject({ return_status: '1', orders_list: [{ order_no: 'NOT-THERE', query_result: '0' }] });
  });

  it('reads the request from standard input and settings from the environment', async () => {
    const result = await gw(['call', 'query', '--data', '-'], {
      stdin: JSON.stringify({ transaction_id: 'T-NONE' }),
      env: { GW_BASE_URL: sandbox.url, GW_MERCHANT_ID: 'M100200', GW_ACCOUNT_ID: 'A300400', GW_SECRET: 'gw-sandbox-secret' },
    });
    expect(result.status).toBe(0);
    expect(JSON.parse(result.out).orders_list[0]).toMatchObject({ transaction_id: 'T-NONE' });
  });

  it('prints a typed error with its code and exits with its status, naming every problem, never the card number', async () => {
    const data = join(mkdtempSync(join(tmpdir(), 'gw-cli-')), 'card.json');
    writeFileSync(data, JSON.stringify({ order_no: 'X', amount: '12.345', currency: 'usd', card: '4111111111111111', security_code: '737' }));
    const result = await gw(['call', 'authoriseCard', '--data', data, '--base-url', sandbox.url, '--sandbox-defaults']);
    expect(result.status).toBe(EXIT_CODES.validation);
    const printed = JSON.parse(result.err); // off a terminal: the typed error as JSON, and nothing else
    expect(printed).toMatchObject({ exitStatus: 3, error: { code: 'GW_VALIDATION', name: 'ValidationError' } });
    expect(printed.error.details.problems.map((p: { field: string }) => p.field).sort()).toEqual(['amount', 'currency']);
    expect(result.err + result.out).not.toContain('4111111111111111');
    expect(result.err + result.out).not.toContain('737');
  });

  it('names every missing setting at once, and takes a config file', async () => {
    const missing = await gw(['call', 'query', '--data', '-'], { stdin: '{}' });
    expect(missing.status).toBe(EXIT_CODES.usage);
    for (const word of ['baseUrl', 'merchantId', 'accountId', 'signer']) expect(missing.err).toContain(word);
    const dir = mkdtempSync(join(tmpdir(), 'gw-cli-'));
    writeFileSync(
      join(dir, 'gw.config.json'),
      JSON.stringify({ baseUrl: sandbox.url, merchantId: 'M100200', accountId: 'A300400', secret: 'gw-sandbox-secret' }),
    );
    const fromFile = await gw(['call', 'query', '--data', '-'], { stdin: '{"order_no":"A"}', cwd: dir });
    expect(fromFile.status).toBe(0);
    writeFileSync(join(dir, 'gw.config.json'), JSON.stringify({ baseUrl: sandbox.url, colour: 'red' }));
    expect((await gw(['call', 'query', '--data', '-'], { stdin: '{}', cwd: dir })).err).toContain('unknown setting(s) colour');
  });

  it('maps gateway refusals to their exit status', async () => {
    const refused = await gw(
      ['call', 'capture', '--data', '-', '--base-url', sandbox.url, '--merchant-id', 'M-OTHER', '--account-id', 'A300400', '--secret', 'gw-sandbox-secret'],
      {
        stdin: JSON.stringify({ capture_orders: [{ transaction_id: 'T1', order_no: 'O1', currency: 'USD', amount: '1.00' }] }),
      },
    );
    expect(refused.status).toBe(EXIT_CODES.gateway);
    expect(refused.err).toContain('GW_GATEWAY');
  });

  it('decodes a respon document and a checkout page, and refuses a broken one with exit 7', async () => {
    const respon = await gw(['decode', 'respon', join(examples, 'authoriseCard.response.xml')]);
    expect(respon.status).toBe(0);
    expect(JSON.parse(respon.out)).toEqual({ variant: 'card', respon: JSON.parse(readFileSync(join(examples, 'authoriseCard.response.json'), 'utf8')) });
    const page = await gw(['decode', 'checkout', join(examples, 'checkout.response.html')]);
    expect(JSON.parse(page.out).fields).toEqual(JSON.parse(readFileSync(join(examples, 'checkout.response.json'), 'utf8')));
    const broken = await gw(['decode', 'respon', '-'], { stdin: '<respon><order_status>1</respon>' });
    expect(broken.status).toBe(EXIT_CODES.decode);
  });
});
