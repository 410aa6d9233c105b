import { operations, type OperationName } from '@gw/types';
import { describe, expect, it } from 'vitest';
import { createClient } from '../src/index.ts';
import { exampleInput, merchant, reply, sandboxSigner, startRecordingServer } from './support.ts';

// The spec's own example request of each operation (spec/v1/examples), without the fields the client fills.
const INPUTS = Object.fromEntries((Object.keys(operations) as OperationName[]).map((name) => [name, exampleInput(name)])) as Record<OperationName, unknown>;

describe('every request goes to its table path with the spec media type as Content-Type', () => {
  it('each operation: POST to operations[name].path under the base URL, Content-Type = requestMediaType', async () => {
    await using server = await startRecordingServer((_request, res) => reply(res, 503, 'busy'));
    const client = createClient({ baseUrl: server.url, ...merchant, signer: sandboxSigner, retry: { attempts: 1 } });
    try {
      for (const name of Object.keys(operations) as OperationName[]) {
        const before = server.received.length;
        await expect((client[name] as (input: unknown) => Promise<unknown>)(INPUTS[name]), name).rejects.toMatchObject({
          name: expect.stringMatching(/HttpError|OutcomeUnknownError/),
        });
        const seen = server.received[before]!;
        expect(seen.path, name).toBe(operations[name].path);
        expect(seen.headers['content-type'], name).toBe(operations[name].requestMediaType);
      }
    } finally {
      await client.close();
    }
  });

  it('a base URL with a path prefix keeps it; static headers are sent and a static Content-Type wins', async () => {
    await using server = await startRecordingServer((_request, res) => reply(res, 503, 'busy'));
    const client = createClient({
      baseUrl: `${server.url}/gw/`,
      ...merchant,
      signer: sandboxSigner,
      retry: { attempts: 1 },
      headers: { 'X-Route': 'eu', 'Content-Type': 'text/plain' },
    });
    try {
      await expect(client.capture(INPUTS.capture as never)).rejects.toThrow();
      expect(server.received[0]!.path).toBe('/gw/v1/capture');
      expect(server.received[0]!.headers).toMatchObject({ 'x-route': 'eu', 'content-type': 'text/plain' });
    } finally {
      await client.close();
    }
  });

  it('encodingOverrides and jsonContentType change the Content-Type the table gives', async () => {
    await using server = await startRecordingServer((_request, res) => reply(res, 503, 'busy'));
    const client = createClient({
      baseUrl: server.url,
      ...merchant,
      signer: sandboxSigner,
      retry: { attempts: 1 },
      encodingOverrides: { checkout: 'form' },
      jsonContentType: 'application/json; charset=utf-8',
    });
    try {
      await expect(client.checkout(INPUTS.checkout as never)).rejects.toThrow();
      await expect(client.payout(INPUTS.payout as never)).rejects.toThrow();
      expect(server.received.map((r) => r.headers['content-type'])).toEqual(['application/x-www-form-urlencoded', 'application/json; charset=utf-8']);
    } finally {
      await client.close();
    }
  });
});
