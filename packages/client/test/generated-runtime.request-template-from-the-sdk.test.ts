import { operations, type OperationName } from '@gw/types';
import { describe, expect, it } from 'vitest';
import { createPreEncodedRuntime, learnRequestTemplate } from '../src/generated-runtime.ts';
import * as sdk from '../src/generated/openapi/sdk.gen.ts';

const CONTENT_TYPES = { json: 'application/json', form: 'application/x-www-form-urlencoded', xml: 'application/xml' } as const;

describe('the request each call sends is the one the generated SDK function builds', () => {
  it.each(Object.keys(operations) as OperationName[])('%s: path and Content-Type come from its generated function', async (operation) => {
    const op = operations[operation];
    expect(typeof (sdk as Record<string, unknown>)[op.operationId]).toBe('function');
    const template = await learnRequestTemplate(operation, createPreEncodedRuntime('http://127.0.0.1:9'), 'http://127.0.0.1:9', {});
    expect(template.path).toBe(op.path);
    expect(template.headers['content-type']).toBe(CONTENT_TYPES[op.requestEncoding]);
  });

  it('carries the static headers the client adds, and refuses a generated function that would leave the origin', async () => {
    const runtime = createPreEncodedRuntime('http://127.0.0.1:9');
    const template = await learnRequestTemplate('capture', runtime, 'http://127.0.0.1:9', { 'X-Route': 'eu', 'Content-Type': 'text/plain' });
    expect(template.headers).toMatchObject({ 'x-route': 'eu', 'content-type': 'text/plain' });
    await expect(learnRequestTemplate('capture', createPreEncodedRuntime('http://example.test'), 'http://127.0.0.1:9', {})).rejects.toThrow(/not a POST under/);
  });
});
